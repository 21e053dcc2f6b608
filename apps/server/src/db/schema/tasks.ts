import { integer, jsonb, pgTable, text, timestamp, uuid, index } from 'drizzle-orm/pg-core';
import { customerHubs } from './hubs.ts';

/** A long task, run by a worker inside a server process; claimed with FOR UPDATE SKIP LOCKED. */
export const longTasks = pgTable('long_tasks', {
  id: uuid('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  name: text('name').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  status: text('status', { enum: ['queued', 'running', 'finished', 'failed'] }).notNull().default('queued'),
  progressDone: integer('progress_done').notNull().default(0),
  progressTotal: integer('progress_total').notNull().default(0),
  result: jsonb('result').$type<Record<string, unknown>>(),
  error: text('error'),
  attempts: integer('attempts').notNull().default(0),
  lockedBy: text('locked_by'),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('long_tasks_claim_idx').on(t.status, t.lockedUntil)]);
