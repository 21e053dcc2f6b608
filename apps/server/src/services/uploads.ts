import { createHash } from 'node:crypto';
import { and, eq, lt, inArray, sql } from 'drizzle-orm';
import { LIMITS, MSG, SERVER_MSG, type ChunkAnswer, type ChunkDone, type StoredFileMeta, type UploadedInfo } from '@portal/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { storedFiles, uploadChunks, uploads } from '../db/schema/index.ts';
import { AppError } from '../errors.ts';
import { MediaError } from '../media/errors.ts';
import { sha256File } from '../media/hash.ts';
import { DENSITY_RULE, IMAGE_HEAD_BYTES, readImageMeta } from '../media/image.ts';
import { HOST_PREFIX, isDeadHere, PROCESS_OWNER } from '../jobs/owner.ts';
import { extensionMatches, SNIFF_BYTES, sniffType, type SniffedType } from '../media/magic.ts';
import { readPdfMeta } from '../media/pdf.ts';
import { isNameTaken, isPartGone, type FileStore, type PartFile } from '../storage/file-store.ts';
import { cleanRelativePath, hasControlChars } from '../storage/paths.ts';
import type { ContentHashes } from './content-hashes.ts';
import type { OrderedPaths } from './ordered-paths.ts';
import type { FileUrls } from './file-urls.ts';
import { writePreviewCopy } from './preview-copies.ts';

/** The fields of one chunk, with the simple-uploader.js names already folded into ours. */
export type ChunkFields = {
  identifier: string;
  chunkIndex: number;
  chunkTotal: number;
  size: number;
  ext: string;
  filePath: string;
  folderId: string;
  /**
   * Bytes of every chunk but the last, which holds the rest: the `chunkSize` field when the client
   * sends it (simple-uploader.js does; with its forceChunkSize off the last chunk may reach twice
   * this), else ../shared/spec/decisions.md §3's LIMITS.chunkSize (our web client). Chunk i starts at (i-1)·chunkSize.
   */
  chunkSize: number;
};

/** The refusal shape of ../shared/spec/decisions.md §3: a 4xx with {state: 400, message: {status: 400, error}}. */
export const uploadRefusal = (error: string, status = 400, code = 'upload-refused') =>
  new AppError(status, code, error, { state: 400, message: { status: 400, error } });

const STALE_ASSEMBLY_SECONDS = 120;
/** A chunk's bytes are written as they come, in pieces of about this size. */
const WRITE_BYTES = 256 * 1024;

const DISK_FULL = SERVER_MSG.storageFull;

const TYPE_NAMES: Record<SniffedType, [string, string]> = { jpeg: ['JPEG图片', '.jpg'], png: ['PNG图片', '.png'], pdf: ['PDF', '.pdf'], zip: ['压缩包', '.zip'] };
/** A file whose bytes are not what its extension says: when they are a printable type, the name to give it. */
function wrongType(type: SniffedType | null): string {
  if (!type) return `${MSG.wrongFileType}（文件内容与扩展名不符）`;
  const [name, ext] = TYPE_NAMES[type];
  // Not 只能上传…: the type is one the shop takes, only its name is wrong.
  return `文件内容与扩展名不符：内容是${name}，请把扩展名改为${ext}后重新上传`;
}
/** A full disk is the shop's problem, not the file's: 507, in the upload's refusal shape. */
function diskFull(err: unknown): unknown {
  return (err as { code?: unknown })?.code === 'ENOSPC' ? uploadRefusal(DISK_FULL, 507, 'disk-full') : err;
}

/** The bytes chunk `chunkIndex` must hold: chunkSize, or for the last chunk whatever remains of the file. */
export function chunkBytes(f: Pick<ChunkFields, 'chunkIndex' | 'chunkTotal' | 'size' | 'chunkSize'>): number {
  return f.chunkIndex < f.chunkTotal ? f.chunkSize : f.size - (f.chunkTotal - 1) * f.chunkSize;
}

/** Reads the raw multipart fields into ChunkFields, or refuses with the spec's message. */
export function normaliseChunkFields(raw: Record<string, string>, config: Config): ChunkFields {
  const pick = (...names: string[]) => names.map((n) => raw[n]).find((v) => v !== undefined && v !== '');
  const filePath = pick('filePath', 'relativePath', 'filename') ?? '';
  if (!filePath) throw uploadRefusal('缺少文件路径');
  // Bytes that are not UTF-8 (a GBK name sent as it is) arrive as U+FFFD: two names would become one path, the second
  // file silently replacing the first (API probe, 2026-11-30). Browsers send UTF-8.
  if (filePath.includes('\ufffd')) throw uploadRefusal(MSG.pathNotUtf8);
  if (hasControlChars(filePath)) throw uploadRefusal(MSG.pathControlChars);
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
  // A file of no bytes says so, not that a parameter is wrong.
  if (Number(pick('size', 'totalSize')) === 0 && pick('size', 'totalSize')?.trim() === '0') throw uploadRefusal(`${MSG.emptyFile}：${filePath}`);
  const size = int(pick('size', 'totalSize'), 'size', 1);
  if (size > config.upload.maxFileBytes) throw uploadRefusal(`文件过大，单个文件不能超过${Math.floor(config.upload.maxFileBytes / 1024 / 1024)}MB`, 413, 'too-large');
  const chunkSize = pick('chunkSize') === undefined ? LIMITS.chunkSize : int(pick('chunkSize'), 'chunkSize', 1);
  // A file cut into tiny chunks costs a request, a write and a row per chunk: a floor, but a file that
  // is one chunk (the last chunk) may be as short as it is.
  if (chunkTotal > 1 && chunkSize < config.upload.minChunkBytes) throw uploadRefusal(SERVER_MSG.chunkTooSmall(config.upload.minChunkBytes));
  if ((chunkTotal - 1) * chunkSize >= size) throw uploadRefusal('上传参数chunkTotal与文件大小不符');
  if (chunkBytes({ chunkIndex, chunkTotal, size, chunkSize }) > config.upload.maxChunkBytes) {
    throw uploadRefusal(`分片过大，每个分片不能超过${config.upload.maxChunkBytes}字节`, 413, 'too-large');
  }
  const identifier = pick('identifier') ?? '';
  if (!identifier || identifier.length > 300) throw uploadRefusal('上传参数identifier不正确');
  const folderId = pick('folderId') ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(folderId)) throw uploadRefusal('上传参数folderId不正确');
  try {
    cleanRelativePath(filePath);
  } catch {
    throw uploadRefusal('文件路径不合法');
  }
  return { identifier, chunkIndex, chunkTotal, size, ext, filePath, folderId, chunkSize };
}

/** What the chunk that completes a file is answered (also a file linked from bytes the hub has, services/dedupe.ts). */
export function storedAnswer(urls: FileUrls, hubId: number, rel: string, meta: StoredFileMeta): ChunkDone {
  const url = urls.hubFile(hubId, rel);
  // Every page's size stays in the database for the file check; the client gets the summary.
  // The contract's ChunkAnswer names what the client is told: the answer's schema leaves out the rest
  // (pageSizes, dpiRule, what the check learnt).
  const { pageSizes: _pages, dpiRule: _rule, intact: _intact, brokenReason: _reason, previewCopyBytes: _copy, ...info } = meta;
  return { status: 300, filePath: rel, relativeUrl: url, accessUrl: url, info: info as UploadedInfo };
}

export function createUploadService(deps: { db: Db; asyncCommitDb?: Db; store: FileStore; urls: FileUrls; config: Config; ordered: OrderedPaths; hashes?: ContentHashes; log?: { warn: (o: object, m: string) => void } }) {
  const { db, store, urls } = deps;
  /**
   * A chunk's record commits without waiting for the database's disk (db/client.ts asyncCommitDb): its
   * bytes are flushed before it, and a crash of the database that loses it leaves a chunk to send
   * again (storedChunks no longer lists it; the web client asks when a file is not confirmed). The
   * file's end (storeDone) is an ordinary commit, which makes its chunks' records durable too.
   */
  const chunkDb = deps.asyncCommitDb ?? db;

  /**
   * The folder of one upload on disk. It names everything a chunk must agree on, so a chunk that
   * disagrees with the upload's row (another file under the same path) writes elsewhere, never into
   * it. Not the identifier: that is the client's label (simple-uploader.js gives two files of one
   * size in one folder the same one), not what names the file.
   */
  const uploadKey = (f: Pick<ChunkFields, 'folderId' | 'size' | 'chunkTotal' | 'filePath'>) =>
    createHash('sha256').update(`${f.folderId}\n${f.size}\n${f.chunkTotal}\n${f.filePath}`).digest('hex').slice(0, 32);
  /** An upload is known by its batch and relative path (../shared/spec/decisions.md §3). */
  const identity = (hubId: number, f: Pick<ChunkFields, 'folderId' | 'filePath'>) =>
    and(eq(uploads.hubId, hubId), eq(uploads.folderId, f.folderId), eq(uploads.filePath, f.filePath));
  const sameFile = sql`${uploads.size} = excluded.size and ${uploads.chunkTotal} = excluded.chunk_total`;

  /**
   * The upload's row where recordChunk found none to count a chunk in: made (a chunk that came with the first
   * of its file, and lost the race to make it), or started afresh. A finished or refused upload starts afresh
   * when another file comes under its path (another size, chunk count or label: 重新上传 sends
   * its file with a new label); a chunk of the same file finds it as it is. Started afresh, it has
   * no chunk rows: the earlier file's go in the same statement (a chunk that raced with a refusal
   * may have left one). Prepared once.
   */
  const another = sql`(${uploads.size} <> excluded.size or ${uploads.chunkTotal} <> excluded.chunk_total or ${uploads.identifier} <> excluded.identifier)`;
  const p = (name: string) => sql.placeholder(name);
  const earlierChunks = chunkDb.$with('earlier').as(chunkDb.delete(uploadChunks).where(sql`${uploadChunks.uploadId} = (select ${uploads.id} from ${uploads}
    where ${uploads.hubId} = ${p('hubId')} and ${uploads.folderId} = ${p('folderId')} and ${uploads.filePath} = ${p('filePath')} and ${uploads.status} in ('done', 'failed')
    and (${uploads.size} <> ${p('size')} or ${uploads.chunkTotal} <> ${p('chunkTotal')} or ${uploads.identifier} <> ${p('identifier')}))`).returning({ chunk: uploadChunks.chunk }));
  const ensureUpload = chunkDb.with(earlierChunks).insert(uploads).values({
    hubId: sql.placeholder('hubId'), folderId: sql.placeholder('folderId'), identifier: sql.placeholder('identifier'),
    filePath: sql.placeholder('filePath'), size: sql.placeholder('size'), chunkTotal: sql.placeholder('chunkTotal'), receivedCount: 0, status: 'receiving',
  }).onConflictDoUpdate({
    target: [uploads.hubId, uploads.folderId, uploads.filePath],
    set: { identifier: sql`excluded.identifier`, size: sql`excluded.size`, chunkTotal: sql`excluded.chunk_total`, receivedCount: 0, status: 'receiving', error: null, claimedBy: null, updatedAt: sql`now()` },
    setWhere: sql`${uploads.status} in ('done', 'failed') and ${another}`,
  }).prepare('upload_ensure');

  /**
   * The one statement of a chunk: adds its row to upload_chunks and counts it in its upload's row,
   * and, when it was the last one missing, claims the file (receiving → assembling). The first chunk
   * of a path makes the upload's row and counts itself in it (made: nothing when the path has a row,
   * so no number is taken from the row sequence). It touches only an upload of this same file that
   * is still receiving, or whose claimant is long gone; it answers nothing otherwise (a finished
   * path, another file, a row made by a chunk that came at the same time). A chunk sent again adds
   * nothing. Its cost does not grow with the chunks already there. Prepared once: it runs for every
   * chunk.
   */
  const open = sql`(${uploads.status} = 'receiving' or (${uploads.status} = 'assembling' and ${uploads.updatedAt} < now() - ${sql.raw(`interval '${STALE_ASSEMBLY_SECONDS} seconds'`)}))`;
  const column = (c: { name: string }) => sql.identifier(c.name);
  const made = chunkDb.$with('made', { id: uploads.id, status: uploads.status }).as(sql`insert into ${uploads}
    (${column(uploads.hubId)}, ${column(uploads.folderId)}, ${column(uploads.identifier)}, ${column(uploads.filePath)}, ${column(uploads.size)},
      ${column(uploads.chunkTotal)}, ${column(uploads.receivedCount)}, ${column(uploads.status)}, ${column(uploads.claimedBy)})
    select ${p('hubId')}::int, ${p('folderId')}::text, ${p('identifier')}::text, ${p('filePath')}::text, ${p('size')}::bigint, ${p('chunkTotal')}::int, 1,
      case when ${p('chunkTotal')}::int = 1 then 'assembling' else 'receiving' end, ${PROCESS_OWNER}::text
    where not exists (select 1 from ${uploads} where ${uploads.hubId} = ${p('hubId')} and ${uploads.folderId} = ${p('folderId')} and ${uploads.filePath} = ${p('filePath')})
    on conflict do nothing returning ${column(uploads.id)}, ${column(uploads.status)}`);
  const target = chunkDb.$with('target').as(chunkDb.select({ id: uploads.id }).from(uploads).where(and(
    eq(uploads.hubId, p('hubId')), eq(uploads.folderId, p('folderId')), eq(uploads.filePath, p('filePath')),
    eq(uploads.size, p('size')), eq(uploads.chunkTotal, p('chunkTotal')), open)));
  const added = chunkDb.$with('added').as(chunkDb.insert(uploadChunks)
    .select(sql`select id, ${p('chunk')}::int from ${made} union all select id, ${p('chunk')}::int from ${target}`)
    .onConflictDoNothing().returning({ uploadId: uploadChunks.uploadId }));
  const count = sql`${uploads.receivedCount} + (select count(*) from ${added})::int`;
  const counted = chunkDb.$with('counted').as(chunkDb.update(uploads).set({
    receivedCount: count,
    status: sql`case when ${count} >= ${uploads.chunkTotal} then 'assembling' else 'receiving' end`,
    // The last process to record a chunk: the claimant once the row says 'assembling'.
    claimedBy: PROCESS_OWNER,
    updatedAt: sql`now()`,
  }).where(and(sql`${uploads.id} = (select id from ${target})`, open)).returning({ id: uploads.id, status: uploads.status }));
  const recordChunk = chunkDb.with(made, target, added, counted).select({ id: sql<number>`id`.mapWith(Number), status: sql<(typeof uploads.$inferSelect)['status']>`status` })
    .from(sql`(select id, status from ${made} union all select id, status from ${counted}) as recorded`).prepare('upload_record_chunk');

  /** One statement: the stored file's row and the upload's end, together or not at all. Prepared once: it runs for every file. */
  const stored = db.$with('stored').as(db.insert(storedFiles).values({
    hubId: sql.placeholder('hubId'), path: sql.placeholder('path'), kind: sql.placeholder('kind'), size: sql.placeholder('size'), meta: sql.placeholder('meta'),
    sha256: sql.placeholder('sha256'),
  }).onConflictDoUpdate({
    target: [storedFiles.hubId, storedFiles.path],
    set: { kind: sql`excluded.kind`, size: sql`excluded.size`, meta: sql`excluded.meta`, sha256: sql`excluded.sha256`, originalPath: null, createdAt: sql`now()` },
  }).returning({ id: storedFiles.id }));
  // The chunk rows go with the upload's end (a file sent again under its path starts with none).
  const tidied = db.$with('tidied').as(db.delete(uploadChunks).where(eq(uploadChunks.uploadId, sql.placeholder('uploadId'))).returning({ chunk: uploadChunks.chunk }));
  const storeDone = db.with(stored, tidied).update(uploads).set({ status: 'done', error: null, updatedAt: sql`now()` })
    .where(and(eq(uploads.id, sql.placeholder('uploadId')), sql`exists (select 1 from ${stored})`)).prepare('upload_store_done');

  const answer = (hubId: number, rel: string, meta: StoredFileMeta): ChunkAnswer => ({ state: 200, message: storedAnswer(urls, hubId, rel, meta) });

  async function describe(hubId: number, rel: string): Promise<ChunkAnswer> {
    const [f] = await db.select({ meta: storedFiles.meta }).from(storedFiles).where(and(eq(storedFiles.hubId, hubId), eq(storedFiles.path, rel)));
    return answer(hubId, rel, f?.meta ?? {});
  }

  /** Refuses the whole file: its bytes go first, then the row says why, so later chunks are refused too. */
  async function fail(hubId: number, f: ChunkFields, error: string, status = 400): Promise<never> {
    await store.removeParts(hubId, uploadKey(f));
    const [row] = await db.insert(uploads).values({ hubId, folderId: f.folderId, identifier: f.identifier, filePath: f.filePath, size: f.size, chunkTotal: f.chunkTotal, status: 'failed', error })
      .onConflictDoUpdate({
        target: [uploads.hubId, uploads.folderId, uploads.filePath],
        set: { status: 'failed', error, receivedCount: 0, updatedAt: sql`now()` },
        setWhere: sql`${sameFile} and ${uploads.status} <> 'done'`,
      }).returning({ id: uploads.id });
    if (row) await db.delete(uploadChunks).where(eq(uploadChunks.uploadId, row.id));
    throw uploadRefusal(error, status);
  }

  /** Reads what the file check needs once, at upload, so parsing never re-opens the file. */
  async function readMeta(abs: string, type: SniffedType, head: Buffer): Promise<{ kind: 'image' | 'pdf' | 'zip'; info: StoredFileMeta; balancedTree?: Uint8Array }> {
    if (type === 'zip') return { kind: 'zip', info: {} };
    if (type === 'pdf') {
      const m = await readPdfMeta(abs, { balanceTree: true });
      const first = m.pageSizes[0];
      // Every page's size is kept so the file check never re-reads the PDF.
      const info = { pages: m.pages, width: first?.widthMm ?? 0, height: first?.heightMm ?? 0, pageSizes: m.pageSizes.map((p): [number, number] => [p.widthMm, p.heightMm]) };
      return { kind: 'pdf', info, ...(m.balancedTree ? { balancedTree: m.balancedTree } : {}) };
    }
    const m = await readImageMeta(abs, { head });
    return { kind: 'image', info: { width: m.width, height: m.height, dpi: m.dpi, dpiStated: m.dpiStated, dpiRule: DENSITY_RULE } };
  }

  /**
   * Completes an upload whose every chunk is recorded, through the claimant's own open part file;
   * only the request whose upsert moved the row to 'assembling' gets here. Keep in mind:
   * - a claim older than STALE_ASSEMBLY_SECONDS belongs to a process that died, and a chunk sent
   *   again takes it over, so this may run twice for one file: the part stays until the row says
   *   done, and every step can be redone;
   * - the stored file appears under its name only complete and checked: readers never see half a file;
   * - a refused file leaves nothing stored.
   */
  /**
   * The part's bytes are gone from the disk before the file was whole: a request of another file under
   * the same path tidied them in another process, or the disk lost them. The upload's records of its
   * chunks go too, so that nothing claims bytes the disk lacks, and the file is refused; sent again,
   * it completes.
   */
  async function bytesLost(hubId: number, f: ChunkFields, uploadId: number): Promise<never> {
    await store.removeParts(hubId, uploadKey(f)).catch(() => {});
    // While the row says 'assembling' no chunk records itself: its chunk rows go first, then the row opens again.
    await db.delete(uploadChunks).where(eq(uploadChunks.uploadId, uploadId));
    await db.update(uploads).set({ status: 'receiving', receivedCount: 0, claimedBy: null, updatedAt: sql`now()` })
      .where(and(eq(uploads.id, uploadId), eq(uploads.status, 'assembling')));
    throw uploadRefusal(MSG.uploadBytesLost, 409, 'upload-bytes-lost');
  }

  async function complete(hubId: number, f: ChunkFields, uploadId: number, part: PartFile, rel: string): Promise<ChunkAnswer> {
    const inspected = await part.inspect(IMAGE_HEAD_BYTES).catch((err: unknown) => (isPartGone(err) ? null : Promise.reject(err)));
    if (!inspected) return bytesLost(hubId, f, uploadId);
    const { size, head, others } = inspected;
    // Chunks cut to another size went into another part: their offsets do not fit this one's.
    if (others.length > 0) return fail(hubId, f, '同一文件的分片大小不一致，请重新上传');
    // Every chunk was checked for its length, so this only catches bytes lost to a crash.
    if (size !== f.size) return fail(hubId, f, `文件大小不符（收到${size}字节，应为${f.size}字节），请重新上传`);
    const type = sniffType(head);
    if (!type || !extensionMatches(f.ext, type)) return fail(hubId, f, wrongType(type));
    // Every chunk was flushed to disk before its row recorded it: the whole file is on disk now.
    // Its sha256 comes later, once the uploads go quiet (services/content-hashes.ts).
    let meta: Awaited<ReturnType<typeof readMeta>>;
    try {
      meta = await readMeta(part.path, type, head);
    } catch (err) {
      return fail(hubId, f, `${err instanceof MediaError ? err.message : MSG.fileBroken}：${f.filePath}`);
    }
    // A new name is put in place at once (the link that makes it fails when the name is taken: no file appears
    // between a look and the link). One that replaces a stored file is the hub's one file step
    // (services/ordered-paths.ts serialize): an order of that file placed meanwhile waits, or goes first and refuses
    // these bytes.
    const putInPlace = async (replace: boolean): Promise<ChunkAnswer | 'taken' | null> => {
      // A file an order refers to is the press's: other bytes never replace it (the same bytes again may).
      if (replace && (await deps.ordered.isOrdered(hubId, rel))
        && (await sha256File(part.path)) !== (await sha256File(store.localPath(hubId, rel)))) {
        return fail(hubId, f, MSG.orderedFileOverwrite, 409);
      }
      try {
        if (!(await part.publish(rel, { replace }))) return 'taken';
      } catch (err) {
        // A stored file where a folder of the path must be (W/a.jpg and W/a.jpg/b.jpg), or a folder where the file must be.
        if (isNameTaken(err)) return fail(hubId, f, MSG.uploadPathTaken(f.filePath), 409);
        if (isPartGone(err)) return bytesLost(hubId, f, uploadId);
        throw err;
      }
      if (meta.balancedTree) {
        // The previews' copy of a PDF with a flat page tree (services/preview-copies.ts): without it, previews are made from the file.
        const bytes = await writePreviewCopy(store, hubId, rel, meta.balancedTree).catch((err: unknown) => {
          deps.log?.warn({ err }, 'could not write a PDF\'s preview copy');
          return null;
        });
        if (bytes !== null) meta.info.previewCopyBytes = bytes;
      }
      await storeDone.execute({ hubId, path: rel, kind: meta.kind, size: f.size, meta: meta.info, sha256: null, uploadId });
      return null;
    };
    let refused = await putInPlace(false);
    if (refused === 'taken') refused = await deps.ordered.serialize(hubId, () => putInPlace(true));
    // A replacing publish replaces: it never answers 'taken'.
    if (refused === 'taken') throw new Error(`a stored file was not replaced: ${rel}`);
    if (refused) return refused;
    deps.hashes?.stored(hubId);
    // The part's folder is of no use now; its removal need not hold up the answer. Not while another request of this
    // process writes into it (the same file sent again at once, whose part has the same name): removed under it, that
    // request's bytes were lost (409 上传内容丢失) once completing waited its turn (services/ordered-paths.ts serialize).
    // That request removes the folder when it is done; the sweep takes what a process leaves.
    part.discard().catch((err: unknown) => deps.log?.warn({ err }, 'could not remove an upload\'s part file'));
    return answer(hubId, rel, meta.info);
  }

  /** The refusal of a chunk that held `received` bytes where its place calls for `expected`. */
  function wrongLength(f: ChunkFields, received: number, expected: number): AppError {
    const max = deps.config.upload.maxChunkBytes;
    if (received > max) return uploadRefusal(`分片过大，每个分片不能超过${max}字节`, 413, 'too-large');
    if (received === 0) return uploadRefusal('分片内容为空，请重新上传');
    if (f.chunkTotal === 1) return uploadRefusal(`文件大小不符（收到${received}字节，应为${f.size}字节），请重新上传`);
    if (f.chunkIndex === f.chunkTotal) return uploadRefusal(`文件大小不符（最后一个分片收到${received}字节，按文件大小应为${expected}字节），请重新上传`);
    return uploadRefusal(`分片大小不符（第${f.chunkIndex}个分片收到${received}字节，应为${expected}字节），请重新上传`);
  }

  /**
   * Writes a chunk's bytes into its own place of the part file as they come, then flushes them to
   * disk. Keep in mind:
   * - nothing is written beyond the chunk's place: bytes past the length it must hold (chunkBytes)
   *   are only counted, and the chunk is refused once its body has ended;
   * - a chunk refused for its length (or cut short) may have written part of its own place, never
   *   another chunk's, and its row does not record it: sent again, it is written again;
   * - chunk 1's magic bytes are checked before any of it is written.
   */
  async function writeChunk(hubId: number, f: ChunkFields, part: PartFile, bytes: AsyncIterable<Buffer>): Promise<void> {
    const expected = chunkBytes(f);
    const start = (f.chunkIndex - 1) * f.chunkSize;
    let received = 0;
    let written = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let sniffed = f.chunkIndex !== 1;
    // The first refusal found while the body comes: the rest is still read (and dropped), so that
    // the answer can go out on a connection that is ready for the next request.
    let refused: unknown = null;
    const sniff = async () => {
      sniffed = true;
      const type = sniffType(Buffer.concat(pending, Math.min(pendingBytes, SNIFF_BYTES)));
      if (!type || !extensionMatches(f.ext, type)) await fail(hubId, f, wrongType(type));
    };
    const flush = async () => {
      await part.write(start + written, pending);
      written += pendingBytes;
      pending = [];
      pendingBytes = 0;
    };
    try {
      for await (const piece of bytes) {
        received += piece.length;
        if (refused || received > expected) continue;
        pending.push(piece);
        pendingBytes += piece.length;
        try {
          if (!sniffed && pendingBytes >= Math.min(SNIFF_BYTES, expected)) await sniff();
          if (sniffed && pendingBytes >= WRITE_BYTES) await flush();
        } catch (err) {
          refused = err;
          pending = [];
        }
      }
    } catch {
      // The body ended before the chunk did (the client went away or cut it short).
      throw refused ?? uploadRefusal('上传内容不完整，请重试');
    }
    if (refused) throw diskFull(refused);
    if (received !== expected) throw wrongLength(f, received, expected);
    if (!sniffed) await sniff();
    await flush().catch((err: unknown) => Promise.reject(diskFull(err)));
    await part.datasync().catch((err: unknown) => Promise.reject(diskFull(err)));
  }

  /** The rest of a chunk once its bytes are on disk: recorded, and the file completed when it was the last. */
  async function record(hubId: number, f: ChunkFields, part: PartFile): Promise<ChunkAnswer> {
    const rel = `upload/${f.folderId}/${f.filePath}`;
    const fields = { hubId, folderId: f.folderId, identifier: f.identifier, filePath: f.filePath, size: f.size, chunkTotal: f.chunkTotal };
    // One statement, which makes the upload's row for the first chunk of a file. A chunk of another file under a
    // finished path, or one that came with the first of its file, finds nothing: the row is made or restarted, then it records.
    let [row] = await recordChunk.execute({ ...fields, chunk: f.chunkIndex });
    if (!row) {
      await ensureUpload.execute(fields);
      [row] = await recordChunk.execute({ ...fields, chunk: f.chunkIndex });
    }
    if (row?.status === 'assembling') {
      const claimed = row.id;
      return complete(hubId, f, claimed, part, rel).catch(async (err: unknown) => {
        // Not the file's fault (a full disk, a lost database): give the claim back, so that the
        // chunk sent again completes the file at once instead of after the stale-claim wait.
        if (!(err instanceof AppError) || err.status >= 500) {
          await db.update(uploads).set({ status: 'receiving' }).where(and(eq(uploads.id, claimed), eq(uploads.status, 'assembling'))).catch(() => {});
        }
        throw diskFull(err);
      });
    }
    if (row) return { state: 200, message: { status: 200 } };

    // The row was not updated: another file under this path, or one already claimed, done or refused.
    const [other] = await db.select().from(uploads).where(identity(hubId, f));
    const mismatch = !other || other.size !== f.size || other.chunkTotal !== f.chunkTotal;
    // Bytes written here belong to no upload that still needs them.
    // Their removal is tidying: it must not fail the answer (the sweep takes what it leaves).
    if (mismatch || other.status === 'done' || other.status === 'failed') {
      await part.discard().catch((err: unknown) => deps.log?.warn({ err }, 'could not remove the bytes of a chunk no upload needs'));
    }
    if (!other) throw uploadRefusal('上传记录不存在，请重新上传');
    if (mismatch) throw uploadRefusal('同一文件的分片参数不一致，请重新上传');
    if (other.status === 'done') return describe(hubId, rel);
    if (other.status === 'failed') throw uploadRefusal(other.error ?? '上传失败，请重新上传');
    // Another request is completing the file and answers 300.
    return { state: 200, message: { status: 200 } };
  }

  return {
    /**
     * Takes one chunk: its multipart fields (simple-uploader.js names too) and its bytes as they come.
     * Keep in mind:
     * - chunks may come in any order, in parallel, more than once, and to several processes sharing
     *   the database and DATA_DIR: each is written at its own offset of the upload's one part file;
     * - a chunk's bytes are on disk (fdatasync) before the row records it, with one upsert, so the
     *   row never claims a chunk the disk does not hold, even after a power cut: a restart resumes;
     * - a chunk of another length than its place calls for is refused and not recorded (writeChunk);
     * - the upsert that records the last missing chunk also claims the file (receiving → assembling):
     *   exactly one request completes it;
     * - chunk 1's magic bytes are checked before anything is written; the whole file's at the end.
     */
    async receiveChunk(hubId: number, fields: Record<string, string>, bytes: AsyncIterable<Buffer>): Promise<ChunkAnswer> {
      deps.hashes?.chunkCame();
      const f = normaliseChunkFields(fields, deps.config);
      const key = uploadKey(f);
      // A part that is also a stored file is stale once its upload is finished (or gone): a new one is started.
      const finished = async () => {
        const [row] = await db.select({ status: uploads.status }).from(uploads).where(identity(hubId, f));
        return !row || row.status === 'done' || row.status === 'failed';
      };
      const part = await store.openPart(hubId, key, String(f.chunkSize), finished).catch((err: unknown) => Promise.reject(diskFull(err)));
      try {
        try {
          await writeChunk(hubId, f, part, bytes);
        } catch (err) {
          // Nothing of worth was written for a one-chunk file: its folder goes (not while the same file is sent again).
          if (f.chunkTotal === 1) await part.discard().catch(() => {});
          throw err;
        }
        return await record(hubId, f, part);
      } finally {
        // Closed whatever happens, without holding up the answer.
        part.close().catch((err: unknown) => deps.log?.warn({ err }, 'could not close an upload\'s part file'));
      }
    },

    /**
     * simple-uploader.js's testChunks: whether the chunk the fields name is stored (recorded, or its
     * file is done). The fields are checked as a chunk's are.
     */
    async hasChunk(hubId: number, fields: Record<string, string>): Promise<boolean> {
      const f = normaliseChunkFields(fields, deps.config);
      const [row] = await db.select({ id: uploads.id }).from(uploads).where(and(identity(hubId, f), eq(uploads.size, f.size), eq(uploads.chunkTotal, f.chunkTotal),
        sql`(${uploads.status} = 'done' or exists (select 1 from ${uploadChunks} where ${uploadChunks.uploadId} = ${uploads.id} and ${uploadChunks.chunk} = ${f.chunkIndex}))`));
      return row !== undefined;
    },

    /**
     * Which chunks of these uploads the hub holds, in the order asked, in one call (a re-picked folder
     * of 2,000 files would be thousands of testChunks requests): a stored file of that size under the
     * upload's path is done (with the completing chunk's answer, so nothing is sent), an upload still
     * receiving lists its recorded chunks, anything else (never seen, refused, swept) is none.
     */
    async storedChunks(hubId: number, asked: ReadonlyArray<{ folderId: string; filePath: string; size: number; chunkTotal: number }>) {
      const out: Array<{ status: 'done' | 'receiving' | 'none'; chunks: number[]; result?: ChunkAnswer['message'] & { status: 300 } }> = [];
      for (let i = 0; i < asked.length; i += 500) {
        const part = asked.slice(i, i + 500);
        const rels = part.map((u) => `upload/${u.folderId}/${u.filePath}`);
        const folders = [...new Set(part.map((u) => u.folderId))];
        const [files, rows] = await Promise.all([
          db.select({ path: storedFiles.path, size: storedFiles.size, meta: storedFiles.meta }).from(storedFiles)
            .where(and(eq(storedFiles.hubId, hubId), inArray(storedFiles.path, rels))),
          db.select({ id: uploads.id, folderId: uploads.folderId, filePath: uploads.filePath, size: uploads.size, chunkTotal: uploads.chunkTotal, status: uploads.status })
            .from(uploads).where(and(eq(uploads.hubId, hubId), inArray(uploads.folderId, folders), inArray(uploads.status, ['receiving', 'assembling']))),
        ]);
        const fileOf = new Map(files.map((f) => [f.path, f]));
        const rowOf = new Map(rows.map((r) => [`${r.folderId}\n${r.filePath}`, r]));
        const receiving = part.map((u) => rowOf.get(`${u.folderId}\n${u.filePath}`)).filter((r) => r !== undefined);
        const chunkRows = receiving.length === 0 ? [] : await db.select({ uploadId: uploadChunks.uploadId, chunk: uploadChunks.chunk }).from(uploadChunks)
          .where(inArray(uploadChunks.uploadId, receiving.map((r) => r.id)));
        const chunksOf = new Map<number, number[]>();
        for (const c of chunkRows) {
          const list = chunksOf.get(c.uploadId) ?? [];
          list.push(c.chunk);
          chunksOf.set(c.uploadId, list);
        }
        part.forEach((u, j) => {
          const stored = fileOf.get(rels[j]!);
          if (stored && stored.size === u.size) {
            out.push({ status: 'done', chunks: [], result: answer(hubId, rels[j]!, stored.meta ?? {}).message as ChunkAnswer['message'] & { status: 300 } });
            return;
          }
          const row = rowOf.get(`${u.folderId}\n${u.filePath}`);
          if (row && row.size === u.size && row.chunkTotal === u.chunkTotal) {
            out.push({ status: 'receiving', chunks: (chunksOf.get(row.id) ?? []).sort((a, b) => a - b) });
            return;
          }
          out.push({ status: 'none', chunks: [] });
        });
      }
      return out;
    },

    /**
     * Gives back the files a dead process of this host was assembling (see jobs/owner.ts), so the
     * chunk its customer sends again completes the file at once, not after STALE_ASSEMBLY_SECONDS.
     */
    async reclaimDead() {
      const held = await db.select({ id: uploads.id, claimedBy: uploads.claimedBy }).from(uploads)
        .where(and(eq(uploads.status, 'assembling'), sql`${uploads.claimedBy} like ${`${HOST_PREFIX}%`}`));
      const dead = held.filter((u) => isDeadHere(u.claimedBy));
      for (const u of dead) {
        await db.update(uploads).set({ status: 'receiving' }).where(and(eq(uploads.id, u.id), eq(uploads.status, 'assembling'), eq(uploads.claimedBy, u.claimedBy!)));
      }
      return dead.length;
    },

    /** Removes unfinished uploads not touched for the configured age, with their bytes. */
    async sweepAbandoned(now = Date.now()) {
      const before = new Date(now - deps.config.upload.partialMaxAgeHours * 3600_000);
      const old = await db.select({ id: uploads.id, hubId: uploads.hubId, folderId: uploads.folderId, identifier: uploads.identifier, size: uploads.size, chunkTotal: uploads.chunkTotal, filePath: uploads.filePath })
        .from(uploads).where(and(inArray(uploads.status, ['receiving', 'failed', 'assembling']), lt(uploads.updatedAt, before))).limit(1000);
      for (const u of old) await store.removeParts(u.hubId, uploadKey(u));
      if (old.length) await db.delete(uploads).where(inArray(uploads.id, old.map((u) => u.id)));
      await db.delete(uploads).where(and(eq(uploads.status, 'done'), lt(uploads.updatedAt, before)));
      // Bytes no row speaks for (a chunk that lost a race with a refusal) go by their age alone.
      await store.sweepParts(before);
      return old.length;
    },
  };
}
export type UploadService = ReturnType<typeof createUploadService>;
