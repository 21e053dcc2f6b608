import { count, eq } from 'drizzle-orm';
import type { AdminHub } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { customerHubs, salesOrders, users } from '../db/schema/index.ts';

/** The operator's view and administration of the customer hubs (every hub: operators are not scoped). */
export function createAdminHubService(db: Db) {
  return {
    async list(): Promise<AdminHub[]> {
      const logins = db.select({ hubId: users.hubId, n: count().as('login_count') }).from(users).groupBy(users.hubId).as('logins');
      const orders = db.select({ hubId: salesOrders.hubId, n: count().as('order_count') }).from(salesOrders).groupBy(salesOrders.hubId).as('orders');
      const rows = await db.select({
        id: customerHubs.id, name: customerHubs.name, batchAddressParsing: customerHubs.batchAddressParsing, createdAt: customerHubs.createdAt,
        logins: logins.n, orders: orders.n,
      }).from(customerHubs)
        .leftJoin(logins, eq(logins.hubId, customerHubs.id))
        .leftJoin(orders, eq(orders.hubId, customerHubs.id))
        .orderBy(customerHubs.id);
      return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), logins: Number(r.logins ?? 0), orders: Number(r.orders ?? 0) }));
    },
  };
}
export type AdminHubService = ReturnType<typeof createAdminHubService>;
