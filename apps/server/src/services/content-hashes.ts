import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { sha256File } from '../media/hash.ts';
import type { FileStore } from '../storage/file-store.ts';

/** Background hashing waits until no chunk has come for this long. */
export const QUIET_MS = 500;
/** Rows of a hub read at a time. */
const BATCH = 50;

type Log = { warn: (o: object, m: string) => void };

/**
 * The sha256 of every stored file, computed after the upload instead of during it (docs/decisions.md,
 * "Content hashes after the upload"). Keep in mind:
 * - a file is stored with no hash; this fills it in the background once no chunk has come for QUIET_MS,
 *   one file at a time, so hashing never competes with the uploads themselves (on 2 cores it cut upload
 *   throughput to disk from 0.86 to 0.48 of the bare sink, bench upload-throughput);
 * - whatever reads the hashes of a hub (services/dedupe.ts) first calls `settle(hubId)`, which hashes
 *   what that hub still lacks at once: an answer never misses bytes only because they were not hashed yet;
 * - it works from the database, not from memory: a row without a hash left by a process that died is
 *   found by `start()` of any process, or by the next `settle` of its hub;
 * - a row is filled only if it still holds the bytes that were hashed (its created_at, renewed whenever
 *   the path is stored again, is part of the update's condition).
 */
export function createContentHashes(deps: { db: Db; store: FileStore; log?: Log }) {
  const { db, store } = deps;
  const ph = sql.placeholder;
  // created_at as text: PostgreSQL keeps microseconds, a JavaScript Date only milliseconds.
  const unhashedOf = db.select({ id: storedFiles.id, path: storedFiles.path, size: storedFiles.size, createdAt: sql<string>`${storedFiles.createdAt}::text` }).from(storedFiles)
    .where(and(eq(storedFiles.hubId, ph('hubId')), isNull(storedFiles.sha256), sql`${storedFiles.id} > ${ph('after')}`))
    .orderBy(storedFiles.id).limit(BATCH).prepare('content_hashes_unhashed');

  let lastChunkAt = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  /** Hubs that may have files without a hash. */
  const dirty = new Set<number>();
  /** Hashes being computed in this process, by row id: a settle and the background share them. */
  const inFlight = new Map<number, Promise<void>>();
  /** Rows whose file could not be read (removed meanwhile): passed over by this process. */
  const unreadable = new Set<number>();

  const quiet = () => Date.now() - lastChunkAt >= QUIET_MS;

  function hashRow(hubId: number, row: { id: number; path: string; size: number; createdAt: string }): Promise<void> {
    const known = inFlight.get(row.id);
    if (known) return known;
    const job = (async () => {
      // A file whose size is not the row's is not the bytes the row stands for.
      const st = await store.stat(hubId, row.path).catch(() => null);
      const sha256 = st?.size === row.size ? await sha256File(store.localPath(hubId, row.path)).catch(() => null) : null;
      if (sha256 === null) {
        unreadable.add(row.id);
        return;
      }
      await db.update(storedFiles).set({ sha256 })
        .where(and(eq(storedFiles.id, row.id), isNull(storedFiles.sha256), sql`${storedFiles.createdAt}::text = ${row.createdAt}`));
    })().finally(() => inFlight.delete(row.id));
    inFlight.set(row.id, job);
    return job;
  }

  /** Hashes the hub's files that lack a hash; with `yieldToUploads`, stops as soon as a chunk comes. Answers whether it finished. */
  async function hashHub(hubId: number, yieldToUploads: boolean): Promise<boolean> {
    let after = 0;
    for (;;) {
      const rows = (await unhashedOf.execute({ hubId, after })).filter((r) => !unreadable.has(r.id));
      if (rows.length === 0) return true;
      for (const row of rows) {
        if (stopped || (yieldToUploads && !quiet())) return false;
        await hashRow(hubId, row);
        after = row.id;
      }
    }
  }

  function schedule(delay = QUIET_MS) {
    if (timer || stopped || dirty.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      if (running) return;
      if (!quiet()) return schedule(QUIET_MS - (Date.now() - lastChunkAt));
      running = (async () => {
        for (const hubId of dirty) {
          if (!quiet() || stopped) break;
          if (await hashHub(hubId, true)) dirty.delete(hubId);
        }
      })().catch((err: unknown) => deps.log?.warn({ err }, 'background hashing of stored files failed'))
        .finally(() => {
          running = null;
          schedule();
        });
    }, Math.max(delay, 1));
    timer.unref();
  }

  return {
    /** A chunk came: background hashing waits. */
    chunkCame() {
      lastChunkAt = Date.now();
    },
    /** A file of the hub was stored without a hash. */
    stored(hubId: number) {
      dirty.add(hubId);
      schedule();
    },
    /** Hashes at once every file of the hub that lacks a hash (what reads the hub's hashes calls it first). */
    async settle(hubId: number): Promise<void> {
      await hashHub(hubId, false);
    },
    /** Finds the hubs with files left without a hash (by a process that stopped) and hashes them in the background. */
    async start(): Promise<void> {
      const rows = await db.selectDistinct({ hubId: storedFiles.hubId }).from(storedFiles).where(isNull(storedFiles.sha256));
      for (const r of rows) dirty.add(r.hubId);
      schedule();
    },
    /** Stops background hashing and waits for the file being hashed. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      await Promise.allSettled(inFlight.values());
    },
  };
}
export type ContentHashes = ReturnType<typeof createContentHashes>;
