// Bundles the server (apps/server/src/server.ts and the contract and measure packages it imports) into one ES module,
// apps/server/dist/server.mjs, which `npm start` runs with plain Node. With `--if-stale`, only when
// the sources are newer than the last bundle.
//
// Why not tsx in production: tsx transpiles every module when the server starts and keeps a loader
// thread and the modules' source maps for the process's life; the server at rest takes ≈ 34 MB less
// without it (docs/decisions.md, Stack). tsx stays for tests, `npm run dev` and the commands.
// npm packages stay outside the bundle (imported from node_modules as they are); files read at run
// time are found through apps/server/src/paths.ts, which holds in the bundle too.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outfile = path.join(root, 'apps/server/dist/server.mjs');
const sources = ['apps/server/src', 'apps/server/package.json', 'packages/contract/src', 'packages/contract/package.json', 'packages/measure/src', 'packages/measure/package.json', 'scripts/build-server.mjs'];

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((n) => newest(path.join(p, n))));
}

const builtAt = existsSync(outfile) ? statSync(outfile).mtimeMs : 0;
if (!process.argv.includes('--if-stale') || builtAt === 0 || sources.some((s) => newest(path.join(root, s)) > builtAt)) {
  const { outputFiles } = await build({
    entryPoints: [path.join(root, 'apps/server/src/server.ts')],
    outfile,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Every npm package but our own (contract, measure: TypeScript source, which plain Node cannot load),
    // found as their package.json exports say: `@portal/x` is src/index.ts, `@portal/x/y` src/y.ts.
    packages: 'external',
    plugins: [{
      name: 'portal-workspaces',
      setup(b) {
        b.onResolve({ filter: /^@portal\/(contract|measure)(\/[\w-]+)?$/ }, (args) => {
          const [, name, sub] = /^@portal\/(contract|measure)(?:\/([\w-]+))?$/.exec(args.path);
          return { path: path.join(root, 'packages', name, 'src', `${sub ?? 'index'}.ts`) };
        });
      },
    }],
    logLevel: 'warning',
  });
  // Written aside and renamed into place: test processes that start servers at the same time (the
  // drills) may build at once, and none of them may run a half-written file.
  mkdirSync(path.dirname(outfile), { recursive: true });
  const tmp = `${outfile}.${process.pid}.tmp`;
  writeFileSync(tmp, outputFiles[0].contents);
  renameSync(tmp, outfile);
}
