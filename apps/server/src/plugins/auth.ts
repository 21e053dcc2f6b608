import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyJwt from '@fastify/jwt';
import { forbidden, unauthorized } from '../errors.ts';

export type Caller = { userId: number; login: string; customerId: number; hubId: number; authorities: string[] };

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; login: string; cid: number; hid: number; auth: string[] };
    user: Caller;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No login needed (login itself, health, docs, signed file links). */
    public?: boolean;
  }
}

/** Keys that name a hub or a customer wherever they appear in params, query or body. */
const HUB_KEYS = ['customerHubId'] as const;
const CUSTOMER_KEYS = ['customerId', 'entityId'] as const;

/**
 * Authentication and the hub scope, enforced here once for every /api route:
 * - every route needs a valid token unless its config says public;
 * - any customerHubId in params, query or body must be the caller's hub, and any customerId or entityId
 *   the caller's customer, else 403 before the handler runs.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { secret: string; ttlSeconds: number }) => {
    await app.register(fastifyJwt, {
      secret: opts.secret,
      sign: { expiresIn: opts.ttlSeconds },
      // A verified token is remembered (never past its expiry): a batch sends hundreds of chunks
      // with one token, and each verification costs an HMAC.
      verify: { cache: 1000 },
      formatUser: (p) => ({ userId: Number(p.sub), login: p.login, customerId: p.cid, hubId: p.hid, authorities: p.auth }),
    });

    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.public || !request.url.startsWith('/api') || isDocs(request.url)) return;
      // An unknown /api route answers 404 for everyone rather than hinting at what exists.
      if (!request.routeOptions.url) return;
      try {
        await request.jwtVerify();
      } catch {
        throw unauthorized();
      }
    });

    app.addHook('preHandler', async (request) => {
      if (request.routeOptions.config.public || !request.user) return;
      checkScope(request);
    });
  },
  { name: 'auth' },
);

/** The OpenAPI document and its viewer are public: they describe the API, they hold no data. */
const isDocs = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/') || url.startsWith('/api/docs?');

function checkScope(request: FastifyRequest) {
  const caller = request.user;
  for (const source of [request.params, request.query, request.body]) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    const record = source as Record<string, unknown>;
    for (const key of HUB_KEYS) {
      if (record[key] !== undefined && record[key] !== null && record[key] !== '' && Number(record[key]) !== caller.hubId) throw forbidden();
    }
    for (const key of CUSTOMER_KEYS) {
      if (record[key] !== undefined && record[key] !== null && record[key] !== '' && Number(record[key]) !== caller.customerId) throw forbidden();
    }
  }
}

export function signToken(app: FastifyInstance, user: { id: number; login: string; customerId: number; hubId: number; authorities: string[] }) {
  return app.jwt.sign({ sub: String(user.id), login: user.login, cid: user.customerId, hid: user.hubId, auth: user.authorities });
}
