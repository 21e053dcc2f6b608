import { createHash, randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { and, eq, like, or, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import { MSG, type ParseItemsResult, type StoredFileMeta } from '@portal/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { productComponents, storedFiles, works as worksTable } from '../db/schema/index.ts';
import { isIgnored, kindOf, naturalCompare, stripExt, unsupportedBelow, workOfFile, workOfFolder, worksOfZip, type ParsedFile, type Unsupported, type WorkOut } from '../domain/works.ts';
import { notFound, badRequest } from '../errors.ts';
import { perItem } from './per-item.ts';
import { MediaError } from '../media/errors.ts';
import { DENSITY_RULE, IMAGE_HEAD_BYTES, readImageMeta, type ImageMeta } from '../media/image.ts';
import { sha256File } from '../media/hash.ts';
import { readPdfMeta } from '../media/pdf.ts';
import { extractZip, type ZipLeftOut } from '../media/zip.ts';
import type { FileStore } from '../storage/file-store.ts';
import { cleanRelativePath } from '../storage/paths.ts';
import { writePreviewCopy } from './preview-copies.ts';
import type { TaskContext } from '../jobs/runner.ts';
import { escapeLike } from '../db/like.ts';
import type { OrderedPaths } from './ordered-paths.ts';

export type Work = WorkOut & { uuid: string; quantity: 1; state: 'unmatch' };
export type ParseResult = { works: Work[]; unsupported: Unsupported[] };
export type ParseAnswer = { state: 200; message: ParseResult } | { state: 100; message: { taskId: string } };
export type ParseJob = { filePath: string };

/** Items above this many files are parsed as a long task, so the request stays short. */
export const INLINE_FILE_LIMIT = 50;
const META_CONCURRENCY = 4;
/** Items of one parseMany call parsed at once: each reads its files' rows and writes its works (a few statements). */
const ITEMS_AT_ONCE = 4;
/** Rows of stored_files per insert statement (five parameters each, far below PostgreSQL's limit). */
const INSERT_BATCH = 500;

/** A uuid made from a seed, so a task re-run after a restart writes the same works, not new ones. */
function stableUuid(seed: string) {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What the customer is told of a zip entry that was not extracted. */
const LEFT_OUT: Record<ZipLeftOut, string> = {
  'same-name': MSG.zipDuplicateName,
  normalisation: MSG.zipDuplicateNormalisation,
  'folder-name': MSG.zipFileIsFolder,
  'path-too-long': MSG.pathTooLong,
  'unreadable-name': MSG.zipNameUnreadable,
  'control-chars': MSG.zipNameControlChars,
};

/** 压缩包中没有可打印的文件, naming (a few of) the files that were left out and why. */
function nothingPrintable(left: Unsupported[]): string {
  const SHOWN = 5;
  if (left.length === 0) return MSG.zipNothingPrintable;
  const named = left.slice(0, SHOWN).map((u) => `${u.fileName}：${u.reason}`).join('；');
  return `${MSG.zipNothingPrintable}（${named}${left.length > SHOWN ? `；另有${left.length - SHOWN}个文件` : ''}）`;
}

export function createParseService(deps: { db: Db; store: FileStore; config: Config; ordered: OrderedPaths; enqueue: (hubId: number, name: 'parse', payload: ParseJob) => Promise<string> }) {
  const { db, store, config } = deps;

  async function componentNames(): Promise<Set<string>> {
    const rows = await db.selectDistinct({ name: productComponents.name }).from(productComponents);
    return new Set(rows.map((r) => r.name));
  }

  /**
   * The metadata read at upload for every file below (or at) a path; files without it (a zip's
   * entries) are read now, and their rows written in a few multi-row inserts, not one per file.
   * `sizes` (from a listing) spares a stat per file, `read` the images' headers already read.
   */
  async function describeFiles(hubId: number, paths: string[], onProgress?: (done: number) => void, sizes?: ReadonlyMap<string, number>, read?: ReadonlyMap<string, ImageMeta | Error>): Promise<{ files: ParsedFile[]; damaged: Unsupported[] }> {
    const known = new Map<string, { kind: string; meta: StoredFileMeta | null }>();
    const prefixes = [...new Set(paths.map((p) => p.split('/').slice(0, 3).join('/')))];
    for (const prefix of prefixes) {
      const rows = await db.select({ path: storedFiles.path, kind: storedFiles.kind, meta: storedFiles.meta }).from(storedFiles)
        .where(and(eq(storedFiles.hubId, hubId), or(eq(storedFiles.path, prefix), like(storedFiles.path, `${escapeLike(prefix)}/%`))));
      for (const r of rows) known.set(r.path, r);
    }
    const damaged: Unsupported[] = [];
    const fresh: Array<typeof storedFiles.$inferInsert> = [];
    let done = 0;
    const files = await pLimit(META_CONCURRENCY).map(paths, async (p): Promise<ParsedFile | null> => {
      const kind = kindOf(p);
      const result = await (async (): Promise<ParsedFile | null> => {
        if (kind !== 'image' && kind !== 'pdf') return { path: p, kind: 'other', width: 0, height: 0, dpi: null, pages: 0 };
        const row = known.get(p);
        const m = row?.meta;
        // Image metadata read under an older density rule is read again (and replaced below).
        if (m && kind === 'image' && typeof m.width === 'number' && m.dpiRule === DENSITY_RULE) return { path: p, kind, width: m.width, height: m.height as number, dpi: m.dpi as number, pages: 1 };
        if (m && kind === 'pdf' && typeof m.pages === 'number') return { path: p, kind, width: m.width as number, height: m.height as number, dpi: null, pages: m.pages };
        try {
          const abs = store.localPath(hubId, p);
          const size = sizes?.get(p) ?? (await store.stat(hubId, p))?.size ?? 0;
          // An empty file of a zip (an upload is refused empty): said as such, not as bytes that are not an image.
          if (size === 0) throw new MediaError('damaged', MSG.emptyFile);
          if (kind === 'image') {
            const early = read?.get(p);
            if (early instanceof Error) throw early;
            const [im, sha256] = await Promise.all([early ?? readImageMeta(abs), row ? null : sha256File(abs)]);
            fresh.push({ hubId, path: p, kind: 'image', size, sha256, meta: { width: im.width, height: im.height, dpi: im.dpi, dpiStated: im.dpiStated, dpiRule: DENSITY_RULE } });
            return { path: p, kind, width: im.width, height: im.height, dpi: im.dpi, pages: 1 };
          }
          const [pm, sha256] = await Promise.all([readPdfMeta(abs, { balanceTree: true }), row ? null : sha256File(abs)]);
          const meta: StoredFileMeta = { pages: pm.pages, width: pm.pageSizes[0]?.widthMm ?? 0, height: pm.pageSizes[0]?.heightMm ?? 0, pageSizes: pm.pageSizes.map((x): [number, number] => [x.widthMm, x.heightMm]) };
          // The previews' copy of a PDF with a flat page tree (services/preview-copies.ts); a failure leaves previews made from the file.
          const copyBytes = pm.balancedTree ? await writePreviewCopy(store, hubId, p, pm.balancedTree).catch(() => null) : null;
          if (copyBytes !== null) meta.previewCopyBytes = copyBytes;
          fresh.push({ hubId, path: p, kind: 'pdf', size, sha256, meta });
          return { path: p, kind, width: pm.pageSizes[0]?.widthMm ?? 0, height: pm.pageSizes[0]?.heightMm ?? 0, pages: pm.pages, dpi: null };
        } catch (err) {
          const reason = err instanceof MediaError ? err.message : '文件破损，无法读取';
          damaged.push({ fileName: p.slice(p.lastIndexOf('/') + 1), filePath: p, reason });
          return null;
        }
      })();
      // The count reaches the end only once the rows below are written.
      if (++done < paths.length) onProgress?.(done);
      return result;
    });
    for (let i = 0; i < fresh.length; i += INSERT_BATCH) {
      // A row that exists (metadata of an older rule) takes the new figures and keeps what else it
      // learnt (integrity, PDF pages).
      await db.insert(storedFiles).values(fresh.slice(i, i + INSERT_BATCH))
        .onConflictDoUpdate({ target: [storedFiles.hubId, storedFiles.path], set: { meta: sql`coalesce(${storedFiles.meta}, '{}'::jsonb) || excluded.meta`, sha256: sql`coalesce(${storedFiles.sha256}, excluded.sha256)` } });
    }
    if (paths.length > 0) onProgress?.(paths.length);
    return { files: files.filter((f): f is ParsedFile => f !== null), damaged: damaged.sort((a, b) => naturalCompare(a.filePath, b.filePath)) };
  }

  async function saveWorks(hubId: number, found: WorkOut[], seed: string | null): Promise<Work[]> {
    const out: Work[] = found.map((w, i) => ({ ...w, uuid: seed ? stableUuid(`${seed}:${i}`) : randomUUID(), quantity: 1 as const, state: 'unmatch' as const }));
    if (out.length) {
      await db.insert(worksTable).values(out.map((w) => ({
        uuid: w.uuid, hubId, articleName: w.articleName, filePath: w.filePath, fileName: w.fileName, files: w.files, pageCount: w.pageCount,
      }))).onConflictDoNothing();
    }
    return out;
  }

  /** `listed`: the folder's files when the caller has listed them already. */
  async function parseFolder(hubId: number, folder: string, opts: { ctx?: TaskContext; names?: () => Promise<Set<string>>; listed?: string[] } = {}): Promise<ParseResult> {
    const { ctx, names = componentNames } = opts;
    const entries = opts.listed ?? (await store.list(hubId, folder)).filter((e) => !e.isDirectory).map((e) => e.path);
    ctx?.progress(0, entries.length);
    const { files, damaged } = await describeFiles(hubId, entries, (d) => ctx?.progress(d, entries.length));
    const w = workOfFolder(folder, files, await names());
    return { works: await saveWorks(hubId, w ? [w] : [], ctx ? ctx.taskId : null), unsupported: [...unsupportedBelow(folder, files), ...damaged] };
  }

  /** Extracts a zip next to it (once: a re-run finds the extraction done) and parses what came out. */
  async function parseZip(hubId: number, zipPath: string, ctx: TaskContext): Promise<ParseResult> {
    const zipName = zipPath.slice(zipPath.lastIndexOf('/') + 1);
    const dest = `unzip/${zipPath.split('/')[1]}/${createHash('sha256').update(zipPath).digest('hex').slice(0, 12)}`;
    const marker = `${dest}/.extracted`;
    const read = new Map<string, ImageMeta | Error>();
    // Entries left out (an earlier one has their name, a folder has it, the path is too long): kept
    // with the extraction (a re-run after a restart finds the extraction done and must still report them).
    const duplicatesAt = `${dest}/.duplicates.json`;
    let duplicates: Unsupported[] = [];
    if (!(await store.stat(hubId, marker))) {
      // Made again only when the last extraction did not finish (or its marker was deleted): never over ordered files.
      await deps.ordered.serialize(hubId, async () => {
        await deps.ordered.refuseIfOrdered(hubId, dest, MSG.orderedFileChange);
        await store.remove(hubId, dest);
      });
      await extractZip(store.localPath(hubId, zipPath), store.localPath(hubId, dest), config.zip, (entry, i, total) => {
        ctx.progress(i, total * 2);
        return !isIgnored(entry.name);
      }, async (entry, data) => {
        // An image's headers are read from the bytes just inflated, not from the disk again.
        if (!data || kindOf(entry.name) !== 'image') return;
        const p = `${dest}/${entry.name}`;
        read.set(p, await readImageMeta(store.localPath(hubId, p), { head: data.subarray(0, IMAGE_HEAD_BYTES) }).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))));
      }, (entry, why) => {
        const p = `${dest}/${entry.name}`;
        duplicates.push({ fileName: p.slice(p.lastIndexOf('/') + 1), filePath: p, reason: LEFT_OUT[why] });
      });
      await store.write(hubId, duplicatesAt, Buffer.from(JSON.stringify(duplicates)));
      await store.write(hubId, marker, Buffer.from(new Date().toISOString()));
    } else {
      duplicates = JSON.parse(await text(store.read(hubId, duplicatesAt)).catch(() => '[]')) as Unsupported[];
    }
    const listed = (await store.list(hubId, dest)).filter((e) => !e.isDirectory && e.path !== marker && e.path !== duplicatesAt);
    const entries = listed.map((e) => e.path);
    const sizes = new Map(listed.map((e) => [e.path, e.size]));
    const { files, damaged } = await describeFiles(hubId, entries, (d) => ctx.progress(entries.length + d, entries.length * 2), sizes, read);
    const found = worksOfZip(dest, stripExt(zipName), files, await componentNames());
    const unsupported = [...unsupportedBelow(dest, files, 'zip'), ...damaged, ...duplicates].sort((a, b) => naturalCompare(a.filePath, b.filePath));
    if (found.length === 0) throw badRequest(nothingPrintable(unsupported), 'nothing-printable');
    return { works: await saveWorks(hubId, found, ctx.taskId), unsupported };
  }

  async function locate(hubId: number, filePath: string) {
    const clean = cleanRelativePath(filePath);
    if (!clean.startsWith('upload/') || clean.split('/').length < 3) throw badRequest('只能解析上传的文件或文件夹', 'bad-path');
    const s = await store.stat(hubId, clean);
    if (!s) throw notFound('文件不存在，请重新上传');
    return { path: clean, isDirectory: s.isDirectory };
  }

  /** An uploaded item's works, or its long task; `names` gives the catalogue's component names (read once for a call of many items). */
  async function parseItem(hubId: number, filePath: string, names?: () => Promise<Set<string>>): Promise<ParseAnswer> {
    const item = await locate(hubId, filePath);
    if (!item.isDirectory) {
      const kind = kindOf(item.path);
      if (kind === 'zip') return { state: 100, message: { taskId: await deps.enqueue(hubId, 'parse', { filePath: item.path }) } };
      if (kind === 'other') throw badRequest('只能上传.zip,.pdf,.png,.jpg', 'unsupported');
      const { files, damaged } = await describeFiles(hubId, [item.path]);
      if (!files[0]) throw badRequest(damaged[0]?.reason ?? '文件破损', 'damaged');
      return { state: 200, message: { works: await saveWorks(hubId, [workOfFile(files[0])], null), unsupported: [] } };
    }
    const listed = (await store.list(hubId, item.path)).filter((e) => !e.isDirectory).map((e) => e.path);
    if (listed.length > INLINE_FILE_LIMIT) return { state: 100, message: { taskId: await deps.enqueue(hubId, 'parse', { filePath: item.path }) } };
    return { state: 200, message: await parseFolder(hubId, item.path, { names, listed }) };
  }

  return {
    parse: (hubId: number, filePath: string) => parseItem(hubId, filePath),

    /**
     * parse for many items in one call (a drop of hundreds of folders), ITEMS_AT_ONCE at a time; an item the
     * caller's hub does not have, or a bad path, answers that item with parse's 4xx. A call naming only items
     * the hub does not have is answered 404, as parse answers one such item.
     */
    async parseMany(hubId: number, filePaths: string[]) {
      let names: Promise<Set<string>> | undefined;
      const namesOnce = () => (names ??= componentNames());
      const results = await perItem(filePaths, ITEMS_AT_ONCE, (filePath) => parseItem(hubId, filePath, namesOnce));
      return { state: 200 as const, message: { results: results.map((r, i): ParseItemsResult => ({ filePath: filePaths[i]!, ...r })) } };
    },

    /** The long task behind a state-100 answer. */
    async runJob(payload: ParseJob, ctx: TaskContext): Promise<ParseResult> {
      const item = await locate(ctx.hubId, payload.filePath);
      if (item.isDirectory) return parseFolder(ctx.hubId, item.path, { ctx });
      return parseZip(ctx.hubId, item.path, ctx);
    },
  };
}
export type ParseService = ReturnType<typeof createParseService>;
