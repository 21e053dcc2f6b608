import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AdminHub } from '@portal/contract';
import type { Services } from '../../services/index.ts';

export const adminHubRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['admin'];
  app.get('/hubs', { schema: { tags, response: { 200: z.array(AdminHub) } } }, async () => services.adminHubs.list());
};
