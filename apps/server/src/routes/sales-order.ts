import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BatchOrderAnswer, BatchOrderBody, OrdersQuery, QuoteAnswer, QuoteBody, RepeatCheckBody, RepeatCheckRow, SalesOrder } from '@portal/contract';
import type { Services } from '../services/index.ts';

const WorkFile = z.object({ fileName: z.string(), filePath: z.string(), component: z.string().nullable(), width: z.number(), height: z.number(), dpi: z.number().nullable(), pages: z.number().int() });
const Work = z.object({
  uuid: z.string(), articleName: z.string(), filePath: z.string(), fileName: z.string(), files: z.array(WorkFile),
  pageCount: z.number().int(), quantity: z.literal(1), state: z.literal('unmatch'),
});
const Unsupported = z.object({ fileName: z.string(), filePath: z.string(), reason: z.string() });
const ParseResult = z.object({ works: z.array(Work), unsupported: z.array(Unsupported) });

export const salesOrderRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['parse'];

  app.get('/sales_order/parseOrderInfo4BatchUp', {
    schema: {
      tags,
      querystring: z.object({ filePath: z.string().min(1).max(1024), customerHubId: z.coerce.number().int().positive().optional() }),
      response: { 200: z.union([z.object({ state: z.literal(200), message: ParseResult }), z.object({ state: z.literal(100), message: z.object({ taskId: z.string() }) })]) },
    },
  }, async (request) => services.parse.parse(request.user.hubId, request.query.filePath));

  app.get('/long-time-tasks/:taskId', {
    schema: {
      tags,
      params: z.object({ taskId: z.uuid() }),
      response: { 200: z.object({ state: z.literal(200), message: z.object({
        status: z.enum(['running', 'finished', 'failed']),
        progress: z.object({ done: z.number().int(), total: z.number().int() }),
        jsonContent: ParseResult.nullable(),
        error: z.string().nullable(),
      }) }) },
    },
  }, async (request) => services.tasks.status(request.user.hubId, request.params.taskId));

  app.get('/sales_order/getPreviewImg', {
    schema: { tags, querystring: z.object({ filePath: z.string().min(1).max(1024), t: z.string().max(30).optional() }),
      response: { 200: z.array(z.object({ name: z.string(), relativeUrl: z.string(), url: z.string() })) } },
  }, async (request) => services.previews.list(request.user.hubId, request.query.filePath));

  app.post('/sales_order/batch', {
    schema: { tags: ['orders'], description: 'Places one sales order per work in one transaction; re-checks and re-prices every work; idempotent by idempotencyKey.', body: BatchOrderBody, response: { 200: BatchOrderAnswer } },
  }, async (request) => services.orders.placeBatch(request.user, request.body));

  app.post('/sales_order/quote', {
    schema: { tags: ['orders'], description: 'What the batch would cost, and why a work cannot be ordered, without ordering.', body: QuoteBody, response: { 200: QuoteAnswer } },
  }, async (request) => services.orders.quote(request.user, request.body.works));

  app.get('/sales_order', { schema: { tags: ['orders'], querystring: OrdersQuery, response: { 200: z.array(SalesOrder) } } }, async (request, reply) => {
    const { items, total } = await services.orders.list(request.user, request.query);
    reply.header('x-total-count', String(total));
    return items;
  });

  app.post('/sales_order/repeatFileNameCheck', { schema: { tags: ['orders'], body: RepeatCheckBody, response: { 200: z.array(RepeatCheckRow) } } },
    async (request) => services.orders.repeatCheck(request.user, request.body.files));
};
