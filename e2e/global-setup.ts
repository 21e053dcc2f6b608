/**
 * Builds the e2e build of the web app (apps/web/dist-e2e) when the web's sources are newer than it, so a
 * run never tests stale pages. `npm run build` makes it too (and the production build, apps/web/dist).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build-web-if-stale.mjs', '--e2e'], { cwd: repoRoot, stdio: 'inherit' });
}
