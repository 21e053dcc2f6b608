import { and, desc, eq, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import { AppError } from '../errors.ts';
import { LIMITS, MSG } from '@portal/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { storedFiles, uploads } from '../db/schema/index.ts';
type StoredFile = typeof storedFiles.$inferSelect;
import type { Caller } from '../plugins/auth.ts';
import { sha256File } from '../media/hash.ts';
import { isNameTaken, type FileStore } from '../storage/file-store.ts';
import type { ContentHashes } from './content-hashes.ts';
import type { FileUrls } from './file-urls.ts';
import type { OrderedPaths } from './ordered-paths.ts';
import type { OrderService } from './orders.ts';
import { normaliseChunkFields, storedAnswer, uploadRefusal, type ChunkFields } from './uploads.ts';

/** Stored files of one hash tried before the answer is "send the bytes": a copy whose bytes changed on disk is passed over. */
const CANDIDATES = 3;
/** Extensions that name the same kind of bytes: a file is linked only under a name of its own kind. */
const FAMILY: Record<string, string> = { jpg: 'jpeg', jpeg: 'jpeg', png: 'png', pdf: 'pdf', zip: 'zip' };
const extOf = (p: string) => p.slice(p.lastIndexOf('.') + 1).toLowerCase();
/** Sources found and re-hashed at once by linkMany: the re-hash reads the disk, and 2 cores hash. */
const SOURCES_AT_ONCE = 4;

type LinkRequest = { folderId: string; filePath: string; size: number; sha256: string };
type Candidate = { path: string; kind: 'image' | 'pdf' | 'zip'; meta: StoredFile['meta']; sha256: string | null };
type Found = { f: ChunkFields; rel: string; kind: 'image' | 'pdf' | 'zip'; meta: NonNullable<StoredFile['meta']>; sha256: string; chunkTotal: number };

/**
 * Bytes the shop already has are not sent (issue #21 item 2). The browser hashes each picked file and
 * asks which hashes its hub stores; those are linked into the batch instead of uploaded. Keep in mind:
 * - only the caller's hub is searched, by one statement that is the same for a hash no hub has and
 *   for another hub's: the answer and its path through the code say nothing about other hubs;
 * - the client's hash is only a key to look up the hub's own files; what grants the bytes is the
 *   sha256 the server computed when it stored them, checked again against the bytes on disk before
 *   they are linked (a file whose bytes changed is passed over);
 * - the server hashes a stored file after its upload (services/content-hashes.ts): every answer first
 *   hashes what the hub still lacks (`settle`), so a file uploaded a moment ago is found;
 * - a linked file is stored exactly as an uploaded one: its row (with the source's metadata and
 *   hash), a done upload under its batch and path (testChunks answers 200), the same answer as the
 *   chunk that completes an upload.
 */
export function createDedupeService(deps: { db: Db; store: FileStore; urls: FileUrls; config: Config; orders: OrderService; ordered: OrderedPaths; hashes: ContentHashes }) {
  const { db, store } = deps;
  const ph = sql.placeholder;

  const knownOf = db.selectDistinct({ sha256: storedFiles.sha256 }).from(storedFiles)
    .where(and(eq(storedFiles.hubId, ph('hubId')), sql`${storedFiles.sha256} = any(${ph('hashes')}::text[])`))
    .prepare('dedupe_known');
  const candidatesOf = db.select({ path: storedFiles.path, kind: storedFiles.kind, meta: storedFiles.meta, sha256: storedFiles.sha256 }).from(storedFiles)
    .where(and(eq(storedFiles.hubId, ph('hubId')), eq(storedFiles.sha256, ph('sha256')), eq(storedFiles.size, ph('size')),
      // Kept originals of crops and other bookkeeping (dot-folders) are not the customer's files.
      sql`${storedFiles.path} not like '.%'`))
    .orderBy(desc(storedFiles.id)).limit(CANDIDATES).prepare('dedupe_candidates');

  /** The same refusals as a chunk of this file (path, extension, size limits, folderId). */
  function refuseBad(body: LinkRequest): ChunkFields {
    const chunkTotal = Math.max(1, Math.ceil(body.size / LIMITS.chunkSize));
    return normaliseChunkFields({ identifier: `sha256:${body.sha256}`, chunkIndex: '1', chunkTotal: String(chunkTotal), size: String(body.size), filePath: body.filePath, folderId: body.folderId }, deps.config);
  }

  /** A stored file of the hub whose bytes are still `body.sha256`, hard-linked under the batch's path; null: send the bytes. */
  async function findSource(hubId: number, f: ChunkFields, candidates: Candidate[]): Promise<Found | null> {
    const rel = `upload/${f.folderId}/${f.filePath}`;
    for (const c of candidates) {
      if (FAMILY[extOf(c.path)] !== FAMILY[f.ext]) continue;
      // The stored hash was the server's own; the bytes on disk must still be those bytes.
      const now = await sha256File(store.localPath(hubId, c.path)).catch(() => null);
      if (now === null || now !== c.sha256) continue;
      if (c.path !== rel) {
        // A file an order refers to is the press's: other bytes never replace it.
        const [there] = await db.select({ sha256: storedFiles.sha256 }).from(storedFiles).where(and(eq(storedFiles.hubId, hubId), eq(storedFiles.path, rel)));
        if (there && there.sha256 !== now && (await deps.ordered.isOrdered(hubId, rel))) throw uploadRefusal(MSG.orderedFileOverwrite, 409);
        try {
          await store.linkFile(hubId, c.path, rel);
        } catch (err) {
          if (isNameTaken(err)) throw uploadRefusal(MSG.uploadPathTaken(f.filePath), 409);
          throw err;
        }
      }
      return { f, rel, kind: c.kind, meta: c.meta ?? {}, sha256: now, chunkTotal: Math.max(1, Math.ceil(f.size / LIMITS.chunkSize)) };
    }
    return null;
  }

  /** The linked files' rows: each as an uploaded file's, and a done upload under its batch and path (testChunks answers 200). */
  async function writeRows(tx: Parameters<Parameters<Db['transaction']>[0]>[0], hubId: number, linked: Found[]) {
    await tx.insert(storedFiles).values(linked.map(({ f, rel, kind, meta, sha256 }) => ({ hubId, path: rel, kind, size: f.size, meta, sha256 })))
      .onConflictDoUpdate({ target: [storedFiles.hubId, storedFiles.path], set: { kind: sql`excluded.kind`, size: sql`excluded.size`, meta: sql`excluded.meta`, sha256: sql`excluded.sha256`, originalPath: null, createdAt: sql`now()` } });
    await tx.insert(uploads).values(linked.map(({ f, chunkTotal }) => ({ hubId, folderId: f.folderId, identifier: f.identifier, filePath: f.filePath, size: f.size, chunkTotal, receivedCount: chunkTotal, status: 'done' as const })))
      .onConflictDoUpdate({ target: [uploads.hubId, uploads.folderId, uploads.filePath], set: { identifier: sql`excluded.identifier`, size: sql`excluded.size`, chunkTotal: sql`excluded.chunk_total`, receivedCount: sql`excluded.received_count`, status: 'done', error: null, updatedAt: sql`now()` } });
  }

  const linkedAnswer = (hubId: number, l: Found) => ({ linked: true as const, state: 200 as const, message: storedAnswer(deps.urls, hubId, l.rel, l.meta) });
  const unlinked = { linked: false as const };

  return {
    /** The hashes of `hashes` that the hub stores. */
    async known(hubId: number, hashes: string[]): Promise<{ known: string[] }> {
      if (hashes.length === 0) return { known: [] };
      await deps.hashes.settle(hubId);
      const rows = await knownOf.execute({ hubId, hashes: [...new Set(hashes)] });
      return { known: rows.map((r) => r.sha256).filter((h): h is string => h !== null) };
    },

    /** Stores `filePath` of batch `folderId` from bytes of the hub with this sha256 and size, or answers that the bytes must be sent. */
    async link(hubId: number, body: LinkRequest) {
      const f = refuseBad(body);
      await deps.hashes.settle(hubId);
      // A path's bytes replaced and its row written as the hub's one file step (services/ordered-paths.ts serialize).
      return deps.ordered.serialize(hubId, async () => {
        const found = await findSource(hubId, f, await candidatesOf.execute({ hubId, sha256: body.sha256, size: f.size }));
        if (!found) return unlinked;
        await db.transaction((tx) => writeRows(tx, hubId, [found]));
        return linkedAnswer(hubId, found);
      });
    },

    /**
     * link for many files in one call (a re-picked folder): every item's path is checked first (a bad one
     * refuses the call, nothing linked), the hub's hashes settled once, the sources found and checked a few at
     * a time, and every row written in one transaction (two statements). A path already taken by other bytes answers that
     * item {linked: false} (its upload then says why); another hub's hash answers it as a hash no hub has.
     */
    async linkMany(hubId: number, files: LinkRequest[]) {
      const fields = files.map(refuseBad);
      const keys = new Set(fields.map((f) => `${f.folderId}\n${f.filePath}`));
      if (keys.size !== fields.length) throw uploadRefusal(MSG.linkFilesRepeated);
      await deps.hashes.settle(hubId);
      // Every file's candidates in one statement: the CANDIDATES newest of each (hash, size).
      const result = (await db.execute(sql`
        select path, kind, meta, sha256, size from (
          select sf.path, sf.kind, sf.meta, sf.sha256, sf.size, row_number() over (partition by sf.sha256, sf.size order by sf.id desc) as n
          from ${storedFiles} sf
          where sf.hub_id = ${hubId} and sf.sha256 = any(${sql.param([...new Set(files.map((b) => b.sha256))])}::text[]) and sf.path not like '.%') c
        where n <= ${CANDIDATES} order by n`)) as unknown as { rows: Array<Candidate & { size: number | string }> };
      const byKey = new Map<string, Candidate[]>();
      for (const c of result.rows) {
        const key = `${c.sha256}\n${Number(c.size)}`;
        byKey.set(key, [...(byKey.get(key) ?? []), c]);
      }
      const checking = pLimit(SOURCES_AT_ONCE);
      // Paths' bytes replaced and their rows written as the hub's one file step (services/ordered-paths.ts serialize).
      return deps.ordered.serialize(hubId, async () => {
        const found = await Promise.all(files.map((body, i) => checking(async () => {
          try {
            return await findSource(hubId, fields[i]!, byKey.get(`${body.sha256}\n${fields[i]!.size}`) ?? []);
          } catch (err) {
            if (err instanceof AppError && err.status === 409) return null;
            throw err;
          }
        })));
        const linked = found.filter((l): l is Found => l !== null);
        if (linked.length > 0) await db.transaction((tx) => writeRows(tx, hubId, linked));
        return { results: found.map((l) => (l ? linkedAnswer(hubId, l) : unlinked)) };
      });
    },

    /**
     * repeatFileNameCheck (../shared/spec/product-spec.md §4 duplicate dialog) with content: the rows of the
     * names sent, then one row for each work of `workUuids` whose every file's bytes are already in an
     * order of the hub (under any name), with that order's number.
     */
    async repeatCheck(caller: Caller, body: { files: string[]; workUuids?: string[] | undefined }) {
      const byName = await deps.orders.repeatCheck(caller, body.files);
      const uuids = [...new Set(body.workUuids ?? [])];
      if (uuids.length === 0) return byName;
      await deps.hashes.settle(caller.hubId);
      const result = (await db.execute(sql`
        with w as (
          select w.uuid, w.file_name, f->>'filePath' as path from works w cross join jsonb_array_elements(w.files) f
          where w.hub_id = ${caller.hubId} and w.uuid = any(${sql.param(uuids)}::uuid[])),
        h as (select w.uuid, w.file_name, w.path, sf.sha256 from w left join stored_files sf on sf.hub_id = ${caller.hubId} and sf.path = w.path),
        o as (
          select distinct on (sf.sha256) sf.sha256, so.sales_order_number as no from stored_files sf
          join sales_orders so on so.hub_id = sf.hub_id and (so.file_path = sf.path or so.files @> jsonb_build_array(jsonb_build_object('filePath', sf.path)))
          where sf.hub_id = ${caller.hubId} and sf.sha256 in (select sha256 from h where sha256 is not null)
          order by sf.sha256, so.id desc)
        select h.uuid::text as uuid, min(h.file_name) as file_name, bool_and(o.sha256 is not null) as all_ordered, max(o.no) as no
        from h left join o on o.sha256 = h.sha256 group by h.uuid`)) as unknown as { rows: Array<{ uuid: string; file_name: string; all_ordered: boolean; no: string | null }> };
      const list = result.rows;
      const same = list.filter((r) => r.all_ordered && r.no)
        .map((r) => ({ fileName: r.file_name, duplicated: false, salesOrderNumber: r.no, workUuid: r.uuid, sameContent: true }));
      return [...byName, ...same];
    },
  };
}
export type DedupeService = ReturnType<typeof createDedupeService>;
