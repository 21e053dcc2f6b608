/**
 * Builds the web app when its sources are newer than the builds, so a run never tests stale pages: the
 * e2e build (apps/web/dist-e2e), which the tests' server serves, and the production build (apps/web/dist),
 * which production-build.test.ts inspects. `npm run build` makes both too.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  for (const args of [['--e2e'], []]) {
    execFileSync(process.execPath, ['scripts/build-web-if-stale.mjs', ...args], { cwd: repoRoot, stdio: 'inherit' });
  }
}
