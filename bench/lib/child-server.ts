import { spawn } from 'node:child_process';
import type { BenchContext } from './types.ts';

export interface ChildServer {
  url: string;
  pid: number;
}

/**
 * Runs a baseline server (a TypeScript file that prints `listening <port>`) in a child process of
 * the same Node; it is stopped when the benchmark ends, and killed if the bench process exits first.
 */
export async function startChildServer(ctx: BenchContext, name: string, entry: string, env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ctx.repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
    child.once('exit', (code) => reject(new Error(`${name} exited (code ${code}) before listening:\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? -1 };
}
