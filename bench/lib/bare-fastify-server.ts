/**
 * The baseline of latency benchmarks, run as its own process: a bare Fastify 5 server (the very
 * fastify the portal's server loads, resolved from apps/server) with no plugins, no logger and no
 * schemas, whose routes answer fixed JSON bodies. BARE_ROUTES names a JSON file holding
 * `[{ method, url, headers?, body }]`; each route answers its `body` as a handler returning an object
 * does (Fastify's default JSON serialisation, per request). It prints `listening <port>` when ready.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface BareRoute {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body: unknown;
}

const file = process.env.BARE_ROUTES;
if (!file) throw new Error('BARE_ROUTES is not set');
const routes = JSON.parse(readFileSync(file, 'utf8')) as BareRoute[];

const requireFromServer = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const Fastify = requireFromServer('fastify') as typeof import('fastify').default;

const app = Fastify();
for (const r of routes) {
  app.route({
    method: r.method,
    url: r.url,
    handler: async (_request, reply) => {
      if (r.headers) reply.headers(r.headers);
      return r.body;
    },
  });
}
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${new URL(address).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
