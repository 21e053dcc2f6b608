/**
 * Builds the web app when its sources are newer than the builds, so a run never tests stale pages: the
 * e2e build (apps/web/dist-e2e), which the tests' server serves, and the production build (apps/web/dist),
 * which production-build.test.ts inspects. `npm run build` makes both too.
 *
 * Then starts the server once on an empty data directory, as `npm start` does on a new machine (it
 * migrates PGlite and seeds the demo shop), stops it, and leaves that directory for startServer to copy
 * (support/server.ts): each file's server then starts in 2.5 s instead of 10-11 s.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEEDED_DATA_DIR_ENV, startServer } from './support/server.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  for (const args of [['--e2e'], []]) {
    execFileSync(process.execPath, ['scripts/build-web-if-stale.mjs', ...args], { cwd: repoRoot, stdio: 'inherit' });
  }
  const seeded = await mkdtemp(join(tmpdir(), 'portal-e2e-seeded-'));
  const server = await startServer({ dataDir: seeded, fresh: true });
  await server.stop();
  // The test files run in forked workers, which inherit this process's environment.
  process.env[SEEDED_DATA_DIR_ENV] = seeded;
  return async () => {
    await rm(seeded, { recursive: true, force: true });
  };
}
