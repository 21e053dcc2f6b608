import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BareRoute } from './bare-fastify-server.ts';
import { startChildServer, type ChildServer } from './child-server.ts';
import type { BenchContext } from './types.ts';

export type { BareRoute };

export type BareFastify = ChildServer;

/**
 * Starts lib/bare-fastify-server.ts (same Node, the server's fastify) in a child process serving
 * `routes`; stopped when the benchmark ends.
 */
export async function startBareFastify(ctx: BenchContext, routes: BareRoute[]): Promise<BareFastify> {
  const routesFile = path.join(await ctx.tmpDir('bare-fastify'), 'routes.json');
  await writeFile(routesFile, JSON.stringify(routes));
  return startChildServer(ctx, 'the bare Fastify server', fileURLToPath(new URL('./bare-fastify-server.ts', import.meta.url)), { BARE_ROUTES: routesFile });
}
