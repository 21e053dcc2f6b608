import { and, eq } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { Db } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { isIgnored, kindOf, naturalCompare } from '../domain/works.ts';
import { badRequest, notFound } from '../errors.ts';
import { readPdfPageCount } from '../media/pdf.ts';
import { makeImagePreview, makePdfPagePreviews } from '../media/preview.ts';
import type { FileStore } from '../storage/file-store.ts';
import { cleanRelativePath } from '../storage/paths.ts';
import type { FileUrls } from './file-urls.ts';

export type PreviewImage = { name: string; relativeUrl: string; url: string };

const PREVIEW_CONCURRENCY = 2;

/**
 * JPEG previews (long side about 1024 px) of images and PDF pages, made on first request and kept
 * under .previews/ beside nothing the customer sees. Making one is deduplicated across concurrent
 * requests and limited so a page of 150 thumbnails cannot starve the server.
 */
export function createPreviewService(db: Db, store: FileStore, urls: FileUrls) {
  const making = new Map<string, Promise<void>>();
  const limited = pLimit(PREVIEW_CONCURRENCY);

  const previewPath = (rel: string, page: number | null) => (page === null ? `.previews/${rel}.jpg` : `.previews/${rel}/p${String(page).padStart(4, '0')}.jpg`);

  async function pagesOf(hubId: number, rel: string): Promise<number> {
    const [row] = await db.select({ meta: storedFiles.meta }).from(storedFiles).where(and(eq(storedFiles.hubId, hubId), eq(storedFiles.path, rel)));
    const pages = row?.meta?.pages;
    return typeof pages === 'number' ? pages : readPdfPageCount(store.localPath(hubId, rel));
  }

  /**
   * The preview of `rel` (of its page `page`), made unless one newer than the file exists: a file
   * uploaded again under the same path (a later chunk's bytes, a newer mtime) gets new previews.
   */
  async function ensure(hubId: number, rel: string, page: number | null, fileMtimeMs: number) {
    const target = previewPath(rel, page);
    const cached = await store.stat(hubId, target);
    if (cached && cached.mtimeMs >= fileMtimeMs) return target;
    if (cached && !making.has(`${hubId}:${page === null ? target : `.previews/${rel}/`}`)) await forget(hubId, rel);
    const key = `${hubId}:${page === null ? target : `.previews/${rel}/`}`;
    let job = making.get(key);
    if (!job) {
      job = limited(async () => {
        if (page === null) await makeImagePreview(store.localPath(hubId, rel), store.localPath(hubId, target));
        else await makePdfPagePreviews(store.localPath(hubId, rel), store.localPath(hubId, `.previews/${rel}`));
      }).finally(() => making.delete(key));
      making.set(key, job);
    }
    await job;
    if (!(await store.stat(hubId, target))) throw notFound('预览图不存在');
    return target;
  }

  /** Drops the cached previews of a file whose bytes changed (crop, undo, another upload). */
  const forget = (hubId: number, rel: string) => Promise.all([store.remove(hubId, `.previews/${rel}.jpg`), store.remove(hubId, `.previews/${rel}`)]);

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
      if (rel.startsWith('.')) throw badRequest('文件路径不合法', 'bad-path');
      const s = await store.stat(hubId, rel);
      if (!s) throw notFound('文件不存在');
      const files = s.isDirectory
        ? (await store.list(hubId, rel)).filter((e) => !e.isDirectory && !isIgnored(e.path.slice(rel.length + 1))).map((e) => e.path).sort(naturalCompare)
        : [rel];
      const out: PreviewImage[] = [];
      for (const f of files) {
        const kind = kindOf(f);
        if (kind === 'image') out.push(link(hubId, f, null));
        else if (kind === 'pdf') {
          const n = await pagesOf(hubId, f).catch(() => 0);
          for (let p = 1; p <= n; p++) out.push(link(hubId, f, p));
        }
      }
      return out;
    },
    link,
    forget,
    verify: (hubId: number, rel: string, exp: unknown, sig: unknown) => urls.verify(`pv:${hubId}:${rel}`, exp, sig),
    /** The preview file (made now if needed) of an image, or of one page of a PDF. */
    async open(hubId: number, rel: string, page: number | null) {
      const clean = cleanRelativePath(rel);
      const kind = kindOf(clean);
      if (kind !== 'image' && kind !== 'pdf') throw notFound('预览图不存在');
      const file = await store.stat(hubId, clean);
      if (!file || file.isDirectory) throw notFound('文件不存在');
      const target = await ensure(hubId, clean, kind === 'pdf' ? (page ?? 1) : null, file.mtimeMs);
      return store.read(hubId, target);
    },
  };
}
export type PreviewService = ReturnType<typeof createPreviewService>;
