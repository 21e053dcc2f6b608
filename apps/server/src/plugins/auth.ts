import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyJwt from '@fastify/jwt';
import { SERVER_MSG } from '@portal/contract';
import { forbidden, unauthorized } from '../errors.ts';

/** A customer's login: every call it makes is scoped to its hub and its customer. */
export type Caller = { userId: number; login: string; customerId: number; hubId: number; authorities: string[] };
/** A login of the shop's staff: /api/admin only, every hub. */
export type Operator = { operatorId: number; login: string; authorities: string[] };
export type TokenUser = ({ role: 'customer' } & Caller) | ({ role: 'operator' } & Operator);

export const ROLE_OPERATOR = 'ROLE_OPERATOR';
/** Every route under this prefix is for operators only; routes/admin registers them there. */
export const ADMIN_PREFIX = '/api/admin';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    // role and v came later: a token without them is a customer's of version 0.
    payload: { sub: string; login: string; cid?: number; hid?: number; auth: string[]; role?: 'customer' | 'operator'; v?: number };
    user: TokenUser & { version: number };
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No login needed (login itself, health, docs, signed file links). */
    public?: boolean;
    /** Open to operators as well as customers (only /api/account: the login page asks who it is). */
    anyRole?: boolean;
  }
  interface FastifyInstance {
    /**
     * For a public route that also serves a logged-in customer (a file without a signed link): the
     * customer of the request's token when it is valid and its login still active, else null.
     */
    customerOf: (request: FastifyRequest) => Promise<Caller | null>;
  }
  interface FastifyRequest {
    /** The customer behind this call; throws 403 for anyone else (the hook below already refused them). */
    readonly customer: Caller;
    /** The operator behind this call; throws 403 for anyone else. */
    readonly operator: Operator;
  }
}

/** Whether a token's login still may act: not disabled, and the password not reset since it was signed. */
export type SessionCheck = (user: TokenUser & { version: number }) => Promise<'ok' | 'disabled' | 'stale'>;

/** Keys that name a hub or a customer wherever they appear in params, query or body. */
const HUB_KEYS = ['customerHubId'] as const;
const CUSTOMER_KEYS = ['customerId', 'entityId'] as const;

const isAdminRoute = (routeUrl: string) => routeUrl === ADMIN_PREFIX || routeUrl.startsWith(`${ADMIN_PREFIX}/`);

/**
 * Authentication, roles and the hub scope, enforced here once for every /api route:
 * - every route needs a valid token unless its config says public, and its login must still be active;
 * - a route under /api/admin needs an operator's token; every other route a customer's (anyRole: both),
 *   so an operator's token never reaches a customer route, which would have no hub to scope it to;
 * - any customerHubId in a customer's params, query or body must be the caller's hub, and any customerId
 *   or entityId the caller's customer, else 403 before the handler runs. (On admin routes they are filters.)
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { secret: string; ttlSeconds: number; checkSession: SessionCheck }) => {
    await app.register(fastifyJwt, {
      secret: opts.secret,
      sign: { expiresIn: opts.ttlSeconds },
      // A verified token is remembered (never past its expiry): a batch sends hundreds of chunks
      // with one token, and each verification costs an HMAC.
      verify: { cache: 1000 },
      formatUser: (p) => (p.role === 'operator'
        ? { role: 'operator', operatorId: Number(p.sub), login: p.login, authorities: p.auth, version: p.v ?? 0 }
        : { role: 'customer', userId: Number(p.sub), login: p.login, customerId: p.cid ?? 0, hubId: p.hid ?? 0, authorities: p.auth, version: p.v ?? 0 }),
    });

    app.decorateRequest('customer', {
      getter(this: FastifyRequest): Caller {
        const u = this.user;
        if (u?.role !== 'customer') throw forbidden(SERVER_MSG.customersOnly);
        return u;
      },
    });
    app.decorateRequest('operator', {
      getter(this: FastifyRequest): Operator {
        const u = this.user;
        if (u?.role !== 'operator') throw forbidden(SERVER_MSG.operatorsOnly);
        return u;
      },
    });

    app.decorate('customerOf', async (request: FastifyRequest): Promise<Caller | null> => {
      const ok = await request.jwtVerify().then(() => true, () => false);
      if (!ok || request.user.role !== 'customer') return null;
      return (await opts.checkSession(request.user)) === 'ok' ? request.user : null;
    });

    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.public || !request.url.startsWith('/api') || isDocs(request.url)) return;
      // An unknown /api route answers 404 for everyone rather than hinting at what exists: it has no
      // route, or only the web app's files' (/*), which finds no such file and hands it to the 404.
      const routeUrl = request.routeOptions.url;
      if (!routeUrl?.startsWith('/api')) return;
      try {
        await request.jwtVerify();
      } catch {
        throw unauthorized();
      }
      const session = await opts.checkSession(request.user);
      if (session === 'disabled') throw unauthorized(disabledMessage(request.user.role));
      if (session === 'stale') throw unauthorized(SERVER_MSG.sessionExpired);
      const role = request.user.role;
      if (isAdminRoute(routeUrl)) {
        if (role !== 'operator') throw forbidden(SERVER_MSG.operatorsOnly);
      } else if (role !== 'customer' && !request.routeOptions.config.anyRole) {
        throw forbidden(SERVER_MSG.customersOnly);
      }
    });

    app.addHook('preHandler', async (request) => {
      if (request.routeOptions.config.public || request.user?.role !== 'customer') return;
      checkScope(request, request.user);
    });
  },
  { name: 'auth' },
);

/** The OpenAPI document and its viewer are public: they describe the API, they hold no data. */
const isDocs = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/') || url.startsWith('/api/docs?');

function checkScope(request: FastifyRequest, caller: Caller) {
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

/** Why a disabled login is refused: a customer asks the shop; the shop's staff, who are the shop, ask their administrator. */
export const disabledMessage = (role: 'customer' | 'operator') => (role === 'operator' ? SERVER_MSG.operatorDisabled : SERVER_MSG.loginDisabled);

export type LoginIdentity =
  | { role: 'customer'; id: number; login: string; customerId: number; hubId: number; authorities: string[]; tokenVersion: number }
  | { role: 'operator'; id: number; login: string; tokenVersion: number };

export function signToken(app: FastifyInstance, user: LoginIdentity) {
  return user.role === 'operator'
    ? app.jwt.sign({ sub: String(user.id), login: user.login, auth: [ROLE_OPERATOR], role: 'operator', v: user.tokenVersion })
    : app.jwt.sign({ sub: String(user.id), login: user.login, cid: user.customerId, hid: user.hubId, auth: user.authorities, role: 'customer', v: user.tokenVersion });
}
