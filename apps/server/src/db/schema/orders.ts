import { bigserial, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex, index, uuid } from 'drizzle-orm/pg-core';
import { ORDER_STATUSES, WEBHOOK_EVENT_TYPES, type ResolutionAcceptance } from '@portal/contract';
import { customerHubs, customers } from './hubs.ts';

/** What the amount was made of (domain/pricing.ts's Pricing, decimals as text); null on orders placed before. */
export type StoredPricing = {
  basis: 'print' | 'copy' | 'area'; unitName: string; units: string; unitPrice: string; copies: number;
  extraPages: number; extraPagePrice: string | null; amount: string; text: string;
};

export type OrderLocation = {
  contact: string; phone: string; province: string; city: string; district: string; address: string;
  quantity?: number; addressId?: number;
};

/**
 * What the file check said when the order was placed, for the operator: the verdict per file (each page
 * of a PDF), and the warnings the customer ordered with (a resolution below the threshold).
 */
export type OrderCheckSummary = {
  resolutionWarning: boolean;
  pageCount: number;
  addPageNum: number;
  fileArea: number;
  warnings: string[];
  rows: Array<{
    fileName: string; itemPath: string; page: number | null; component: string | null; width: number; height: number;
    standardWidth: number | null; standardHeight: number | null; dpi: number | null; resolutionThreshold: number;
    resolutionWarning: boolean; pass: boolean; reason: string | null;
  }>;
};

/** One batch submit; the idempotency key makes a repeated submit return the first answer. */
export const orderBatches = pgTable('order_batches', {
  id: serial('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  idempotencyKey: text('idempotency_key').notNull(),
  /** sha256 of the request without its key and confirmed total: the key again with another batch is refused (null: placed before 0011). */
  requestHash: text('request_hash'),
  deliveryMethod: text('delivery_method', { enum: ['Unified', 'Partial'] }).notNull(),
  location: jsonb('location').$type<OrderLocation>(),
  totalAmount: numeric('total_amount', { precision: 14, scale: 2 }).notNull(),
  answer: jsonb('answer').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('order_batches_key_uq').on(t.hubId, t.idempotencyKey)]);

export const salesOrders = pgTable('sales_orders', {
  id: serial('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  customerId: integer('customer_id').notNull().references(() => customers.id),
  batchId: integer('batch_id').notNull().references(() => orderBatches.id),
  salesOrderNumber: text('sales_order_number').notNull(),
  workUuid: uuid('work_uuid').notNull(),
  articleName: text('article_name').notNull(),
  fileName: text('file_name').notNull(),
  filePath: text('file_path').notNull(),
  files: jsonb('files').$type<Array<{ fileName: string; filePath: string; component: string | null }>>().notNull(),
  productId: integer('product_id').notNull(),
  productName: text('product_name').notNull(),
  propertyConfigId: integer('property_config_id').notNull(),
  sku: text('sku').notNull(),
  quantity: integer('quantity').notNull(),
  pageCount: integer('page_count').notNull(),
  addPageNum: integer('add_page_num').notNull().default(0),
  unitPrice: numeric('unit_price', { precision: 12, scale: 2 }).notNull(),
  amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
  pricing: jsonb('pricing').$type<StoredPricing>(),
  toning: text('toning', { enum: ['Manual', 'None'] }).notNull().default('None'),
  customToning: text('custom_toning'),
  deliveryMethod: text('delivery_method', { enum: ['Unified', 'Partial'] }).notNull(),
  orderLocations: jsonb('order_locations').$type<OrderLocation[]>(),
  /** Changed only by services/order-status.ts changeOrderStatus, which writes its history row too. */
  status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
  carrier: text('carrier'),
  trackingNumber: text('tracking_number'),
  statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
  /** Null for orders placed before it was kept. */
  checkSummary: jsonb('check_summary').$type<OrderCheckSummary>(),
  /** The resolution warnings the customer accepted for this work (批量确认使用), for the operator; null: none. */
  resolutionAccepted: jsonb('resolution_accepted').$type<ResolutionAcceptance[]>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('sales_orders_number_uq').on(t.salesOrderNumber), index('sales_orders_hub_idx').on(t.hubId, t.createdAt),
  index('sales_orders_file_idx').on(t.hubId, t.fileName), index('sales_orders_created_idx').on(t.createdAt),
  index('sales_orders_status_idx').on(t.status, t.createdAt),
]);

/** Every change of an order's status: who, when, from, to, and the note (the placing itself has from null). */
export const orderStatusHistory = pgTable('order_status_history', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id').notNull().references(() => salesOrders.id, { onDelete: 'cascade' }),
  fromStatus: text('from_status', { enum: ORDER_STATUSES }),
  toStatus: text('to_status', { enum: ORDER_STATUSES }).notNull(),
  actorRole: text('actor_role', { enum: ['customer', 'operator'] }).notNull(),
  actorId: integer('actor_id').notNull(),
  actorLogin: text('actor_login').notNull(),
  note: text('note'),
  carrier: text('carrier'),
  trackingNumber: text('tracking_number'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('order_status_history_order_idx').on(t.orderId, t.id)]);

/** The order events, each a webhook's `type` (the contract's list: no check in the database, so a new one needs no migration). */
export const ORDER_EVENT_TYPES = WEBHOOK_EVENT_TYPES;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

/**
 * The outbox of order events (issue #22 item 5, webhooks): one row per event, written in the same
 * transaction as the change it tells of, so an event exists exactly when its change does. The id orders
 * them. Read by whoever delivers them (services/order-events.ts says how to hook in).
 */
export const orderEvents = pgTable('order_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  type: text('type', { enum: ORDER_EVENT_TYPES }).notNull(),
  orderId: integer('order_id').notNull().references(() => salesOrders.id, { onDelete: 'cascade' }),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('order_events_order_idx').on(t.orderId)]);
