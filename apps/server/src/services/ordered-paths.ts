import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { escapeLike } from '../db/like.ts';
import { salesOrders } from '../db/schema/index.ts';
import type { HubLock } from '../db/hub-lock.ts';
import { conflict } from '../errors.ts';

/**
 * The stored paths orders refer to. A file an order refers to is the press's: no customer call may remove it
 * or change its bytes (deleteFile, a chunk upload or link under its path, a crop or its undo, undoing the fix
 * that made it, a zip's extraction made again). The production zip reads the order's paths as they are.
 */
export function createOrderedPaths(db: Db, hubLock: HubLock) {
  /** Whether an order refers to `path`: the work, one of its files, or a folder above them. */
  async function isOrdered(hubId: number, path: string): Promise<boolean> {
    const below = `${escapeLike(path)}/%`;
    const [hit] = await db.select({ id: salesOrders.id }).from(salesOrders).where(and(eq(salesOrders.hubId, hubId), sql`(
      ${salesOrders.filePath} = ${path} or ${salesOrders.filePath} like ${below}
      or exists (select 1 from jsonb_array_elements(${salesOrders.files}) f where f->>'filePath' = ${path} or f->>'filePath' like ${below}))`)).limit(1);
    return Boolean(hit);
  }
  return {
    isOrdered,
    /**
     * Runs `step` as the hub's one file change or order at a time (db/hub-lock.ts): a check that a path is not
     * ordered and the change it allows, or an order's re-check and its insert, with nothing of the other between.
     */
    serialize: <T>(hubId: number, step: () => Promise<T>): Promise<T> => hubLock.run(hubId, step),
    /** Those of these file paths that an order lists (its work's path or one of its files), in one statement. */
    async orderedFiles(hubId: number, paths: readonly string[]): Promise<Set<string>> {
      if (paths.length === 0) return new Set();
      const list = sql.param([...paths]);
      const result = (await db.execute(sql`
        select o.file_path as path from ${salesOrders} o where o.hub_id = ${hubId} and o.file_path = any(${list}::text[])
        union
        select f->>'filePath' from ${salesOrders} o, jsonb_array_elements(o.files) f
        where o.hub_id = ${hubId} and f->>'filePath' = any(${list}::text[])`)) as unknown as { rows: Array<{ path: string }> };
      return new Set(result.rows.map((r) => r.path));
    },
    /** 409 with `message` when an order refers to `path` (in a `serialize` step, with the change it allows). */
    async refuseIfOrdered(hubId: number, path: string, message: string): Promise<void> {
      if (await isOrdered(hubId, path)) throw conflict(message, 'ordered');
    },
  };
}
export type OrderedPaths = ReturnType<typeof createOrderedPaths>;
