// Builds the web app when its sources are newer than the last build, so `npm start` serves current pages
// without paying for a rebuild on every start. With `--e2e`, the same for the e2e build (apps/web/dist-e2e,
// the app plus the test hook), which the e2e tests and the bench serve.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const e2e = process.argv.includes('--e2e');
const built = path.join(root, e2e ? 'apps/web/dist-e2e/index.html' : 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/precompress.ts', 'apps/web/package.json', 'packages/contract/src'];

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((n) => newest(path.join(p, n))));
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
if (builtAt === 0 || sources.some((s) => newest(path.join(root, s)) > builtAt)) {
  console.log(e2e ? 'Building the web app for the e2e tests…' : 'Building the web app…');
  // A caller's NODE_ENV (vitest sets "test") would make Vite bundle React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  execSync(`npm run ${e2e ? 'build:e2e' : 'build'} -w @portal/web`, { cwd: root, stdio: 'inherit', env });
}
