import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, lt, inArray, sql } from 'drizzle-orm';
import { LIMITS, MSG } from '@portal/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { storedFiles, uploads } from '../db/schema/index.ts';
import { AppError } from '../errors.ts';
import { MediaError } from '../media/errors.ts';
import { readImageMeta } from '../media/image.ts';
import { extensionMatches, readHead, sniffFile, sniffType } from '../media/magic.ts';
import { readPdfMeta } from '../media/pdf.ts';
import type { FileStore } from '../storage/file-store.ts';
import { cleanRelativePath } from '../storage/paths.ts';
import type { FileUrls } from './file-urls.ts';

/** The fields of one chunk, with the simple-uploader.js names already folded into ours. */
export type ChunkFields = {
  identifier: string;
  chunkIndex: number;
  chunkTotal: number;
  size: number;
  ext: string;
  filePath: string;
  folderId: string;
};

export type FileInfo = { width: number; height: number; dpi: number; dpiStated?: boolean } | { pages: number; width: number; height: number } | Record<string, never>;

export type ChunkAnswer =
  | { state: 200; message: { status: 200 } }
  | { state: 200; message: { status: 300; filePath: string; relativeUrl: string; accessUrl: string; info: FileInfo } };

/** The refusal shape of decisions §3: a 4xx with {state: 400, message: {status: 400, error}}. */
export const uploadRefusal = (error: string, status = 400, code = 'upload-refused') =>
  new AppError(status, code, error, { state: 400, message: { status: 400, error } });

const STALE_ASSEMBLY_MS = 120_000;

/** Reads the raw multipart fields into ChunkFields, or refuses with the spec's message. */
export function normaliseChunkFields(raw: Record<string, string>, config: Config): ChunkFields {
  const pick = (...names: string[]) => names.map((n) => raw[n]).find((v) => v !== undefined && v !== '');
  const filePath = pick('filePath', 'relativePath', 'filename') ?? '';
  if (!filePath) throw uploadRefusal('缺少文件路径');
  if ([...filePath].length > LIMITS.maxPathLength) throw uploadRefusal(MSG.pathTooLong);
  const fromName = /\.([^./]+)$/.exec(filePath)?.[1]?.toLowerCase() ?? '';
  const ext = (pick('ext') ?? fromName).toLowerCase().replace(/^\./, '');
  if (!(LIMITS.acceptedExtensions as readonly string[]).includes(ext) || ext !== fromName) throw uploadRefusal(MSG.wrongFileType);
  const int = (v: string | undefined, name: string, min: number) => {
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < min) throw uploadRefusal(`上传参数${name}不正确`);
    return n;
  };
  const chunkTotal = int(pick('chunkTotal', 'totalChunks'), 'chunkTotal', 1);
  const chunkIndex = int(pick('chunkIndex', 'chunkNumber'), 'chunkIndex', 1);
  if (chunkIndex > chunkTotal) throw uploadRefusal('上传参数chunkIndex不正确');
  const size = int(pick('size', 'totalSize'), 'size', 1);
  if (size > config.upload.maxFileBytes) throw uploadRefusal(`文件过大，单个文件不能超过${Math.floor(config.upload.maxFileBytes / 1024 / 1024)}MB`, 413, 'too-large');
  if (chunkTotal > Math.ceil(size / 1024) + 1) throw uploadRefusal('上传参数chunkTotal不正确');
  const identifier = pick('identifier') ?? '';
  if (!identifier || identifier.length > 300) throw uploadRefusal('上传参数identifier不正确');
  const folderId = pick('folderId') ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(folderId)) throw uploadRefusal('上传参数folderId不正确');
  try {
    cleanRelativePath(filePath);
  } catch {
    throw uploadRefusal('文件路径不合法');
  }
  return { identifier, chunkIndex, chunkTotal, size, ext, filePath, folderId };
}

export function createUploadService(deps: { db: Db; store: FileStore; urls: FileUrls; config: Config; log?: { warn: (o: object, m: string) => void } }) {
  const { db, store, urls } = deps;

  const uploadKey = (folderId: string, identifier: string) =>
    createHash('sha256').update(`${folderId}\n${identifier}`).digest('hex').slice(0, 32);

  async function describe(hubId: number, rel: string): Promise<ChunkAnswer> {
    const [f] = await db.select({ meta: storedFiles.meta }).from(storedFiles).where(and(eq(storedFiles.hubId, hubId), eq(storedFiles.path, rel)));
    const url = urls.hubFile(hubId, rel);
    return { state: 200, message: { status: 300, filePath: rel, relativeUrl: url, accessUrl: url, info: (f?.meta ?? {}) as FileInfo } };
  }

  async function fail(id: number, hubId: number, key: string, error: string) {
    await db.update(uploads).set({ status: 'failed', error, updatedAt: new Date() }).where(eq(uploads.id, id));
    await store.removeChunks(hubId, key);
  }

  /** Reads what the file check needs once, at upload, so parsing never re-opens the file. */
  async function readMeta(abs: string, type: 'png' | 'jpeg' | 'pdf' | 'zip'): Promise<{ kind: 'image' | 'pdf' | 'zip'; info: FileInfo }> {
    if (type === 'zip') return { kind: 'zip', info: {} };
    if (type === 'pdf') {
      const m = await readPdfMeta(abs);
      const first = m.pageSizes[0];
      return { kind: 'pdf', info: { pages: m.pages, width: first?.widthMm ?? 0, height: first?.heightMm ?? 0 } };
    }
    const m = await readImageMeta(abs);
    return { kind: 'image', info: { width: m.width, height: m.height, dpi: m.dpi, dpiStated: m.dpiStated } };
  }

  /**
   * Assembles a complete upload. Keep in mind:
   * - exactly one request wins the claim (receiving → assembling) and assembles; others answer 200;
   * - a claim older than STALE_ASSEMBLY_MS belongs to a process that died, and may be taken over;
   * - the file appears under its final name only complete and checked (temp name, then rename);
   * - a refused file leaves nothing stored.
   */
  async function assemble(hubId: number, row: typeof uploads.$inferSelect, rel: string): Promise<ChunkAnswer> {
    const staleBefore = new Date(Date.now() - STALE_ASSEMBLY_MS);
    const claimed = await db.update(uploads).set({ status: 'assembling', updatedAt: new Date() })
      .where(and(eq(uploads.id, row.id), sql`(${uploads.status} = 'receiving' or (${uploads.status} = 'assembling' and ${uploads.updatedAt} < ${staleBefore}))`))
      .returning({ id: uploads.id });
    if (claimed.length === 0) return { state: 200, message: { status: 200 } };

    const key = uploadKey(row.folderId, row.identifier);
    const sizes = await store.chunkSizes(hubId, key);
    let total = 0;
    for (let i = 1; i <= row.chunkTotal; i++) {
      const s = sizes.get(i);
      if (s === undefined) {
        // The row said complete but a chunk file is gone (a crash between write and record): ask for it again.
        const received = row.receivedChunks.filter((c) => c !== i);
        await db.update(uploads).set({ status: 'receiving', receivedChunks: received, updatedAt: new Date() }).where(eq(uploads.id, row.id));
        return { state: 200, message: { status: 200 } };
      }
      total += s;
    }
    if (total !== row.size) {
      await fail(row.id, hubId, key, 'size');
      throw uploadRefusal(`文件大小不符（收到${total}字节，应为${row.size}字节），请重新上传`);
    }
    const tmpRel = `${rel}.assembling`;
    await store.assemble(hubId, key, row.chunkTotal, tmpRel);
    const abs = store.localPath(hubId, tmpRel);
    const type = await sniffFile(abs);
    const ext = rel.slice(rel.lastIndexOf('.') + 1).toLowerCase();
    if (!type || !extensionMatches(ext, type)) {
      await store.remove(hubId, tmpRel);
      await fail(row.id, hubId, key, 'wrong-type');
      throw uploadRefusal(`${MSG.wrongFileType}（文件内容与扩展名不符）`);
    }
    let meta: Awaited<ReturnType<typeof readMeta>>;
    try {
      meta = await readMeta(abs, type);
    } catch (err) {
      await store.remove(hubId, tmpRel);
      await fail(row.id, hubId, key, 'damaged');
      if (err instanceof MediaError) throw uploadRefusal(`${err.message}：${row.filePath}`);
      throw uploadRefusal(`${MSG.fileBroken}：${row.filePath}`);
    }
    await store.move(hubId, tmpRel, rel);
    await db.transaction(async (tx) => {
      await tx.insert(storedFiles).values({ hubId, path: rel, kind: meta.kind, size: total, meta: meta.info })
        .onConflictDoUpdate({ target: [storedFiles.hubId, storedFiles.path], set: { kind: meta.kind, size: total, meta: meta.info, originalPath: null, createdAt: new Date() } });
      await tx.update(uploads).set({ status: 'done', updatedAt: new Date() }).where(eq(uploads.id, row.id));
    });
    await store.removeChunks(hubId, key);
    return describe(hubId, rel);
  }

  return {
    /**
     * Takes one chunk. Chunks may come in any order, in parallel, and more than once; the file is
     * assembled once, when every chunk is on disk and recorded.
     */
    async receiveChunk(hubId: number, f: ChunkFields, data: Readable): Promise<ChunkAnswer> {
      const rel = `upload/${f.folderId}/${f.filePath}`;
      await db.insert(uploads).values({ hubId, folderId: f.folderId, identifier: f.identifier, filePath: f.filePath, size: f.size, chunkTotal: f.chunkTotal })
        .onConflictDoNothing();
      let [row] = await db.select().from(uploads).where(and(eq(uploads.hubId, hubId), eq(uploads.folderId, f.folderId), eq(uploads.identifier, f.identifier)));
      if (!row) throw uploadRefusal('上传记录不存在，请重新上传');
      if (row.size !== f.size || row.chunkTotal !== f.chunkTotal || row.filePath !== f.filePath) {
        data.resume();
        throw uploadRefusal('同一文件的分片参数不一致，请重新上传');
      }
      if (row.status === 'done') {
        data.resume();
        return describe(hubId, rel);
      }
      if (row.status === 'failed') {
        // A new attempt at a refused file starts over.
        await db.update(uploads).set({ status: 'receiving', receivedChunks: [], error: null, updatedAt: new Date() }).where(eq(uploads.id, row.id));
      }
      const key = uploadKey(f.folderId, f.identifier);
      const written = await store.writeChunk(hubId, key, f.chunkIndex, data);
      // A multipart stream cut at the chunk limit ends quietly with `truncated` set: refuse what was cut.
      if ((data as { truncated?: boolean }).truncated) {
        await store.removeChunk(hubId, key, f.chunkIndex);
        throw uploadRefusal(`分片过大，每个分片不能超过${deps.config.upload.maxChunkBytes}字节`, 413, 'too-large');
      }
      if (written === 0) throw uploadRefusal('分片内容为空，请重新上传');
      if (f.chunkIndex === 1) {
        const head = await readHead(store.chunkPath(hubId, key, 1));
        const type = sniffType(head);
        if (!type || !extensionMatches(f.ext, type)) {
          await fail(row.id, hubId, key, 'wrong-type');
          throw uploadRefusal(`${MSG.wrongFileType}（文件内容与扩展名不符）`);
        }
      }
      [row] = await db.update(uploads).set({
        receivedChunks: sql`(select coalesce(jsonb_agg(distinct x order by x), '[]'::jsonb) from jsonb_array_elements(${uploads.receivedChunks} || ${JSON.stringify([f.chunkIndex])}::jsonb) as t(x))`,
        updatedAt: new Date(),
      }).where(eq(uploads.id, row.id)).returning();
      if (!row) throw uploadRefusal('上传记录不存在，请重新上传');
      if (row.receivedChunks.length < row.chunkTotal || row.status === 'done') {
        return row.status === 'done' ? describe(hubId, rel) : { state: 200, message: { status: 200 } };
      }
      return assemble(hubId, row, rel);
    },

    /** Removes unfinished uploads not touched for the configured age, with their chunks. */
    async sweepAbandoned(now = Date.now()) {
      const before = new Date(now - deps.config.upload.partialMaxAgeHours * 3600_000);
      const old = await db.select({ id: uploads.id, hubId: uploads.hubId, folderId: uploads.folderId, identifier: uploads.identifier })
        .from(uploads).where(and(inArray(uploads.status, ['receiving', 'failed', 'assembling']), lt(uploads.updatedAt, before))).limit(1000);
      for (const u of old) await store.removeChunks(u.hubId, uploadKey(u.folderId, u.identifier));
      if (old.length) await db.delete(uploads).where(inArray(uploads.id, old.map((u) => u.id)));
      await db.delete(uploads).where(and(eq(uploads.status, 'done'), lt(uploads.updatedAt, before)));
      return old.length;
    },
  };
}
export type UploadService = ReturnType<typeof createUploadService>;
