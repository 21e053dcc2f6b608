import { bigint, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, index, uuid, boolean, doublePrecision } from 'drizzle-orm/pg-core';
import { customerHubs } from './hubs.ts';
import type { ResolutionAcceptance, StoredFileMeta } from '@portal/contract';

/**
 * One file being uploaded in chunks, known by its batch and relative path (../shared/spec/decisions.md §3; `identifier`
 * is only the client's label). Its chunks' bytes wait on disk until every one is there; the row counts
 * the chunks recorded (one row each in upload_chunks) so any process can tell when the file is
 * complete, at the same cost for the 6,000th chunk as for the first (and a restart loses nothing).
 */
export const uploads = pgTable('uploads', {
  id: serial('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  folderId: text('folder_id').notNull(),
  identifier: text('identifier').notNull(),
  filePath: text('file_path').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  chunkTotal: integer('chunk_total').notNull(),
  receivedCount: integer('received_count').notNull().default(0),
  status: text('status', { enum: ['receiving', 'assembling', 'done', 'failed'] }).notNull().default('receiving'),
  error: text('error'),
  /** The process assembling the file (jobs/owner.ts) while status is 'assembling'. */
  claimedBy: text('claimed_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('uploads_path_uq').on(t.hubId, t.folderId, t.filePath), index('uploads_status_idx').on(t.status)]);

/** The chunks recorded of an upload that is still receiving; removed when it is done or refused. */
export const uploadChunks = pgTable('upload_chunks', {
  uploadId: integer('upload_id').notNull().references(() => uploads.id, { onDelete: 'cascade' }),
  chunk: integer('chunk').notNull(),
}, (t) => [primaryKey({ columns: [t.uploadId, t.chunk] })]);

/** A stored file of a hub; `path` is relative to the hub's root, e.g. upload/<folderId>/Book1/p01.jpg. */
export const storedFiles = pgTable('stored_files', {
  id: serial('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  path: text('path').notNull(),
  kind: text('kind', { enum: ['image', 'pdf', 'zip'] }).notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  /** The bytes' sha256 (hex), computed by the server when it stores them: what lets bytes the hub already has be linked, not sent again. */
  sha256: text('sha256'),
  /** What was read from the file once (@portal/contract StoredFileMeta): an image's pixels and dpi, a PDF's pages. */
  meta: jsonb('meta').$type<StoredFileMeta>(),
  /** Path of the kept original after a crop, for undo. */
  originalPath: text('original_path'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('stored_files_path_uq').on(t.hubId, t.path), index('stored_files_sha256_idx').on(t.hubId, t.sha256)]);

export type WorkFile = {
  fileName: string;
  filePath: string;
  component: string | null;
  width: number;
  height: number;
  dpi: number | null;
  pages: number;
};

/** A work parsed from an upload: one article that becomes one order line. */
export const works = pgTable('works', {
  uuid: uuid('uuid').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  articleName: text('article_name').notNull(),
  filePath: text('file_path').notNull(),
  fileName: text('file_name').notNull(),
  files: jsonb('files').$type<WorkFile[]>().notNull(),
  pageCount: integer('page_count').notNull(),
  state: text('state', { enum: ['unmatch', 'match', 'abnormal', 'dpiAbnormal'] }).notNull().default('unmatch'),
  productId: integer('product_id'),
  propertyConfigId: integer('property_config_id'),
  /**
   * What the operator may want of the last checkFile: its answer with only the rows that failed or
   * warn, and rowsChecked. Nothing reads it back: the order checks again (services/check.ts).
   */
  checkResult: jsonb('check_result').$type<Record<string, unknown>>(),
  checkPassed: boolean('check_passed'),
  addPageNum: integer('add_page_num'),
  fileArea: doublePrecision('file_area'),
  checkedAt: timestamp('checked_at', { withTimezone: true }),
  /**
   * Resolution warnings the customer accepted (批量确认使用), by file and the dpi it had then: a check
   * whose every warning is accepted leaves the work 'match'. A file replaced since is warned again.
   */
  resolutionAccepted: jsonb('resolution_accepted').$type<ResolutionAcceptance[]>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('works_hub_idx').on(t.hubId, t.filePath)]);

/**
 * One fix of one file of a work (issue #20 item 2: 裁切填充, 留白适配, 旋转, 批量确认使用, 删除). The fixed
 * picture is a new stored file (`fixedPath`) the work points to; `filePath`, the file it replaced, stays
 * stored, so undo points the work back to it. Made by the bulk-fix task `taskId`.
 */
export const fileFixes = pgTable('file_fixes', {
  id: uuid('id').primaryKey(),
  hubId: integer('hub_id').notNull().references(() => customerHubs.id),
  taskId: uuid('task_id'),
  workUuid: uuid('work_uuid').notNull(),
  kind: text('kind', { enum: ['fill', 'fit', 'rotate', 'accept', 'delete'] }).notNull(),
  filePath: text('file_path').notNull(),
  fixedPath: text('fixed_path'),
  status: text('status', { enum: ['applied', 'undone'] }).notNull().default('applied'),
  /** What the fix did (sizes before and after, shares cut or padded; for 删除 the file's place in the work). */
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  undoneAt: timestamp('undone_at', { withTimezone: true }),
}, (t) => [index('file_fixes_task_idx').on(t.hubId, t.taskId), index('file_fixes_work_idx').on(t.hubId, t.workUuid)]);
