/**
 * The open batch draft of a login (issue #21 item 3; docs/decisions.md "A batch survives a reload").
 *
 * Keep in mind:
 * - a login has at most one open draft (a partial unique index): two tabs creating one at once get
 *   one draft and one 409;
 * - a save names the version it changes and the update does the comparison itself, so two saves of
 *   one version cannot both win (optimistic concurrency, no lock held between calls);
 * - a draft is its login's: another login's or another hub's id is not found (404), never shown;
 * - closed drafts stay (closedReason reset | ordered) and are never opened again; ordering closes the
 *   open one in the order's transaction (services/orders.ts).
 */
import { and, eq, sql } from 'drizzle-orm';
import { DRAFT_MSG, type BatchDraft, type BatchDraftDocument, type SavedDraftAnswer } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { batchDrafts } from '../db/schema/index.ts';
import { AppError, conflict, notFound } from '../errors.ts';

export type DraftCaller = { userId: number; hubId: number };

export function createDraftService(deps: { db: Db; maxBytes: number }) {
  const { db } = deps;
  const mine = (caller: DraftCaller, id: number) => and(eq(batchDrafts.id, id), eq(batchDrafts.userId, caller.userId), eq(batchDrafts.hubId, caller.hubId));

  function checkSize(bytes: number) {
    if (bytes > deps.maxBytes) throw new AppError(413, 'draft-too-large', DRAFT_MSG.tooLarge(bytes, deps.maxBytes));
  }

  /** What a save answers: never the document back (it is the biggest thing here). */
  const answerColumns = { id: batchDrafts.id, version: batchDrafts.version, updatedAt: batchDrafts.updatedAt, bytes: batchDrafts.bytes };
  const saved = (row: { id: number; version: number; updatedAt: Date; bytes: number }): SavedDraftAnswer =>
    ({ id: row.id, version: row.version, savedAt: row.updatedAt.toISOString(), bytes: row.bytes });

  return {
    /** The caller's open draft, or null. */
    async open(caller: DraftCaller): Promise<BatchDraft | null> {
      const [row] = await db.select().from(batchDrafts)
        .where(and(eq(batchDrafts.userId, caller.userId), eq(batchDrafts.hubId, caller.hubId), eq(batchDrafts.status, 'open')));
      return row ? { id: row.id, version: row.version, savedAt: row.updatedAt.toISOString(), document: JSON.parse(row.document) as BatchDraftDocument } : null;
    },

    /** One of the caller's drafts by id, open or closed. */
    async get(caller: DraftCaller, id: number): Promise<BatchDraft> {
      const [row] = await db.select().from(batchDrafts).where(mine(caller, id));
      if (!row) throw notFound('批量订单草稿不存在');
      return { id: row.id, version: row.version, savedAt: row.updatedAt.toISOString(), document: JSON.parse(row.document) as BatchDraftDocument };
    },

    /** Opens the caller's draft (version 1); 409 when one is open already. `bytes`: the document's size as received. */
    async create(caller: DraftCaller, document: BatchDraftDocument, bytes: number): Promise<SavedDraftAnswer> {
      checkSize(bytes);
      const [row] = await db.insert(batchDrafts).values({ hubId: caller.hubId, userId: caller.userId, document: JSON.stringify(document), bytes, version: 1 })
        .onConflictDoNothing().returning(answerColumns);
      if (!row) throw conflict(DRAFT_MSG.alreadyOpen, 'draft-exists');
      return saved(row);
    },

    /** Replaces the document of version `version`; the new version is one more. */
    async save(caller: DraftCaller, id: number, version: number, document: BatchDraftDocument, bytes: number): Promise<SavedDraftAnswer> {
      checkSize(bytes);
      const text = JSON.stringify(document);
      const [row] = await db.update(batchDrafts)
        .set({ document: text, bytes, version: sql`${batchDrafts.version} + 1`, updatedAt: sql`now()` })
        .where(and(mine(caller, id), eq(batchDrafts.status, 'open'), eq(batchDrafts.version, version)))
        .returning(answerColumns);
      if (row) return saved(row);
      const [other] = await db.select({ ...answerColumns, status: batchDrafts.status, document: batchDrafts.document }).from(batchDrafts).where(mine(caller, id));
      if (!other) throw notFound('批量订单草稿不存在');
      if (other.status === 'closed') throw conflict(DRAFT_MSG.closed, 'draft-closed');
      // This very save was made and its answer lost (the server died after its commit): the page sends it again
      // and is answered as it would have been, not told another window changed the draft (crash probe).
      if (other.version === version + 1 && other.document === text) return saved(other);
      throw conflict(DRAFT_MSG.conflict, 'draft-version');
    },

    /** 重置: closes the draft (a closed one stays closed). */
    async discard(caller: DraftCaller, id: number): Promise<void> {
      const [row] = await db.update(batchDrafts).set({ status: 'closed', closedReason: 'reset', updatedAt: sql`now()` })
        .where(and(mine(caller, id), eq(batchDrafts.status, 'open'))).returning({ id: batchDrafts.id });
      if (row) return;
      const [other] = await db.select({ id: batchDrafts.id }).from(batchDrafts).where(mine(caller, id));
      if (!other) throw notFound('批量订单草稿不存在');
    },
  };
}
export type DraftService = ReturnType<typeof createDraftService>;
