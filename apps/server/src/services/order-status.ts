import { and, asc, eq, inArray } from 'drizzle-orm';
import { ORDER_STATUS_TEXT, type OrderStatus } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { orderStatusHistory, salesOrders } from '../db/schema/index.ts';
import { checkTrackingCorrection, checkTransition, normaliseTracking, type Actor } from '../domain/order-status.ts';
import { AppError, notFound } from '../errors.ts';
import type { OrderEvents } from './order-events.ts';

export type StatusActor = { role: Actor; id: number; login: string };
export type StatusChange = {
  to: OrderStatus;
  actor: StatusActor;
  note?: string | null | undefined;
  carrier?: string | null | undefined;
  trackingNumber?: string | null | undefined;
};

/** The event payload of an order: what an ERP needs to find it and what changed. */
export const orderEventPayload = (o: { salesOrderNumber: string; hubId: number; customerId: number; status: OrderStatus; carrier: string | null; trackingNumber: string | null }) => ({
  salesOrderNumber: o.salesOrderNumber, customerHubId: o.hubId, customerId: o.customerId, status: o.status,
  carrier: o.carrier, trackingNumber: o.trackingNumber,
});

/**
 * Every change of an order's status goes through changeOrderStatus: the rules of domain/order-status.ts,
 * then in one transaction the order's row, its history row and its events (services/order-events.ts).
 */
export function createOrderStatusService(deps: { db: Db; events: OrderEvents }) {
  const { db, events } = deps;

  return {
    /**
     * Moves one order (by id; `hubId` limits it to a hub: a customer's call) to `change.to`. The row is
     * locked for the transaction, so two operators moving the same order at once cannot both win.
     */
    async changeOrderStatus(where: { orderId?: number; salesOrderNumber?: string; hubId?: number }, change: StatusChange) {
      return db.transaction(async (tx) => {
        const conditions = [
          where.orderId !== undefined ? eq(salesOrders.id, where.orderId) : undefined,
          where.salesOrderNumber !== undefined ? eq(salesOrders.salesOrderNumber, where.salesOrderNumber) : undefined,
          where.hubId !== undefined ? eq(salesOrders.hubId, where.hubId) : undefined,
        ].filter((c) => c !== undefined);
        if (conditions.length === 0 || (where.orderId === undefined && where.salesOrderNumber === undefined)) throw notFound();
        const [order] = await tx.select().from(salesOrders).where(and(...conditions)).for('update');
        if (!order) throw notFound('订单不存在');
        const verdict = checkTransition({ from: order.status, to: change.to, by: change.actor.role, carrier: change.carrier, trackingNumber: change.trackingNumber });
        if (!verdict.ok) throw new AppError(verdict.status, verdict.code, verdict.message);
        const shipping = change.to === 'shipped';
        const tracked = shipping ? normaliseTracking(change.carrier, change.trackingNumber) : null;
        const carrier = tracked ? tracked.carrier : order.carrier;
        const trackingNumber = tracked ? tracked.trackingNumber : order.trackingNumber;
        const note = change.note?.trim() || null;
        const now = new Date();
        const [updated] = await tx.update(salesOrders).set({ status: change.to, carrier, trackingNumber, statusChangedAt: now })
          .where(eq(salesOrders.id, order.id)).returning();
        await tx.insert(orderStatusHistory).values({
          orderId: order.id, fromStatus: order.status, toStatus: change.to, actorRole: change.actor.role, actorId: change.actor.id,
          actorLogin: change.actor.login, note, carrier: shipping ? carrier : null, trackingNumber: shipping ? trackingNumber : null, createdAt: now,
        });
        const payload = { ...orderEventPayload(updated!), from: order.status, to: change.to, by: change.actor.role, note };
        await events.emit(tx, { type: 'order.status_changed', orderId: order.id, hubId: order.hubId, payload });
        if (change.to === 'cancelled') await events.emit(tx, { type: 'order.cancelled', orderId: order.id, hubId: order.hubId, payload });
        return { salesOrderNumber: order.salesOrderNumber, from: order.status, to: change.to, statusText: ORDER_STATUS_TEXT[change.to] };
      });
    },

    /**
     * Corrects a shipped (or completed) order's carrier and tracking number: its row, a history row of the same status
     * with the new numbers and the note (the customer's timeline shows it), and order.tracking_changed, in one transaction.
     */
    async correctTracking(orderId: number, change: { carrier: string; trackingNumber: string; note?: string | null | undefined; actor: StatusActor }) {
      return db.transaction(async (tx) => {
        const [order] = await tx.select().from(salesOrders).where(eq(salesOrders.id, orderId)).for('update');
        if (!order) throw notFound('订单不存在');
        const verdict = checkTrackingCorrection(order.status, change.carrier, change.trackingNumber);
        if (!verdict.ok) throw new AppError(verdict.status, verdict.code, verdict.message);
        const { carrier, trackingNumber } = normaliseTracking(change.carrier, change.trackingNumber);
        const note = change.note?.trim() || null;
        const [updated] = await tx.update(salesOrders).set({ carrier, trackingNumber }).where(eq(salesOrders.id, order.id)).returning();
        await tx.insert(orderStatusHistory).values({
          orderId: order.id, fromStatus: order.status, toStatus: order.status, actorRole: change.actor.role, actorId: change.actor.id,
          actorLogin: change.actor.login, note, carrier, trackingNumber, createdAt: new Date(),
        });
        const payload = { ...orderEventPayload(updated!), previous: { carrier: order.carrier, trackingNumber: order.trackingNumber }, by: change.actor.role, note };
        await events.emit(tx, { type: 'order.tracking_changed', orderId: order.id, hubId: order.hubId, payload });
        return { salesOrderNumber: order.salesOrderNumber, carrier, trackingNumber };
      });
    },

    /** The placing of new orders, inside placeBatch's transaction: their first history row and order.created. */
    async recordPlaced(tx: Db, orders: Array<{ id: number; hubId: number; customerId: number; salesOrderNumber: string; createdAt: Date }>, actor: StatusActor) {
      if (orders.length === 0) return;
      for (let i = 0; i < orders.length; i += 500) {
        await tx.insert(orderStatusHistory).values(orders.slice(i, i + 500).map((o) => ({
          orderId: o.id, fromStatus: null, toStatus: 'pending' as const, actorRole: actor.role, actorId: actor.id, actorLogin: actor.login, createdAt: o.createdAt,
        })));
      }
      for (const o of orders) {
        await events.emit(tx, { type: 'order.created', orderId: o.id, hubId: o.hubId,
          payload: orderEventPayload({ ...o, status: 'pending', carrier: null, trackingNumber: null }) });
      }
    },

    /** The history of these orders, oldest first, by order id. */
    async historyOf(orderIds: number[]) {
      const byOrder = new Map<number, Array<typeof orderStatusHistory.$inferSelect>>();
      if (orderIds.length === 0) return byOrder;
      const rows = await db.select().from(orderStatusHistory).where(inArray(orderStatusHistory.orderId, orderIds)).orderBy(asc(orderStatusHistory.id));
      for (const r of rows) {
        const list = byOrder.get(r.orderId) ?? [];
        list.push(r);
        byOrder.set(r.orderId, list);
      }
      return byOrder;
    },
  };
}
export type OrderStatusService = ReturnType<typeof createOrderStatusService>;
