/**
 * Starts the real server as a child process on a free port with its own data directory, the way
 * `npm start` runs it (the bundle apps/server/dist/server.mjs, made again when its sources are newer),
 * and waits until /api/health answers 200.
 * The data directory is a copy of the demo shop's, started once by the e2e global setup
 * (SEEDED_DATA_DIR_ENV), when there is one: a first start migrates and seeds PGlite, 10-11 s of CPU
 * per server against 2.5 s (docs/decisions.md, Stack). `fresh: true` starts on an empty one, as
 * `npm start` on a new machine does.
 * The server serves the e2e build of the app (apps/web/dist-e2e: the production build plus the test hook),
 * made by `npm run build`; the e2e config's global setup builds it when the web's sources are newer.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const HEALTH_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;
const OUTPUT_LIMIT = 200_000;

export interface StartServerOptions {
  /** Extra or overriding environment variables for the server. */
  env?: Record<string, string | undefined>;
  /** Reuse a data directory (e.g. to restart after `kill9()`); it is then never deleted by `stop()`. */
  dataDir?: string;
  /** Port to listen on; a free one by default (pass the old port to restart "the same" server). */
  port?: number;
  /** Address to listen on (HOST); 127.0.0.1 by default. */
  host?: string;
  /** Start on an empty data directory even when a seeded one is prepared (a first start). */
  fresh?: boolean;
  /** The server bundle to run, relative to the repository root (another build's, for an A/B run); `npm start`'s by default. */
  entry?: string;
}

/** Where the e2e global setup leaves the data directory of a server that has started once. */
export const SEEDED_DATA_DIR_ENV = 'PORTAL_E2E_SEEDED_DATA_DIR';

export interface RunningServer {
  /** http://<host>:<port> (127.0.0.1 unless told), no trailing slash. */
  url: string;
  port: number;
  dataDir: string;
  pid: number;
  /** What the server wrote to stdout and stderr so far (the last 200 kB), for failure messages. */
  output(): string;
  /** SIGTERM, wait for exit (SIGKILL after 10 s); deletes the data dir when this call created it. */
  stop(): Promise<void>;
  /** SIGKILL at once, wait for exit; keeps the data dir (for restart drills). */
  kill9(): Promise<void>;
}

/** A free TCP port: listen on port 0, read the port, close. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (!address || typeof address === 'string') {
        probe.close();
        reject(new Error('could not read the probe port'));
        return;
      }
      probe.close(() => resolve(address.port));
    });
  });
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

let bundled = false;

/** `scripts/build-server.mjs --if-stale`, once per process: tests and benchmarks run what `npm start` runs. */
function bundleServer(): void {
  if (bundled) return;
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: repoRoot, stdio: 'inherit' });
  bundled = true;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  bundleServer();
  const port = options.port ?? (await freePort());
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'portal-e2e-')));
  const seeded = process.env[SEEDED_DATA_DIR_ENV];
  if (ownsDataDir && seeded && !options.fresh) await cp(seeded, dataDir, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host}:${port}`;

  // Vitest's own variables (NODE_ENV=test, VITEST…) are not the server's business.
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key === 'NODE_ENV' || key.startsWith('VITEST') || key === 'TEST') delete env[key];
  }
  Object.assign(env, {
    PORT: String(port),
    HOST: host,
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    WEB_DIST: join(repoRoot, 'apps/web/dist-e2e'),
    ...options.env,
  });

  // As `npm start` runs it (package.json; docs/decisions.md, Stack, says why a bundle).
  const child = spawn(process.execPath, [options.entry ?? 'apps/server/dist/server.mjs'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);

  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  const waitForExit = async (signal: NodeJS.Signals, graceMs: number) => {
    if (hasExited) return;
    child.kill(signal);
    const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, graceMs, 'timeout'));
    if ((await Promise.race([exited, timer])) === 'timeout') {
      child.kill('SIGKILL');
      await exited;
    }
  };

  const server: RunningServer = {
    url,
    port,
    dataDir,
    pid: child.pid ?? -1,
    output: () => output,
    async stop() {
      await waitForExit('SIGTERM', STOP_GRACE_MS);
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
    async kill9() {
      await waitForExit('SIGKILL', STOP_GRACE_MS);
    },
  };

  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  for (;;) {
    if (hasExited) {
      const { code, signal } = await exited;
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      throw new Error(`the server exited (code ${code}, signal ${signal}) before it was ready:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the server did not answer /api/health with 200 within ${HEALTH_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The demo shop's catalogue, as the operator imports it in the console. */
export const DEMO_CATALOGUE_FILE = fileURLToPath(new URL('../../apps/server/src/db/seed/demo-catalogue.json', import.meta.url));

/** A token from POST /api/authenticate, as an API client logs in (the password is the login's own name by default, as the demo's are). */
export async function apiLogin(url: string, username: string, password = username): Promise<string> {
  const res = await fetch(`${url}/api/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (res.status !== 200) throw new Error(`login ${username}: ${res.status}`);
  return ((await res.json()) as { id_token: string }).id_token;
}
