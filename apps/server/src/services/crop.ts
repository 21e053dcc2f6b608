import { and, eq } from 'drizzle-orm';
import { MSG, pxToMm } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { kindOf } from '../domain/works.ts';
import { AppError, notFound } from '../errors.ts';
import { sha256File } from '../media/hash.ts';
import { readImageMeta } from '../media/image.ts';
import { cropImage, formatOf } from '../media/transform.ts';
import type { FileStore } from '../storage/file-store.ts';
import { cleanRelativePath } from '../storage/paths.ts';
import type { OrderedPaths } from './ordered-paths.ts';
import type { PreviewService } from './previews.ts';

export type CropRequest = { path: string; x: number; y: number; width: number; height: number; scale: number; rotation: 0 | 90 | 180 | 270; dpi?: number | undefined };

const refuse = (message: string) => new AppError(400, 'crop-refused', message, { success: false, message });

/**
 * cropImg: turns the image as displayed (EXIF orientation applied) by the rotation, then cuts the
 * rectangle, given in pixels of the image shown at `scale` percent. The density is `dpi` when given (the box
 * becomes the component's size), else kept. The stored file is replaced; the first original is kept under .originals/ so the crop can be undone.
 */
export function createCropService(deps: { db: Db; store: FileStore; previews: PreviewService; ordered: OrderedPaths }) {
  const { db, store } = deps;

  async function load(hubId: number, p: string) {
    const rel = cleanRelativePath(p);
    if (kindOf(rel) !== 'image') throw refuse('只能裁切图片文件');
    const [row] = await db.select().from(storedFiles).where(and(eq(storedFiles.hubId, hubId), eq(storedFiles.path, rel)));
    if (!row || !(await store.stat(hubId, rel))) throw notFound('文件不存在');
    await deps.ordered.refuseIfOrdered(hubId, rel, MSG.orderedFileChange);
    return { rel, row };
  }

  async function describe(hubId: number, rel: string) {
    // New bytes, new hash: a later pick of the original file must not be linked to the cropped one.
    const [m, sha256] = await Promise.all([readImageMeta(store.localPath(hubId, rel)), sha256File(store.localPath(hubId, rel))]);
    await db.update(storedFiles).set({ meta: { width: m.width, height: m.height, dpi: m.dpi, dpiStated: m.dpiStated, intact: true }, sha256 })
      .where(and(eq(storedFiles.hubId, hubId), eq(storedFiles.path, rel)));
    await deps.previews.forget(hubId, rel);
    const l = deps.previews.link(hubId, rel, null);
    return {
      success: true as const,
      data: { width: Math.round(pxToMm(m.width, m.dpi) * 10) / 10, height: Math.round(pxToMm(m.height, m.dpi) * 10) / 10,
        widthPx: m.width, heightPx: m.height, dpi: m.dpi, previewUrl: l.url, previewRelativeUrl: l.relativeUrl },
    };
  }

  return {
    /** One crop of a hub at a time, and none while an order is placed (services/ordered-paths.ts serialize). */
    crop: (hubId: number, req: CropRequest) => deps.ordered.serialize(hubId, async () => {
      const { rel, row } = await load(hubId, req.path);
      const meta = row.meta ?? {};
      if (!(Number(meta.width) > 0 && Number(meta.height) > 0) || meta.intact === false) throw refuse(String(meta.brokenReason ?? MSG.fileBroken));
      const k = 100 / req.scale;
      const rect = { left: Math.round(req.x * k), top: Math.round(req.y * k), width: Math.round(req.width * k), height: Math.round(req.height * k) };
      const turned = req.rotation === 90 || req.rotation === 270;
      const w = turned ? Number(meta.height) : Number(meta.width);
      const h = turned ? Number(meta.width) : Number(meta.height);
      // A rectangle reaching a little past the edge (rounding in the browser) is clipped to the picture, not
      // refused; one wholly outside it is (it was moved inside and cut from elsewhere: API probe, 2026-11-30).
      const right = Math.min(w, rect.left + rect.width);
      const bottom = Math.min(h, rect.top + rect.height);
      rect.left = Math.max(0, rect.left);
      rect.top = Math.max(0, rect.top);
      rect.width = right - rect.left;
      rect.height = bottom - rect.top;
      if (rect.width < 1 || rect.height < 1) throw refuse('裁切区域不正确，请重新选择');

      const src = store.localPath(hubId, rel);
      let out: Buffer;
      try {
        out = await cropImage(src, { rotation: req.rotation, rect, format: formatOf(rel), density: req.dpi ?? (meta.dpiStated === true ? Number(meta.dpi) : null) });
      } catch {
        throw refuse(MSG.fileBroken);
      }
      // An original named but gone (an undo killed before it cleared the name, in older versions) is kept anew.
      if (!row.originalPath || !(await store.stat(hubId, row.originalPath))) {
        const original = `.originals/${rel}`;
        // A link, not a copy: the write below replaces the file by a rename, the original keeps its bytes.
        await store.linkFile(hubId, rel, original);
        await db.update(storedFiles).set({ originalPath: original }).where(eq(storedFiles.id, row.id));
      }
      await store.write(hubId, rel, out);
      return describe(hubId, rel);
    }),

    /** Puts the original back after one or more crops. */
    undo: (hubId: number, p: string) => deps.ordered.serialize(hubId, async () => {
      const { rel, row } = await load(hubId, p);
      if (!row.originalPath) throw refuse('该文件没有可恢复的原图');
      // Back, then unnamed, then removed: a process killed between two steps leaves an undo that can be made again
      // (removed first, the row named a file that was gone, and the next 撤销 crashed the server: crash probe).
      if (!(await store.stat(hubId, row.originalPath))) {
        await db.update(storedFiles).set({ originalPath: null }).where(eq(storedFiles.id, row.id));
        throw refuse('该文件没有可恢复的原图');
      }
      await store.linkFile(hubId, row.originalPath, rel);
      await db.update(storedFiles).set({ originalPath: null }).where(eq(storedFiles.id, row.id));
      await store.remove(hubId, row.originalPath);
      return describe(hubId, rel);
    }),
  };
}
export type CropService = ReturnType<typeof createCropService>;
