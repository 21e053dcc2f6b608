import { boolean, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, index, primaryKey } from 'drizzle-orm/pg-core';
import { products } from './catalogue.ts';

/** A customer hub: the space of one of the shop's customers; every call is scoped to one. */
export const customerHubs = pgTable('customer_hubs', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  batchAddressParsing: boolean('batch_address_parsing').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The shop's customer (a company or person) that owns a hub. Prices are per customer. */
export const customers = pgTable('customers', {
  id: serial('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  name: text('name').notNull(),
}, (t) => [index('customers_hub_idx').on(t.hubId)]);

/** A login of a customer. */
export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  login: text('login').notNull(),
  passwordHash: text('password_hash').notNull(),
  customerId: integer('customer_id').notNull().references(() => customers.id),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  authorities: jsonb('authorities').$type<string[]>().notNull(),
  /** A disabled login cannot log in, and its tokens are refused from the next call on (plugins/auth.ts). */
  disabled: boolean('disabled').notNull().default(false),
  /** Part of every token; raised by a password reset so the tokens given out before stop working. */
  tokenVersion: integer('token_version').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('users_login_uq').on(t.login)]);

/**
 * A login of the shop's own staff (role operator): sees every hub through /api/admin and nothing else.
 * A table of its own rather than a users row without a hub, so no customer route can ever meet a caller
 * without a hub, and a customer row can never be turned into an operator by an authorities edit.
 * Login names are unique across both tables (checked when either is added).
 */
export const operators = pgTable('operators', {
  id: serial('id').primaryKey(),
  login: text('login').notNull(),
  passwordHash: text('password_hash').notNull(),
  disabled: boolean('disabled').notNull().default(false),
  tokenVersion: integer('token_version').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('operators_login_uq').on(t.login)]);

/** Which products a hub may order. A hub with no rows here sees the whole catalogue. */
export const hubProducts = pgTable('hub_products', {
  hubId: integer('hub_id').notNull().references(() => customerHubs.id, { onDelete: 'cascade' }),
  productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.hubId, t.productId] })]);

export const customerLocations = pgTable('customer_locations', {
  id: serial('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  customerId: integer('customer_id').notNull().references(() => customers.id),
  contact: text('contact').notNull(),
  phone: text('phone').notNull(),
  province: text('province').notNull(),
  city: text('city').notNull(),
  district: text('district').notNull(),
  address: text('address').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
}, (t) => [index('customer_locations_hub_idx').on(t.hubId)]);

/**
 * Failed logins per login and client address within the current window, shared by every process of
 * the shop (services/login-guard.ts).
 */
export const loginFailures = pgTable('login_failures', {
  login: text('login').notNull(),
  address: text('address').notNull(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.login, t.address] }), index('login_failures_window_idx').on(t.windowStart)]);
