/**
 * The open batch draft (issue #21 item 3): the batch upload order page's batch kept on the server, so a
 * reload, a closed browser or another computer finds it again. One open draft per login
 * (docs/decisions.md, "A batch survives a reload"). The document is the page's own state, checked
 * by these schemas on the server; the server never trusts it for an order (the order checks again).
 */
import { z } from 'zod';
import { ChunkDone, MAX_ID, OrderLocation, ParsedWorkFile } from './api.ts';
import { ErrorType, Toning, WorkState } from './enums.ts';

export const DraftWorkComponent = z.object({ componentName: z.string().max(200), width: z.number(), height: z.number(), count: z.number().int() });

/** A row of the order table as the page keeps it, without the check's detailed answer (rows that need it are checked again). */
export const DraftWork = z.object({
  uuid: z.string().max(64),
  articleName: z.string().max(500),
  filePath: z.string().max(1100),
  fileName: z.string().max(500),
  files: z.array(ParsedWorkFile).max(100_000),
  quantity: z.number().int().min(0).max(10_000_000),
  pageCount: z.number().int().nullable().optional(),
  addPageNum: z.number().int().nullable().optional(),
  state: WorkState,
  productId: z.number().int().nullable().optional(),
  productName: z.string().max(500).nullable().optional(),
  propertyConfigId: z.number().int().nullable().optional(),
  sku: z.string().max(2000).nullable().optional(),
  components: z.array(DraftWorkComponent).max(100).nullable().optional(),
  priceBasis: z.enum(['print', 'copy', 'area']).nullable().optional(),
  fileArea: z.number().nullable().optional(),
  toning: Toning.optional(),
  customToning: z.boolean().nullable().optional(),
  orderLocations: z.array(OrderLocation).max(100).nullable().optional(),
});
export type DraftWork = z.infer<typeof DraftWork>;

/**
 * A file of a pick whose upload had not finished: enough to find it again when the customer picks the
 * same files (relative path, size, modification time) and to resume it under the same upload
 * (folderId + filePath, the same identifier). `chunks` lists the chunks the page knew stored when it
 * saved, as ranges (`1-40,42`); the server's answer (POST /api/files/storedChunks) is the authority.
 */
export const DraftUploadFile = z.object({
  id: z.string().min(1).max(300),
  relativePath: z.string().min(1).max(1100),
  size: z.number().int().min(1),
  lastModified: z.number().int().nullable().optional(),
  chunkTotal: z.number().int().min(1),
  done: z.boolean(),
  chunks: z.string().max(100_000).optional(),
  /** The server's reason when it refused the file (damaged, encrypted, of another type): a re-pick would be refused again. */
  refused: z.string().min(1).max(2000).optional(),
});
export type DraftUploadFile = z.infer<typeof DraftUploadFile>;

/**
 * The SKU chosen on the 预检 row of an item still uploading (web: features/batch/preflight.ts PreflightChoice), with
 * what its provisional verdict is checked against: the item's works get it, and the server's check, when it is parsed.
 */
export const DraftPreflightChoice = z.object({
  product: z.object({
    productId: z.number().int(), productName: z.string().max(500), propertyConfigId: z.number().int(), sku: z.string().max(2000),
    toning: Toning, customToning: z.boolean(),
  }),
  customerHubId: z.number().int(),
  components: z.array(z.object({
    id: z.number().int(), uuid: z.string().max(64), name: z.string().max(200), width: z.number(), height: z.number(),
    error: z.number(), errorType: ErrorType, autoOrientationDetection: z.boolean(),
    resolutionThreshold: z.number(), resolutionLimit: z.number().nullable(),
    pages: z.object({ min: z.number().int().nullable(), max: z.number().int().nullable() }).nullable().optional(),
  })).max(100),
  pages: z.object({ base: z.number().int(), min: z.number().int().nullable(), max: z.number().int().nullable(), check: z.boolean() }),
});
export type DraftPreflightChoice = z.infer<typeof DraftPreflightChoice>;

/** A top-level item (a file or a folder) of a pick that had not become rows yet. */
export const DraftUploadItem = z.object({
  key: z.string().min(1).max(1200),
  batchId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  name: z.string().min(1).max(1100),
  isFolder: z.boolean(),
  filePath: z.string().min(1).max(1200),
  /** Its place in its pick and the number of files of the pick (sent as index and fileNum). */
  itemIndex: z.number().int().min(0),
  fileNum: z.number().int().min(1),
  /** Parsed into works (rows of the table): its files are stored, and a re-pick sends none of them. */
  parsed: z.boolean().default(false),
  files: z.array(DraftUploadFile).min(1).max(100_000),
  /** The product chosen on its 预检 row while it uploaded: kept until it is parsed, then its works have it. */
  choice: DraftPreflightChoice.optional(),
});
export type DraftUploadItem = z.infer<typeof DraftUploadItem>;

export const BatchDraftDocument = z.object({
  format: z.literal(1),
  works: z.array(DraftWork).max(100_000),
  selectedKeys: z.array(z.string().max(64)).max(100_000).default([]),
  uploads: z.array(DraftUploadItem).max(100_000).default([]),
});
export type BatchDraftDocument = z.infer<typeof BatchDraftDocument>;

export const BatchDraft = z.object({
  id: z.number().int(),
  /** Grows by one with every save; a save names the version it changes (optimistic concurrency). */
  version: z.number().int(),
  savedAt: z.string(),
  document: BatchDraftDocument,
});
export type BatchDraft = z.infer<typeof BatchDraft>;

export const OpenDraftAnswer = z.object({ draft: BatchDraft.nullable() });
export type OpenDraftAnswer = z.infer<typeof OpenDraftAnswer>;
export const CreateDraftBody = z.object({ document: BatchDraftDocument });
export const SaveDraftBody = z.object({ version: z.number().int().min(1).max(MAX_ID), document: BatchDraftDocument });
export type SaveDraftBody = z.infer<typeof SaveDraftBody>;
export const SavedDraftAnswer = z.object({ id: z.number().int(), version: z.number().int(), savedAt: z.string(), bytes: z.number().int() });
export type SavedDraftAnswer = z.infer<typeof SavedDraftAnswer>;
export const DraftIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const DRAFT_MSG = {
  conflict: '批量订单草稿已在其他窗口或电脑上修改，本页的修改未保存，请刷新页面后继续',
  /** The title of the notice that stays on a page whose draft changed elsewhere. */
  staleTitle: '本页的修改未保存',
  closed: '批量订单草稿已下单或已重置，请刷新页面后继续',
  alreadyOpen: '已有未完成的批量订单草稿，请刷新页面后继续',
  tooLarge: (bytes: number, max: number) =>
    `批量订单草稿过大（${(bytes / 1024 / 1024).toFixed(1)}MB），超过上限${(max / 1024 / 1024).toFixed(1)}MB，请先下单一部分作品`,
} as const;

// --- which chunks of unfinished uploads the server holds (one call for a whole pick)

export const StoredChunksBody = z.object({
  uploads: z.array(z.object({
    folderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    // Only blanks names no file: refused like an empty path (the upload route refuses it too).
    filePath: z.string().min(1).max(1100).regex(/\S/, '文件路径不能为空'),
    size: z.number().int().min(1),
    chunkTotal: z.number().int().min(1),
  })).max(20_000),
});
export type StoredChunksBody = z.infer<typeof StoredChunksBody>;
/**
 * Per asked upload, in the order asked: `done` (the file is stored; `result` is the completing chunk's
 * answer), `receiving` with the chunks stored, or `none` (nothing stored: sent again, a refused or
 * swept upload included).
 */
export const StoredChunksAnswer = z.object({
  uploads: z.array(z.object({
    status: z.enum(['done', 'receiving', 'none']),
    chunks: z.array(z.number().int()),
    result: ChunkDone.optional(),
  })),
});
export type StoredChunksAnswer = z.infer<typeof StoredChunksAnswer>;
