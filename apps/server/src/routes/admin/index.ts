import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.ts';
import { adminHubRoutes } from './hubs.ts';

/**
 * The operator console's API, registered under /api/admin. Who may call it is decided in one place,
 * plugins/auth.ts, by this prefix: a route added here is for operators only without anything more.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  await app.register(adminHubRoutes, { services });
};
