import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_MSG, type WebhookDelivery, type WebhookEndpoint, type WebhookEndpointBody, type WebhookEventType, type WebhookTestAnswer } from '@portal/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { salesOrders, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookMessages } from '../db/schema/index.ts';
import { backoffMs, eventBody } from '../domain/webhooks.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import { RetryLater, type TaskContext } from '../jobs/runner.ts';
import { postBounded } from '../outbound/http-post.ts';
import type { OrderEvent } from './order-events.ts';

/** A transaction of the database (or the database itself): where an event is written with its cause. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export type WebhookJob = { deliveryId: number };
export type WebhookJobResult = { status: 'succeeded' | 'failed' | 'skipped' };

/** One event to emit: an order's, with the hub it belongs to. */
export type WebhookEvent = { type: WebhookEventType; hubId: number; salesOrderNumber: string; data: Record<string, unknown>; at?: Date };

const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Webhooks in the Standard Webhooks format for the shop's ERP. Keep in mind:
 * - an event is a row of webhook_messages written in the transaction of its cause, together with its
 *   delivery and the long task (job `webhook`) that sends it: no event without its order, no order without
 *   its event, and nothing lost when the process dies right after the commit;
 * - every attempt is signed anew (webhook-timestamp is the attempt's time) over the stored body; the
 *   webhook-id stays the message's, across retries, crashes and resends, so the receiver can dedupe;
 * - a failed attempt waits backoffMs and is tried again by any process, up to WEBHOOK_MAX_ATTEMPTS; a
 *   process killed mid-attempt leaves the task leased to a dead process, and the next start sends it again;
 * - the endpoint is read at send time: WEBHOOK_URL/WEBHOOK_SECRET when set, else the console's row.
 */
export function createWebhookService(deps: {
  db: Db;
  config: Pick<Config, 'webhook'>;
  insertTasks: (tx: Tx, tasks: Array<{ hubId: number; name: 'webhook'; payload: WebhookJob }>) => Promise<string[]>;
  poke: () => void;
}) {
  const { db, config } = deps;
  const { timeoutMs, maxAttempts, retryBaseMs } = config.webhook;

  async function endpoint(tx: Tx = db): Promise<WebhookEndpoint | null> {
    if (config.webhook.env) return { ...config.webhook.env, source: 'env', updatedAt: null };
    const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, 1));
    return row ? { url: row.url, secret: row.secret, source: 'console', updatedAt: row.updatedAt.toISOString() } : null;
  }

  function headersFor(secret: string, messageId: string, body: string) {
    const at = new Date();
    return {
      'content-type': 'application/json',
      'user-agent': 'print-portal-webhooks/1',
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(messageId, at, body),
    };
  }

  async function newDeliveries(tx: Tx, messages: Array<{ id: string; hubId: number }>) {
    if (!messages.length) return [];
    const rows: Array<{ id: number }> = [];
    for (let i = 0; i < messages.length; i += 500) {
      rows.push(...await tx.insert(webhookDeliveries).values(messages.slice(i, i + 500).map((m) => ({ messageId: m.id }))).returning({ id: webhookDeliveries.id }));
    }
    await deps.insertTasks(tx, rows.map((r, i) => ({ hubId: messages[i]!.hubId, name: 'webhook', payload: { deliveryId: r.id } })));
    return rows.map((r) => r.id);
  }

  async function deliveriesById(ids: number[]): Promise<WebhookDelivery[]> {
    if (!ids.length) return [];
    const rows = await db.select({ d: webhookDeliveries, m: webhookMessages }).from(webhookDeliveries)
      .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId)).where(inArray(webhookDeliveries.id, ids));
    const attempts = await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(webhookAttempts.id);
    const byId = new Map(rows.map((r) => [r.d.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      return [{
        id, webhookId: r.m.id, eventType: r.m.eventType, salesOrderNumber: r.m.salesOrderNumber, status: r.d.status, attempts: r.d.attempts,
        lastStatusCode: r.d.lastStatusCode, lastError: r.d.lastError, nextAttemptAt: r.d.nextAttemptAt?.toISOString() ?? null,
        createdAt: r.d.createdAt.toISOString(), updatedAt: r.d.updatedAt.toISOString(), body: r.m.body,
        attemptLog: attempts.filter((a) => a.deliveryId === id)
          .map((a) => ({ at: a.at.toISOString(), url: a.url, statusCode: a.statusCode, error: a.error, durationMs: a.durationMs })),
      }];
    });
  }

  /**
   * Writes events in the caller's transaction: their messages always (the log of what happened), and
   * with an endpoint set, a delivery and a task each; the webhook lane polls for them once it commits.
   */
  async function emitIn(tx: Tx, events: WebhookEvent[]) {
    if (!events.length) return;
    const messages = events.map((e) => {
      const at = e.at ?? new Date();
      return { id: newMessageId(), hubId: e.hubId, eventType: e.type, salesOrderNumber: e.salesOrderNumber, body: eventBody(e.type, at, e.data), createdAt: at };
    });
    for (let i = 0; i < messages.length; i += 500) await tx.insert(webhookMessages).values(messages.slice(i, i + 500));
    if (await endpoint(tx)) await newDeliveries(tx, messages);
  }

  return {
    endpoint: () => endpoint(),
    emitIn,

    async setEndpoint(body: WebhookEndpointBody): Promise<WebhookEndpoint> {
      if (config.webhook.env) throw conflict(WEBHOOK_MSG.fromEnv, 'webhook-from-env');
      const current = body.secret || body.newSecret ? null : await endpoint();
      const secret = body.secret || (current?.secret ?? newSecret());
      const now = new Date();
      await db.insert(webhookEndpoints).values({ id: 1, url: body.url, secret, updatedAt: now })
        .onConflictDoUpdate({ target: webhookEndpoints.id, set: { url: body.url, secret, updatedAt: now } });
      return { url: body.url, secret, source: 'console', updatedAt: now.toISOString() };
    },

    async removeEndpoint() {
      if (config.webhook.env) throw conflict(WEBHOOK_MSG.fromEnv, 'webhook-from-env');
      await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, 1));
    },

    /**
     * The listener of order events (services/order-events.ts), inside the transaction of the change: the
     * event's payload with what an ERP needs to book the order (work, product, SKU, copies, amount and how it is made, address).
     * The webhook lane's poll picks the delivery up once the transaction commits.
     */
    async onOrderEvent(tx: Tx, event: OrderEvent) {
      const [o] = await tx.select().from(salesOrders).where(eq(salesOrders.id, event.orderId));
      const order = o ? {
        articleName: o.articleName, batchId: o.batchId, productId: o.productId, productName: o.productName, propertyConfigId: o.propertyConfigId,
        sku: o.sku, quantity: o.quantity, pageCount: o.pageCount, amount: o.amount,
        // What the amount is made of (units × unit price, extra pages): null for orders placed before prices had a basis.
        unitPrice: o.unitPrice, addPageNum: o.addPageNum, pricing: o.pricing ?? null, deliveryMethod: o.deliveryMethod,
        orderLocations: o.orderLocations, createdAt: o.createdAt.toISOString(),
      } : {};
      const salesOrderNumber = String(event.payload.salesOrderNumber ?? o?.salesOrderNumber ?? '');
      await emitIn(tx, [{ type: event.type, hubId: event.hubId, salesOrderNumber, at: event.createdAt, data: { ...order, ...event.payload } }]);
    },

    /** The job `webhook`: one attempt of one delivery. */
    async deliver(payload: WebhookJob, ctx: Pick<TaskContext, 'signal'>): Promise<WebhookJobResult> {
      const [row] = await db.select({ d: webhookDeliveries, m: webhookMessages }).from(webhookDeliveries)
        .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId)).where(eq(webhookDeliveries.id, payload.deliveryId));
      // Done already (a re-run of a task whose process died after recording the answer).
      if (!row || row.d.status !== 'pending') return { status: 'skipped' };
      const ep = await endpoint();
      if (!ep) {
        await db.update(webhookDeliveries).set({ status: 'failed', lastError: WEBHOOK_MSG.noEndpoint, nextAttemptAt: null, updatedAt: new Date() })
          .where(eq(webhookDeliveries.id, row.d.id));
        return { status: 'failed' };
      }
      const result = await postBounded(ep.url, row.m.body, headersFor(ep.secret, row.m.id, row.m.body), { timeoutMs, signal: ctx.signal });
      // Shutting down: not an attempt of the receiver's; the next process sends it.
      if (ctx.signal.aborted) throw new Error('stopped while delivering');
      const ok = result.error === null && result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      const attempts = row.d.attempts + 1;
      const final = ok || attempts >= maxAttempts;
      const wait = backoffMs(attempts, retryBaseMs);
      const now = new Date();
      await db.insert(webhookAttempts).values({ deliveryId: row.d.id, url: ep.url, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs, at: now });
      await db.update(webhookDeliveries).set({
        status: ok ? 'succeeded' : final ? 'failed' : 'pending', attempts, lastStatusCode: result.statusCode, lastError: result.error,
        nextAttemptAt: final ? null : new Date(now.getTime() + wait), updatedAt: now,
      }).where(eq(webhookDeliveries.id, row.d.id));
      if (!final) throw new RetryLater(result.error ?? 'failed', wait);
      return { status: ok ? 'succeeded' : 'failed' };
    },

    /** The console's test button: one signed `webhook.test` event sent now, its answer shown; not logged, not retried. */
    async test(): Promise<WebhookTestAnswer> {
      const ep = await endpoint();
      if (!ep) throw new AppError(400, 'no-endpoint', WEBHOOK_MSG.noEndpoint);
      const id = newMessageId();
      const body = eventBody('webhook.test', new Date(), { message: '这是一条测试消息' });
      const r = await postBounded(ep.url, body, headersFor(ep.secret, id, body), { timeoutMs });
      return { ok: r.error === null, statusCode: r.statusCode, error: r.error, durationMs: r.durationMs, webhookId: id };
    },

    async list(q: { page: number; size: number; status?: 'pending' | 'succeeded' | 'failed'; salesOrderNumber?: string }) {
      const where = and(q.status ? eq(webhookDeliveries.status, q.status) : undefined,
        q.salesOrderNumber ? eq(webhookMessages.salesOrderNumber, q.salesOrderNumber) : undefined);
      const [ids, [total]] = await Promise.all([
        db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
          .where(where).orderBy(desc(webhookDeliveries.id)).limit(q.size).offset(q.page * q.size),
        db.select({ n: count() }).from(webhookDeliveries).innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId)).where(where),
      ]);
      return { items: await deliveriesById(ids.map((r) => r.id)), total: total?.n ?? 0 };
    },

    /** Sends a delivery's message again, as a new delivery with the same webhook-id (the receiver may have lost it). */
    async resend(deliveryId: number) {
      const [row] = await db.select({ messageId: webhookDeliveries.messageId, hubId: webhookMessages.hubId }).from(webhookDeliveries)
        .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId)).where(eq(webhookDeliveries.id, deliveryId));
      if (!row) throw notFound(WEBHOOK_MSG.deliveryNotFound);
      if (!(await endpoint())) throw new AppError(400, 'no-endpoint', WEBHOOK_MSG.noEndpoint);
      const [id] = await db.transaction((tx) => newDeliveries(tx, [{ id: row.messageId, hubId: row.hubId }]));
      deps.poke();
      const [delivery] = await deliveriesById([id!]);
      return { delivery: delivery! };
    },
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
