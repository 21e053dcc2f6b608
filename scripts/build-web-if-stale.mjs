// Builds the web app when its sources are newer than the last build, so `npm start` serves current pages
// without paying for a rebuild on every start.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/precompress.ts', 'apps/web/package.json', 'packages/contract/src'];

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((n) => newest(path.join(p, n))));
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
if (builtAt === 0 || sources.some((s) => newest(path.join(root, s)) > builtAt)) {
  console.log('Building the web app…');
  execSync('npm run build -w @portal/web', { cwd: root, stdio: 'inherit' });
}
