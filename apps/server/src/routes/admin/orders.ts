import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AdminOrderDetail, AdminOrderParams, AdminOrderRow, AdminOrdersQuery, AdminProductOption, AdminStatusBody, AdminTrackingBody, ErrorAnswer, StatusChangeAnswer, TrackingAnswer } from '@portal/contract';
import type { Services } from '../../services/index.ts';

export const adminOrderRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['admin'];
  const { adminOrders } = services;

  app.get('/orders', {
    schema: { tags, description: 'Every hub\'s orders, newest first; filters status, hubId, productId, from/to (days, UTC+8), q (part of the SO number, or of the name of the work, the hub or the customer); x-total-count.',
      querystring: AdminOrdersQuery, response: { 200: z.array(AdminOrderRow) } },
  }, async (request, reply) => {
    const { items, total } = await adminOrders.list(request.query);
    reply.header('x-total-count', String(total));
    return items;
  });

  app.get('/orders/:id', { schema: { tags, params: AdminOrderParams, response: { 200: AdminOrderDetail, 404: ErrorAnswer } } },
    async (request) => adminOrders.detail(request.params.id));

  app.post('/orders/:id/status', {
    schema: { tags, description: 'Moves the order along 待处理 → 生产中 → 已发货 (carrier, trackingNumber) → 已完成, or to 已取消 until it ships; 409 for a move the order\'s state does not allow, 422 for shipping without carrier or tracking number.',
      params: AdminOrderParams, body: AdminStatusBody, response: { 200: StatusChangeAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer } },
  }, async (request) => adminOrders.changeStatus(request.operator, request.params.id, request.body));

  app.post('/orders/:id/tracking', {
    schema: { tags, description: 'Corrects the carrier and tracking number of a shipped or completed order (a history row the customer sees, and order.tracking_changed); 409 for an order not shipped, 422 without both.',
      params: AdminOrderParams, body: AdminTrackingBody, response: { 200: TrackingAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer } },
  }, async (request) => adminOrders.correctTracking(request.operator, request.params.id, request.body));

  app.get('/products', { schema: { tags, description: 'Products that have orders (the filter of the order list).', response: { 200: z.array(AdminProductOption) } } },
    async () => adminOrders.products());
};
