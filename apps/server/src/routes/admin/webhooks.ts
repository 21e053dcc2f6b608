import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WebhookDeliveriesAnswer, zId, WebhookDeliveriesQuery, WebhookEndpointAnswer, WebhookEndpointBody, WebhookResendAnswer, WebhookTestAnswer } from '@portal/contract';
import type { Services } from '../../services/index.ts';

/** The shop's webhook endpoint, its test, the delivery log and resend (operators). */
export const adminWebhookRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['admin: webhooks'];

  app.get('/webhooks/endpoint', { schema: { tags, response: { 200: WebhookEndpointAnswer } } },
    async () => ({ endpoint: await services.webhooks.endpoint() }));

  app.put('/webhooks/endpoint', {
    schema: { tags, description: 'Sets the URL and secret; without a secret a new whsec_ secret is generated. 409 when WEBHOOK_URL is set.', body: WebhookEndpointBody, response: { 200: WebhookEndpointAnswer } },
  }, async (request) => ({ endpoint: await services.webhooks.setEndpoint(request.body) }));

  app.delete('/webhooks/endpoint', { schema: { tags, response: { 204: z.null() } } }, async (_request, reply) => {
    await services.webhooks.removeEndpoint();
    return reply.status(204).send(null);
  });

  app.post('/webhooks/test', { schema: { tags, description: 'Sends a signed webhook.test event now and answers what came back.', response: { 200: WebhookTestAnswer } } },
    async () => services.webhooks.test());

  app.get('/webhooks/deliveries', { schema: { tags, querystring: WebhookDeliveriesQuery, response: { 200: WebhookDeliveriesAnswer } } },
    async (request) => services.webhooks.list(request.query));

  app.post('/webhooks/deliveries/:id/resend', {
    schema: { tags, description: 'Sends the delivery\'s event again (same webhook-id) as a new delivery.', params: z.object({ id: zId }), response: { 200: WebhookResendAnswer } },
  }, async (request) => services.webhooks.resend(request.params.id));
};
