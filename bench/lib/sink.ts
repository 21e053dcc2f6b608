import { fileURLToPath } from 'node:url';
import { startChildServer, type ChildServer } from './child-server.ts';
import type { BenchContext } from './types.ts';

export type Sink = ChildServer;

/** Starts lib/sink-server.ts in a child process writing into `dir`; stopped when the benchmark ends. */
export function startSink(ctx: BenchContext, dir: string): Promise<Sink> {
  return startChildServer(ctx, 'the sink', fileURLToPath(new URL('./sink-server.ts', import.meta.url)), { SINK_DIR: dir });
}
