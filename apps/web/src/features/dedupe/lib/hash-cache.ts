/**
 * The sha256 of files this browser has hashed, kept in IndexedDB (issue #21 item 4: a re-picked folder is
 * not hashed again). Keep in mind:
 * - a file is known by its relative path as picked, its size and its modification time (File.lastModified),
 *   the rule git's index, rsync's quick check and the draft's re-pick (features/draft) use: a file whose
 *   path, size and time are unchanged is taken to hold the same bytes. A file rewritten with the same size
 *   by a tool that puts its old time back would be taken for its old bytes (docs/decisions.md);
 * - reads and writes that come close together go in one IndexedDB transaction, PER_TRANSACTION of each at
 *   most (a pick of 200 files is a few transactions, not 200; one of 10,000 is not one long task);
 * - anything that fails (no IndexedDB, a private window's quota, a blocked open) only means the file is
 *   hashed: lookups answer undefined, writes are dropped;
 * - at most MAX_ENTRIES files are kept: past that, the ones used longest ago are deleted when the page
 *   first opens the store.
 */
const DB_NAME = 'portal-file-hashes';
const STORE = 'sha256';
const USED_AT = 'usedAt';
const MAX_ENTRIES = 50_000;
/** Lookups, and writes, in one IndexedDB transaction at most. */
const PER_TRANSACTION = 500;

type Entry = { sha256: string; usedAt: number };

/** The key of a picked file, or null when it is not a File (no modification time to trust). */
export function hashKeyOf(file: Blob, relativePath: string): string | null {
  return typeof File !== 'undefined' && file instanceof File ? `${relativePath}\n${file.size}\n${file.lastModified}` : null;
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('no IndexedDB'));
      return;
    }
    const r = indexedDB.open(DB_NAME, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE).createIndex(USED_AT, USED_AT);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB open failed'));
    r.onblocked = () => reject(new Error('IndexedDB open blocked'));
  });
}

/** Deletes the entries used longest ago beyond MAX_ENTRIES. */
async function prune(db: IDBDatabase): Promise<void> {
  const tx = db.transaction(STORE, 'readwrite');
  const store = tx.objectStore(STORE);
  let extra = (await request(store.count())) - MAX_ENTRIES;
  if (extra <= 0) return;
  const cursors = store.index(USED_AT).openCursor();
  await new Promise<void>((resolve, reject) => {
    cursors.onsuccess = () => {
      const c = cursors.result;
      if (!c || extra-- <= 0) {
        resolve();
        return;
      }
      c.delete();
      c.continue();
    };
    cursors.onerror = () => reject(cursors.error ?? new Error('IndexedDB cursor failed'));
  });
}

function createHashCache() {
  let db: Promise<IDBDatabase | null> | null = null;
  const reads: Array<{ key: string; resolve: (sha256: string | undefined) => void }> = [];
  const writes = new Map<string, string>();
  let flushing: ReturnType<typeof setTimeout> | undefined;

  const opened = () => (db ??= open().then(async (d) => {
    await prune(d).catch(() => undefined);
    return d;
  }, () => null));

  async function flush() {
    flushing = undefined;
    // A bounded share per transaction: the answers of one transaction come back in one task of the page's
    // thread (10,000 lookups in one took 82 ms); the rest go in the next flush, a task of its own.
    const batch = reads.splice(0, PER_TRANSACTION);
    const toWrite: Array<[string, string]> = [];
    for (const entry of writes) {
      if (toWrite.length === PER_TRANSACTION) break;
      toWrite.push(entry);
    }
    for (const [key] of toWrite) writes.delete(key);
    if (reads.length > 0 || writes.size > 0) schedule();
    const d = await opened();
    if (!d) {
      batch.forEach((r) => r.resolve(undefined));
      return;
    }
    try {
      const tx = d.transaction(STORE, 'readwrite');
      const store = tx.objectStore(STORE);
      const now = Date.now();
      // A failed or aborted transaction answers what it had not answered yet as unknown.
      tx.onabort = tx.onerror = () => batch.forEach((r) => r.resolve(undefined));
      for (const [key, sha256] of toWrite) store.put({ sha256, usedAt: now } satisfies Entry, key);
      for (const r of batch) {
        const get = store.get(r.key);
        get.onsuccess = () => {
          const entry = get.result as Entry | undefined;
          r.resolve(entry?.sha256);
          // A file asked for again is used: it stays past the prune.
          if (entry) store.put({ sha256: entry.sha256, usedAt: now } satisfies Entry, r.key);
        };
        get.onerror = () => r.resolve(undefined);
      }
    } catch {
      batch.forEach((r) => r.resolve(undefined));
    }
  }

  const schedule = () => {
    flushing ??= setTimeout(() => void flush(), 0);
  };

  return {
    /** The sha256 remembered for this key, or undefined. */
    lookup(key: string): Promise<string | undefined> {
      return new Promise((resolve) => {
        reads.push({ key, resolve });
        schedule();
      });
    },
    /** Remembers the sha256 of the file of this key. */
    remember(key: string, sha256: string): void {
      writes.set(key, sha256);
      schedule();
    },
  };
}

let shared: ReturnType<typeof createHashCache> | null = null;
/** The page's hash cache. */
export const hashCache = () => (shared ??= createHashCache());
