import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SuggestProductsAnswer, SuggestProductsBody } from '@portal/contract';
import type { Services } from '../services/index.ts';

/** 推荐产品 (issue #20 item 3). */
export const suggestRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post('/sales_order/suggestProducts', {
    schema: {
      tags: ['parse'],
      description: '推荐产品: for works of the caller\'s hub, the visible products and saleable SKUs whose components the works\' files fit as they are (size within tolerance, orientation, page count), best first.',
      body: SuggestProductsBody,
      response: { 200: SuggestProductsAnswer },
    },
  }, async (request) => services.suggest.suggest(request.customer.hubId, request.body));
};
