import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.ts';
import { adminCatalogueRoutes } from './catalogue.ts';
import { adminHubRoutes } from './hubs.ts';
import { adminOperatorRoutes } from './operators.ts';
import { adminOrderRoutes } from './orders.ts';
import { adminProductionRoutes } from './production.ts';
import { adminWebhookRoutes } from './webhooks.ts';

/**
 * The operator console's API, registered under /api/admin. Who may call it is decided in one place,
 * plugins/auth.ts, by this prefix: a route added here is for operators only without anything more.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  await app.register(adminHubRoutes, { services });
  await app.register(adminOperatorRoutes, { services });
  await app.register(adminOrderRoutes, { services });
  await app.register(adminCatalogueRoutes, { services });
  await app.register(adminProductionRoutes, { services });
  await app.register(adminWebhookRoutes, { services });
};
