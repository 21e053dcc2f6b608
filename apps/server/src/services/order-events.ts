import type { Db } from '../db/client.ts';
import { orderEvents, type OrderEventType } from '../db/schema/index.ts';

export type OrderEvent = { id: number; type: OrderEventType; orderId: number; hubId: number; payload: Record<string, unknown>; createdAt: Date };

/**
 * A listener of order events, called INSIDE the transaction that made the change, after the event's
 * row is in order_events: whatever it writes with `tx` (a webhook delivery task in long_tasks, say)
 * commits or rolls back with the change. It must not do slow work or call out of the process; a throw
 * rolls the change back.
 */
export type OrderEventListener = (tx: Db, event: OrderEvent) => Promise<void>;

/**
 * The one place order events are emitted (order.created when an order is placed, order.status_changed
 * on every change of status, and order.cancelled as well when that change is a cancellation). The
 * webhooks (issue #22 item 5) hook in with `services.orderEvents.on(listener)` before the server starts
 * taking calls, or read order_events by id.
 */
export function createOrderEvents() {
  const listeners: OrderEventListener[] = [];
  return {
    on(listener: OrderEventListener) {
      listeners.push(listener);
    },
    /** Writes the event's row and tells the listeners, all in `tx`. */
    async emit(tx: Db, e: { type: OrderEventType; orderId: number; hubId: number; payload: Record<string, unknown> }): Promise<OrderEvent> {
      const [row] = await tx.insert(orderEvents).values(e).returning();
      if (!row) throw new Error('insert returned no row');
      for (const l of listeners) await l(tx, row);
      return row;
    },
  };
}
export type OrderEvents = ReturnType<typeof createOrderEvents>;
