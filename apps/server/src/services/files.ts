import { and, eq, like, or } from 'drizzle-orm';
import { MSG } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { badRequest, notFound } from '../errors.ts';
import type { FileStore } from '../storage/file-store.ts';
import { cleanRelativePath } from '../storage/paths.ts';
import { escapeLike } from '../db/like.ts';
import type { OrderedPaths } from './ordered-paths.ts';
import { removePreviews } from './preview-copies.ts';

/** Reading and removing a hub's stored files by their hub-relative paths. */
export function createFileService(db: Db, store: FileStore, ordered: OrderedPaths) {
  return {
    async open(hubId: number, rel: string) {
      const clean = cleanRelativePath(rel);
      const s = await store.stat(hubId, clean);
      if (!s || s.isDirectory) throw notFound('文件不存在');
      return store.read(hubId, clean);
    },
    /** Removes a stored file or a work's whole folder; answers how many stored files went with it. */
    async remove(hubId: number, rel: string): Promise<number> {
      const clean = cleanRelativePath(rel);
      if (!/^(upload|unzip)\//.test(clean) || clean.split('/').length < 3) throw badRequest('只能删除上传的文件或文件夹', 'bad-path');
      // Checked and removed as the hub's one file step: an order placed meanwhile waits, or is placed first and refuses this.
      return ordered.serialize(hubId, async () => {
        const s = await store.stat(hubId, clean);
        if (!s) throw notFound('文件不存在');
        await ordered.refuseIfOrdered(hubId, clean, MSG.orderedFileDelete);
        const gone = await db.delete(storedFiles)
          .where(and(eq(storedFiles.hubId, hubId), or(eq(storedFiles.path, clean), like(storedFiles.path, `${escapeLike(clean)}/%`))))
          .returning({ id: storedFiles.id });
        await store.remove(hubId, clean);
        // A preview being made meanwhile finds its file gone and removes what it wrote (previews.ts make).
        await removePreviews(store, hubId, clean);
        return Math.max(gone.length, 1);
      });
    },
  };
}
export type FileService = ReturnType<typeof createFileService>;
