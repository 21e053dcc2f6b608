import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BareRoute } from './bare-fastify-server.ts';
import type { BenchContext } from './types.ts';

export type { BareRoute };

export interface BareFastify {
  url: string;
  pid: number;
}

/**
 * Starts lib/bare-fastify-server.ts (same Node, the server's fastify) in a child process serving
 * `routes`; stopped when the benchmark ends.
 */
export async function startBareFastify(ctx: BenchContext, routes: BareRoute[]): Promise<BareFastify> {
  const routesFile = path.join(await ctx.tmpDir('bare-fastify'), 'routes.json');
  await writeFile(routesFile, JSON.stringify(routes));
  const entry = fileURLToPath(new URL('./bare-fastify-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ctx.repoRoot, env: { ...process.env, BARE_ROUTES: routesFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  ctx.defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const m = /listening (\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the bare Fastify server exited (code ${code}) before listening:\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? -1 };
}
