/**
 * Bytes the shop already has are not sent (issue #21 item 2): before a picked file is uploaded, its
 * sha256 (hashed in a Web Worker, lib/hasher.ts) is looked up among the hub's stored files, and a file
 * the hub has is linked into the batch (POST /api/files/linkFile) instead of sent. Keep in mind:
 * - hashing, the lookup and the link start when the files are queued (prepare), ahead of their turn
 *   to be sent: a re-picked folder is linked without waiting for the uploader's file slots, and a
 *   file's answer is usually ready when its turn comes;
 * - a file this browser hashed before (same relative path, size and modification time: lib/hash-cache.ts)
 *   is not hashed again;
 * - the lookups of files that come close together go in one request (knownHashes), so a first pick
 *   of files the hub does not have costs a few requests, not one per file; so do their links
 *   (linkFiles, LINKS_PER_CALL files a call, LINK_CALLS_AT_ONCE calls in flight);
 * - anything that goes wrong (no worker, a failed lookup, a link refused) only means the file is sent:
 *   tryLink never throws;
 * - the server decides: it links only bytes of the caller's own hub whose stored hash it computed.
 */
import type { ChunkDone } from '@portal/contract/api';
import pLimit from 'p-limit';
import { knownHashes } from './api/known-hashes.ts';
import { linkFiles } from './api/link-files.ts';
import { hashCache, hashKeyOf } from './lib/hash-cache.ts';
import { hashFile } from './lib/hasher.ts';

/** Link calls in flight at once, and files a call (the server takes up to LINK_FILES_MAX). */
const LINK_CALLS_AT_ONCE = 2;
const LINKS_PER_CALL = 100;
/** How long a lookup waits for others to join it. */
const ASK_DELAY_MS = 15;
const HASHES_PER_ASK = 1000;

export interface LinkableFile {
  file: Blob;
  /** The upload batch (folderId) and the path as picked: where the linked file is stored. */
  batchId: string;
  relativePath: string;
}

export interface Linker {
  /** Starts hashing the file now. */
  prepare(job: LinkableFile): void;
  /** The stored file when the hub's bytes were linked; null: send the bytes. */
  tryLink(job: LinkableFile, signal?: AbortSignal): Promise<ChunkDone | null>;
}

const keyOf = (job: LinkableFile) => `${job.batchId}\n${job.relativePath}`;

type LinkBody = { folderId: string; filePath: string; size: number; sha256: string };

/** The file's sha256: remembered by this browser, or hashed (and remembered). */
async function sha256Of(job: LinkableFile): Promise<string> {
  const key = hashKeyOf(job.file, job.relativePath);
  const cached = key ? await hashCache().lookup(key) : undefined;
  if (cached) return cached;
  const sha256 = await hashFile(job.file);
  if (key) hashCache().remember(key, sha256);
  return sha256;
}

/** Items that come within ASK_DELAY_MS of each other go to `send` together, `max` at most at a time. */
function gatherer<T>(max: number, send: (batch: T[]) => void): (item: T) => void {
  const waiting: T[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  function flush() {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting.splice(0, max);
    if (waiting.length > 0) timer = setTimeout(flush, 0);
    if (batch.length > 0) send(batch);
  }
  return (item) => {
    waiting.push(item);
    if (waiting.length >= max) flush();
    else timer ??= setTimeout(flush, ASK_DELAY_MS);
  };
}

export function createLinker(): Linker {
  const linking = pLimit(LINK_CALLS_AT_ONCE);
  /** Each queued file's link, started by prepare; taken (and forgotten) by tryLink. */
  const started = new Map<string, { file: Blob; link: Promise<ChunkDone | null> }>();

  const ask = gatherer<{ sha256: string; resolve: (known: boolean) => void }>(HASHES_PER_ASK, (batch) => {
    knownHashes([...new Set(batch.map((w) => w.sha256))])
      .then((known) => batch.forEach((w) => w.resolve(known.has(w.sha256))))
      .catch(() => batch.forEach((w) => w.resolve(false)));
  });
  const isKnown = (sha256: string) => new Promise<boolean>((resolve) => ask({ sha256, resolve }));

  const sendLink = gatherer<{ body: LinkBody; signal: AbortSignal | undefined; resolve: (done: ChunkDone | null) => void }>(LINKS_PER_CALL, (batch) => {
    void linking(async () => {
      // A file cancelled while it waited is not linked.
      const live = batch.filter((l) => {
        if (l.signal?.aborted) l.resolve(null);
        return !l.signal?.aborted;
      });
      if (live.length === 0) return;
      try {
        const answers = await linkFiles(live.map((l) => l.body));
        live.forEach((l, i) => l.resolve(answers[i] ?? null));
      } catch {
        live.forEach((l) => l.resolve(null));
      }
    });
  });
  const linkOne = (body: LinkBody, signal?: AbortSignal) => new Promise<ChunkDone | null>((resolve) => sendLink({ body, signal, resolve }));

  async function link(job: LinkableFile, signal?: AbortSignal): Promise<ChunkDone | null> {
    try {
      const sha256 = await sha256Of(job);
      if (signal?.aborted || !(await isKnown(sha256))) return null;
      return await linkOne({ folderId: job.batchId, filePath: job.relativePath, size: job.file.size, sha256 }, signal);
    } catch {
      return null;
    }
  }

  return {
    prepare(job) {
      started.set(keyOf(job), { file: job.file, link: link(job) });
    },
    async tryLink(job, signal) {
      const key = keyOf(job);
      const early = started.get(key);
      started.delete(key);
      // A file cancelled meanwhile gets nothing; one prepared for other bytes under this name is linked anew.
      if (signal?.aborted) return null;
      return early && early.file === job.file ? early.link : link(job, signal);
    },
  };
}
