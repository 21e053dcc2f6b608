import { integer, pgTable, serial, text, timestamp, index } from 'drizzle-orm/pg-core';
import { customerHubs } from './hubs.ts';

/**
 * The shop's webhook endpoint set in the console (one row at most, id 1). WEBHOOK_URL and WEBHOOK_SECRET,
 * when set, take its place (services/webhooks.ts).
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: integer('id').primaryKey(),
  url: text('url').notNull(),
  /** `whsec_<base64>`: the base64 part is the HMAC key (Standard Webhooks). */
  secret: text('secret').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The outbox: one row per event, written in the transaction that made the event happen (an order placed,
 * its status changed), so an event exists exactly when its cause does. `id` is the webhook-id every
 * delivery of it carries (receivers dedupe by it); `body` is the exact JSON sent and signed.
 */
export const webhookMessages = pgTable('webhook_messages', {
  id: text('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  eventType: text('event_type').notNull(),
  salesOrderNumber: text('sales_order_number'),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('webhook_messages_created_idx').on(t.createdAt)]);

/** Sending one message to the endpoint, by a long task (job `webhook`); a resend is a new delivery of the same message. */
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: serial('id').primaryKey(),
  messageId: text('message_id').notNull().references(() => webhookMessages.id),
  status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  lastStatusCode: integer('last_status_code'),
  lastError: text('last_error'),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('webhook_deliveries_message_idx').on(t.messageId), index('webhook_deliveries_created_idx').on(t.createdAt)]);

/** Every attempt of a delivery: when, to which URL, what came back (a status code or an error), how long it took. */
export const webhookAttempts = pgTable('webhook_attempts', {
  id: serial('id').primaryKey(),
  deliveryId: integer('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  statusCode: integer('status_code'),
  error: text('error'),
  durationMs: integer('duration_ms').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId)]);
