import { SERVER_MSG } from '@portal/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { storedFiles, works } from '../db/schema/index.ts';
import { isIgnored, kindOf, naturalCompare } from '../domain/works.ts';
import { AppError, badRequest, notFound } from '../errors.ts';
import { MediaError } from '../media/errors.ts';
import { readPdfPageCount } from '../media/pdf.ts';
import { makeImagePreview, makePdfPagePreview, previewFileName } from '../media/preview.ts';
import type { FileStore } from '../storage/file-store.ts';
import { cleanRelativePath } from '../storage/paths.ts';
import { createFairQueue } from './fair-queue.ts';
import { previewCopyOf, removePreviews } from './preview-copies.ts';
import type { FileUrls } from './file-urls.ts';

export type PreviewImage = { name: string; relativeUrl: string; url: string };

/** The caller left before its preview was made; nobody reads this answer. */
const previewCancelled = () => new AppError(503, 'preview-cancelled', SERVER_MSG.previewCancelled);

/**
 * Previews made at once, for every hub together. Each is one image or one PDF page: a few hundred
 * milliseconds of CPU, and a bounded amount of memory (a canvas of 1024 px, the page's images).
 */
export const PREVIEW_CONCURRENCY = 2;

type PdfPage = { number: number; size: unknown };
/** The version of a stored file a preview is made from. */
type Version = { size: number; mtimeMs: number };

/** Waits for `done`, or rejects when `signal` aborts first. */
function untilDone(done: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return done;
  if (signal.aborted) return Promise.reject(previewCancelled());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(previewCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    done.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The page's size in points from the sizes the upload stored (mm, as displayed), for a placeholder. */
const ptOf = (size: unknown) =>
  Array.isArray(size) && typeof size[0] === 'number' && typeof size[1] === 'number' ? { widthPt: (size[0] / 25.4) * 72, heightPt: (size[1] / 25.4) * 72 } : undefined;

/**
 * JPEG previews (long side about 1024 px) of images and PDF pages, made on first request, one page at a
 * time, and kept under .previews/ beside nothing the customer sees.
 *
 * Fair and bounded: every preview to make waits in its hub's queue; the hubs' queues are served in turn,
 * PREVIEW_CONCURRENCY at a time (createFairQueue), so one customer's 10,000 thumbnails delay another's
 * photo by a turn, not by 10,000 pages. A request that is given up (its connection closed: the dialog
 * shut, the thumbnail scrolled away) leaves the queue unless another request waits for the same preview.
 * Requests for the same preview share one making.
 */
export function createPreviewService(db: Db, store: FileStore, urls: FileUrls) {
  const queue = createFairQueue(PREVIEW_CONCURRENCY);
  type Making = { done: Promise<void>; waiters: number; stop: AbortController };
  const making = new Map<string, Making>();
  const pendingByHub = new Map<number, number>();

  const previewPath = (rel: string, page: number | null) => (page === null ? `.previews/${rel}.jpg` : `.previews/${rel}/${previewFileName(page)}`);

  async function pdfMeta(hubId: number, rel: string): Promise<{ pages: number; sizes: unknown[] }> {
    const [row] = await db.select({ meta: storedFiles.meta }).from(storedFiles).where(and(eq(storedFiles.hubId, hubId), eq(storedFiles.path, rel)));
    const pages = row?.meta?.pages;
    const sizes = Array.isArray(row?.meta?.pageSizes) ? (row.meta.pageSizes as unknown[]) : [];
    return typeof pages === 'number' ? { pages, sizes } : { pages: await readPdfPageCount(store.localPath(hubId, rel)), sizes };
  }

  /**
   * `page`: a PDF's page, with the size the upload stored (for a placeholder); null for an image. A PDF's
   * pages are rendered from its preview copy when this version of the file has one.
   */
  async function make(hubId: number, rel: string, file: Version, page: PdfPage | null, target: string) {
    // The file may be deleted or stored again while its preview waits or is made (删除 right after 预览):
    // then the preview is of no file, and whatever this making wrote goes.
    const current = async () => {
      const s = await store.stat(hubId, rel);
      return s !== null && !s.isDirectory && s.size === file.size && s.mtimeMs === file.mtimeMs;
    };
    const gone = async () => {
      await store.remove(hubId, target);
      if (!(await store.stat(hubId, rel))) await removePreviews(store, hubId, rel);
      return notFound('文件不存在');
    };
    if (!(await current())) throw notFound('文件不存在');
    try {
      await render(hubId, rel, file, page, target);
    } catch (e) {
      if (!(await current())) throw await gone();
      throw e;
    }
    if (!(await current())) throw await gone();
  }

  async function render(hubId: number, rel: string, file: Version, page: PdfPage | null, target: string) {
    try {
      if (page === null) await makeImagePreview(store.localPath(hubId, rel), store.localPath(hubId, target));
      else {
        const copy = await previewCopyOf(store, hubId, rel, file);
        await makePdfPagePreview(store.localPath(hubId, rel), page.number, store.localPath(hubId, target), {
          pageSizePt: ptOf(page.size),
          ...(copy ? { renderFrom: store.localPath(hubId, copy) } : {}),
        });
      }
    } catch (e) {
      if (e instanceof MediaError) throw new AppError(422, `preview-${e.code}`, e.message);
      throw e;
    }
  }

  /**
   * The preview of `rel` (of its page `page`), made unless one newer than the file exists: a file
   * uploaded again under the same path (a later chunk's bytes, a newer mtime) gets a new preview, written
   * over the old one.
   */
  async function ensure(hubId: number, rel: string, page: PdfPage | null, file: Version, signal?: AbortSignal) {
    const target = previewPath(rel, page?.number ?? null);
    const cached = await store.stat(hubId, target);
    if (cached && cached.mtimeMs >= file.mtimeMs) return target;
    const key = `${hubId}:${target}`;
    let job = making.get(key);
    if (!job) {
      const stop = new AbortController();
      const done = queue.run(hubId, () => make(hubId, rel, file, page, target), stop.signal).finally(() => making.delete(key));
      job = { done, waiters: 0, stop };
      making.set(key, job);
    }
    const mine = job;
    mine.waiters++;
    pendingByHub.set(hubId, (pendingByHub.get(hubId) ?? 0) + 1);
    try {
      await untilDone(mine.done, signal);
    } finally {
      pendingByHub.set(hubId, (pendingByHub.get(hubId) ?? 1) - 1);
      // The last one waiting left: a making not started leaves the queue (once made, this is a no-op).
      if (--mine.waiters === 0 && signal?.aborted) {
        if (making.get(key) === mine) making.delete(key);
        mine.stop.abort(previewCancelled());
      }
    }
    if (!(await store.stat(hubId, target))) throw notFound('预览图不存在');
    return target;
  }

  /** Drops the cached previews of a file whose bytes changed (crop, undo, another upload). */
  const forget = (hubId: number, rel: string) => removePreviews(store, hubId, rel);

  function link(hubId: number, rel: string, page: number | null): PreviewImage {
    const base = `/api/files/preview/${hubId}/${rel.split('/').map(encodeURIComponent).join('/')}`;
    const q = urls.signQuery(`pv:${hubId}:${rel}`);
    const url = page === null ? `${base}?${q}` : `${base}?page=${page}&${q}`;
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    return { name: page === null ? name : `${name} 第${page}页`, relativeUrl: url, url };
  }

  return {
    /** The preview images of a file or of every image and PDF page below a folder, in natural order. */
    async list(hubId: number, filePath: string): Promise<PreviewImage[]> {
      const rel = cleanRelativePath(filePath);
      // A work or a file (upload/<batch>/…, unzip/<batch>/…, fixes/<fix>/…), never a whole batch or the hub's every file.
      if (rel.startsWith('.') || rel.split('/').length < 3) throw badRequest('文件路径不合法', 'bad-path');
      // A work's path lists the work's own files, in its order: after a sort, a crop or a bulk fix they are
      // not what its folder holds (预览 showed the originals of fixed files: the LAN check of 2026-11-29).
      const [work] = await db.select({ files: works.files }).from(works)
        .where(and(eq(works.hubId, hubId), eq(works.filePath, rel))).orderBy(desc(works.createdAt)).limit(1);
      const s = work ? null : await store.stat(hubId, rel);
      if (!work && !s) throw notFound('文件不存在');
      const files = work
        ? work.files.map((f) => f.filePath)
        : s!.isDirectory
          ? (await store.list(hubId, rel)).filter((e) => !e.isDirectory && !isIgnored(e.path.slice(rel.length + 1))).map((e) => e.path).sort(naturalCompare)
          : [rel];
      const out: PreviewImage[] = [];
      for (const f of files) {
        const kind = kindOf(f);
        if (kind === 'image') out.push(link(hubId, f, null));
        else if (kind === 'pdf') {
          const n = await pdfMeta(hubId, f).then((m) => m.pages, () => 0);
          for (let p = 1; p <= n; p++) out.push(link(hubId, f, p));
        }
      }
      return out;
    },
    link,
    /** A stored file's thumbnail: page 1 of a PDF, the picture itself otherwise (the preview route makes and keeps it). */
    thumbnail: (hubId: number, rel: string) => link(hubId, rel, /\.pdf$/i.test(rel) ? 1 : null).url,
    forget,
    /** Requests of a hub waiting for a preview being made (queued or running). */
    pending: (hubId: number) => pendingByHub.get(hubId) ?? 0,
    verify: (hubId: number, rel: string, exp: unknown, sig: unknown) => urls.verify(`pv:${hubId}:${rel}`, exp, sig),
    /**
     * The preview file (made now if needed) of an image, or of one page of a PDF. `signal`: the caller
     * gave up (its connection closed).
     */
    async open(hubId: number, rel: string, page: number | null, signal?: AbortSignal) {
      const clean = cleanRelativePath(rel);
      const kind = kindOf(clean);
      if (kind !== 'image' && kind !== 'pdf') throw notFound('预览图不存在');
      const file = await store.stat(hubId, clean);
      if (!file || file.isDirectory) throw notFound('文件不存在');
      let pdfPage: PdfPage | null = null;
      if (kind === 'pdf') {
        const number = page ?? 1;
        const meta = await pdfMeta(hubId, clean).catch(() => ({ pages: 0, sizes: [] }));
        if (number > meta.pages) throw notFound('预览图不存在');
        pdfPage = { number, size: meta.sizes[number - 1] };
      }
      const target = await ensure(hubId, clean, pdfPage, file, signal);
      return store.read(hubId, target);
    },
  };
}
export type PreviewService = ReturnType<typeof createPreviewService>;
