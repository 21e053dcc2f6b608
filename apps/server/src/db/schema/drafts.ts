import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customerHubs, users } from './hubs.ts';

/**
 * A customer's batch upload order kept on the server (issue #21 item 3): at most one open draft per
 * login (the partial unique index), closed by 重置 or by an order. `version` grows with every save; a
 * save names the version it changes. `bytes` is the document's JSON size as received.
 */
export const batchDrafts = pgTable('batch_drafts', {
  id: serial('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  userId: integer('user_id').notNull().references(() => users.id),
  status: text('status', { enum: ['open', 'closed'] }).notNull().default('open'),
  version: integer('version').notNull().default(1),
  /**
   * The document's JSON as text, not jsonb: nothing queries inside it, and PGlite spent ≈ 0.9 s turning a
   * 2,000-work document (1.7 MB) into jsonb on every save (bench draft-save).
   */
  document: text('document').notNull(),
  bytes: integer('bytes').notNull(),
  closedReason: text('closed_reason', { enum: ['reset', 'ordered'] }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('batch_drafts_open_uq').on(t.userId).where(sql`${t.status} = 'open'`),
  index('batch_drafts_hub_idx').on(t.hubId),
]);
