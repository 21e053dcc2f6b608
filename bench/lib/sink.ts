import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './types.ts';

export interface Sink {
  url: string;
  pid: number;
}

/** Starts lib/sink-server.ts in a child process writing into `dir`; stopped when the benchmark ends. */
export async function startSink(ctx: BenchContext, dir: string): Promise<Sink> {
  const entry = fileURLToPath(new URL('./sink-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ctx.repoRoot, env: { ...process.env, SINK_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
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
    child.once('exit', (code) => reject(new Error(`the sink exited (code ${code}) before listening:\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? -1 };
}
