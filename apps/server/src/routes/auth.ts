import { setTimeout } from 'node:timers/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Account, AuthenticateAnswer, AuthenticateBody, ErrorAnswer, SERVER_MSG } from '@portal/contract';
import { tooMany, unauthorized } from '../errors.ts';
import { disabledMessage, signToken } from '../plugins/auth.ts';
import type { Services } from '../services/index.ts';

export const authRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post('/authenticate', {
    config: { public: true },
    schema: { tags: ['login'], body: AuthenticateBody, response: { 200: AuthenticateAnswer, 401: ErrorAnswer, 429: ErrorAnswer } },
  }, async (request) => {
    const { username, password } = request.body;
    const verdict = await services.loginGuard.check(request.ip, username);
    if (verdict.retryAfterSeconds > 0) throw tooMany(`${SERVER_MSG.tooManyLogins}（${Math.ceil(verdict.retryAfterSeconds / 60)}分钟后）`);
    // A login guessed at from many addresses: every try of it waits, its owner's too.
    if (verdict.slowdownMs > 0) await setTimeout(verdict.slowdownMs);
    const user = await services.accounts.verifyLogin(username, password);
    // The password was right: say why the door stays shut rather than let them retype it.
    if (user && 'disabled' in user) throw unauthorized(disabledMessage(user.disabled));
    if (!user) {
      await services.loginGuard.fail(request.ip, username);
      throw unauthorized(SERVER_MSG.badCredentials);
    }
    await services.loginGuard.succeed(request.ip, username);
    return { id_token: signToken(app, user) };
  });

  app.get('/account', { config: { anyRole: true }, schema: { tags: ['login'], response: { 200: Account } } }, async (request) => {
    const u = request.user;
    return u.role === 'operator'
      ? { login: u.login, customerId: null, customerHubId: null, authorities: u.authorities }
      : { login: u.login, customerId: u.customerId, customerHubId: u.hubId, authorities: u.authorities };
  });

  app.get('/health', { config: { public: true }, schema: { tags: ['ops'], response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }));
};
