/**
 * The real server for a benchmark, as `npm start` runs it (`node apps/server/dist/server.mjs`), in a child process
 * (the e2e harness's startServer), on a free port with a fresh DATA_DIR and the demo shop, logged in
 * as demo/demo. Being a child process, its memory can be read from /proc/<pid>.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer, type RunningServer } from '../../e2e/support/server.ts';
import { closeIdleConnections, json } from './http.ts';
import type { BenchContext } from './types.ts';

export interface BenchServer {
  url: string;
  pid: number;
  dataDir: string;
  token: string;
  /** A JSON call with the demo customer's token. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** What the server printed (warnings and errors only), for crash messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * BENCH_CPU_PROF=<dir> makes the server write a V8 CPU profile there when it stops (open it in
 * Chrome DevTools or speedscope) to see where a figure's time goes.
 */
export async function startBenchServer(ctx: BenchContext, env: Record<string, string> = {}, entry?: string): Promise<BenchServer> {
  const profileDir = process.env.BENCH_CPU_PROF;
  const preload = pathToFileURL(fileURLToPath(new URL('./cpu-profile.mjs', import.meta.url))).href;
  const profile: Record<string, string> = profileDir
    ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim(), BENCH_CPU_PROF_DIR: path.resolve(profileDir) }
    : {};
  const running: RunningServer = await startServer({ env: { LOG_LEVEL: 'warn', SEED_DEMO: 'true', ...profile, ...env }, ...(entry ? { entry } : {}) });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    closeIdleConnections();
    await running.stop();
  };
  ctx.defer(stop);
  const { id_token: token } = await json<{ id_token: string }>(`${running.url}/api/authenticate`, { body: { username: 'demo', password: 'demo' } });
  return {
    url: running.url,
    pid: running.pid,
    dataDir: running.dataDir,
    token,
    call: <T>(method: string, path: string, body?: unknown) => json<T>(running.url + path, { method, token, body }),
    output: running.output,
    stop,
  };
}
