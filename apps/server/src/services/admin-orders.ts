import { and, asc, count, desc, eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import { ORDER_STATUS_TEXT, type AdminOrderDetail, type AdminOrderRow, type AdminOrdersQuery, type AdminStatusBody, type AdminTrackingBody } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { escapeLike } from '../db/like.ts';
import { customerHubs, customers, products, salesOrders } from '../db/schema/index.ts';
import { legacyBasisText } from '../domain/pricing.ts';
import { nextStatuses } from '../domain/order-status.ts';
import { shopDay } from '../domain/production.ts';
import { notFound } from '../errors.ts';
import type { Operator } from '../plugins/auth.ts';
import type { FileUrls } from './file-urls.ts';
import type { OrderStatusService } from './order-status.ts';
import type { PreviewService } from './previews.ts';


/** The operator's intake of every hub's orders: lists, one order's page, moving it along. */
export function createAdminOrderService(deps: { db: Db; status: OrderStatusService; previews: PreviewService; urls: FileUrls }) {
  const { db } = deps;
  const row = {
    id: salesOrders.id, salesOrderNumber: salesOrders.salesOrderNumber, hubId: salesOrders.hubId, hubName: customerHubs.name,
    customerName: customers.name, articleName: salesOrders.articleName, productId: salesOrders.productId, productName: salesOrders.productName,
    sku: salesOrders.sku, quantity: salesOrders.quantity, pageCount: salesOrders.pageCount, amount: salesOrders.amount, status: salesOrders.status,
    carrier: salesOrders.carrier, trackingNumber: salesOrders.trackingNumber, createdAt: salesOrders.createdAt, batchId: salesOrders.batchId,
  };
  const rowOut = (r: { amount: string; createdAt: Date; status: AdminOrderRow['status'] } & Omit<AdminOrderRow, 'amount' | 'createdAt' | 'statusText'>): AdminOrderRow =>
    ({ ...r, amount: Number(r.amount), createdAt: r.createdAt.toISOString(), statusText: ORDER_STATUS_TEXT[r.status] });

  return {
    async list(q: AdminOrdersQuery): Promise<{ items: AdminOrderRow[]; total: number }> {
      const conditions: SQL[] = [];
      if (q.status) conditions.push(eq(salesOrders.status, q.status));
      if (q.hubId) conditions.push(eq(salesOrders.hubId, q.hubId));
      if (q.productId) conditions.push(eq(salesOrders.productId, q.productId));
      // The shop's days (UTC+8), whatever the server's zone; the query's days exist (zDay).
      const from = q.from ? shopDay(q.from) : null;
      const to = q.to ? shopDay(q.to) : null;
      if (from) conditions.push(gte(salesOrders.createdAt, from.from));
      if (to) conditions.push(lt(salesOrders.createdAt, to.to));
      if (q.q) {
        // What staff know of an order: its number, its work's name, its hub's or its customer's, in part.
        // As typed and with full-width letters and digits made half-width (ＳＯ2026 found nothing: console probe).
        const parts = [...new Set([q.q, q.q.normalize('NFKC')])].map((text) => `%${escapeLike(text)}%`);
        conditions.push(or(...parts.flatMap((part) => [ilike(salesOrders.salesOrderNumber, part), ilike(salesOrders.articleName, part), ilike(customerHubs.name, part), ilike(customers.name, part)]))!);
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [total]] = await Promise.all([
        db.select(row).from(salesOrders)
          .innerJoin(customerHubs, eq(customerHubs.id, salesOrders.hubId)).innerJoin(customers, eq(customers.id, salesOrders.customerId))
          .where(where).orderBy(desc(salesOrders.createdAt), desc(salesOrders.id)).limit(q.size).offset(q.page * q.size),
        db.select({ n: count() }).from(salesOrders)
          .innerJoin(customerHubs, eq(customerHubs.id, salesOrders.hubId)).innerJoin(customers, eq(customers.id, salesOrders.customerId)).where(where),
      ]);
      return { items: rows.map(rowOut), total: total?.n ?? 0 };
    },

    async detail(id: number): Promise<AdminOrderDetail> {
      const [r] = await db.select({
        ...row, addPageNum: salesOrders.addPageNum, unitPrice: salesOrders.unitPrice, toning: salesOrders.toning, customToning: salesOrders.customToning,
        deliveryMethod: salesOrders.deliveryMethod, orderLocations: salesOrders.orderLocations, pricing: salesOrders.pricing, files: salesOrders.files,
        checkSummary: salesOrders.checkSummary,
      }).from(salesOrders)
        .innerJoin(customerHubs, eq(customerHubs.id, salesOrders.hubId)).innerJoin(customers, eq(customers.id, salesOrders.customerId))
        .where(eq(salesOrders.id, id));
      if (!r) throw notFound('订单不存在');
      const history = (await deps.status.historyOf([id])).get(id) ?? [];
      const { orderLocations, pricing, files, checkSummary, unitPrice, ...base } = r;
      return {
        ...rowOut(base),
        addPageNum: r.addPageNum, unitPrice: Number(unitPrice), toning: r.toning, customToning: r.customToning, deliveryMethod: r.deliveryMethod,
        addresses: (orderLocations ?? []).map((l) => ({ contact: l.contact, phone: l.phone, province: l.province, city: l.city, district: l.district, address: l.address, ...(l.quantity !== undefined ? { quantity: l.quantity } : {}) })),
        pricing: pricing ? {
          basis: pricing.basis, unitName: pricing.unitName, units: Number(pricing.units), unitPrice: Number(pricing.unitPrice), copies: pricing.copies,
          extraPages: pricing.extraPages, extraPagePrice: pricing.extraPagePrice === null ? null : Number(pricing.extraPagePrice), amount: Number(pricing.amount), text: pricing.text,
        } : null,
        basisText: pricing?.text ?? legacyBasisText(r.quantity, unitPrice),
        files: files.map((f) => ({
          fileName: f.fileName, filePath: f.filePath, component: f.component,
          thumbnailUrl: deps.previews.thumbnail(r.hubId, f.filePath),
          downloadUrl: `${deps.urls.hubFile(r.hubId, f.filePath)}&download=1`,
        })),
        check: checkSummary ?? null,
        timeline: history.map((h) => ({
          from: h.fromStatus, to: h.toStatus, toText: ORDER_STATUS_TEXT[h.toStatus], at: h.createdAt.toISOString(), role: h.actorRole,
          by: h.actorLogin, note: h.note, carrier: h.carrier, trackingNumber: h.trackingNumber,
        })),
        nextStatuses: nextStatuses(r.status, 'operator'),
      };
    },

    async correctTracking(operator: Operator, id: number, body: AdminTrackingBody) {
      return deps.status.correctTracking(id, { ...body, actor: { role: 'operator', id: operator.operatorId, login: operator.login } });
    },

    async changeStatus(operator: Operator, id: number, body: AdminStatusBody) {
      return deps.status.changeOrderStatus({ orderId: id }, {
        to: body.to, actor: { role: 'operator', id: operator.operatorId, login: operator.login },
        note: body.note, carrier: body.carrier, trackingNumber: body.trackingNumber,
      });
    },

    /** Products that have orders, for the filter. */
    async products() {
      return db.selectDistinct({ id: products.id, name: products.name }).from(products)
        .innerJoin(salesOrders, eq(salesOrders.productId, products.id)).orderBy(asc(products.name));
    },
  };
}
export type AdminOrderService = ReturnType<typeof createAdminOrderService>;
