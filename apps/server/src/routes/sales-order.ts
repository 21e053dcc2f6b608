import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BatchOrderAnswer, BatchOrderBody, CancelOrderBody, CancelOrderParams, ErrorAnswer, StatusChangeAnswer, LongTaskAnswer, LongTaskQuery, OrdersQuery, PARSE_ITEMS_MAX, ParseAnswer, ParseItemsAnswer, ParseItemsBody, ParseQuery, QuoteAnswer, QuoteBody, RepeatCheckBody, RepeatCheckRow, SalesOrder } from '@portal/contract';
import { LIMITS } from '@portal/contract';
import type { Services } from '../services/index.ts';

/**
 * A batch of 5,000 works (the contract's bound) is about 1.1 MB of JSON, more with addresses per work: the
 * quote and the order take up to 8 MB whatever BODY_LIMIT_BYTES says (an API probe got 413 at 5,000).
 */
const BATCH_BODY_BYTES = 8 * 1024 * 1024;
/** The name check's bound, 10,000 names of 300 characters (10,000 work ids more), is about 9.5 MB of JSON in Chinese. */
const NAMES_BODY_BYTES = 12 * 1024 * 1024;

export const salesOrderRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['parse'];

  app.get('/sales_order/parseOrderInfo4BatchUp', {
    schema: {
      tags,
      querystring: ParseQuery,
      response: { 200: ParseAnswer },
    },
  }, async (request) => services.parse.parse(request.customer.hubId, request.query.filePath));

  app.post('/sales_order/parseItems', {
    schema: {
      tags,
      description: `parseOrderInfo4BatchUp for up to ${PARSE_ITEMS_MAX} uploaded items in one call; each result is what parseOrderInfo4BatchUp answers for the item (works, or a long task to poll), or why it could not be parsed.`,
      body: ParseItemsBody,
      response: { 200: ParseItemsAnswer },
    },
  }, async (request) => services.parse.parseMany(request.customer.hubId, request.body.filePaths));

  app.get('/long-time-tasks/:taskId', {
    schema: {
      tags,
      description: `The state of a long task. waitMs (optional, at most ${LIMITS.taskPollMs}): the answer waits until the task is no longer running or waitMs has passed, so a poll every ${LIMITS.taskPollMs / 1000} s learns of its end at once.`,
      params: z.object({ taskId: z.uuid() }),
      querystring: LongTaskQuery,
      response: { 200: LongTaskAnswer },
    },
  }, async (request) => services.tasks.status(request.customer.hubId, request.params.taskId, request.query.waitMs));

  app.get('/sales_order/getPreviewImg', {
    schema: { tags, querystring: z.object({ filePath: z.string().min(1).max(1024), t: z.string().max(30).optional() }),
      response: { 200: z.array(z.object({ name: z.string(), relativeUrl: z.string(), url: z.string() })) } },
  }, async (request) => services.previews.list(request.customer.hubId, request.query.filePath));

  app.post('/sales_order/batch', {
    bodyLimit: BATCH_BODY_BYTES,
    schema: { tags: ['orders'], description: 'Places one sales order per work in one transaction; re-checks and re-prices every work; idempotent by idempotencyKey.', body: BatchOrderBody, response: { 200: BatchOrderAnswer } },
  }, async (request) => services.orders.placeBatch(request.customer, request.body));

  app.post('/sales_order/quote', {
    bodyLimit: BATCH_BODY_BYTES,
    schema: { tags: ['orders'], description: 'What the batch would cost, and why a work cannot be ordered, without ordering.', body: QuoteBody, response: { 200: QuoteAnswer } },
  }, async (request) => services.orders.quote(request.customer, request.body.works));

  app.get('/sales_order', { schema: { tags: ['orders'], querystring: OrdersQuery, response: { 200: z.array(SalesOrder) } } }, async (request, reply) => {
    const { items, total } = await services.orders.list(request.customer, request.query);
    reply.header('x-total-count', String(total));
    return items;
  });

  app.post('/sales_order/repeatFileNameCheck', { bodyLimit: NAMES_BODY_BYTES, schema: { tags: ['orders'], body: RepeatCheckBody, response: { 200: z.array(RepeatCheckRow) } } },
    async (request) => services.dedupe.repeatCheck(request.customer, request.body));

  app.post('/sales_order/:salesOrderNumber/cancel', {
    schema: { tags: ['orders'], description: 'The customer cancels one of the hub\'s orders while it is 待处理; 409 once production started.',
      params: CancelOrderParams, body: CancelOrderBody, response: { 200: StatusChangeAnswer, 404: ErrorAnswer, 409: ErrorAnswer } },
  }, async (request) => services.orders.cancel(request.customer, request.params.salesOrderNumber, request.body?.note));
};
