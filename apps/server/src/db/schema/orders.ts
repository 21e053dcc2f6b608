import { integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex, index, uuid } from 'drizzle-orm/pg-core';
import type { ResolutionAcceptance } from '@portal/contract';
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

/** One batch submit; the idempotency key makes a repeated submit return the first answer. */
export const orderBatches = pgTable('order_batches', {
  id: serial('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  idempotencyKey: text('idempotency_key').notNull(),
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
  /** The resolution warnings the customer accepted for this work (批量确认使用), for the operator; null: none. */
  resolutionAccepted: jsonb('resolution_accepted').$type<ResolutionAcceptance[]>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('sales_orders_number_uq').on(t.salesOrderNumber), index('sales_orders_hub_idx').on(t.hubId, t.createdAt), index('sales_orders_file_idx').on(t.hubId, t.fileName)]);
