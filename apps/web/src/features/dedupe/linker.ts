/**
 * Bytes the shop already has are not sent (issue #21 item 2): before a picked file is uploaded, its
 * sha256 (hashed in a Web Worker, lib/hasher.ts) is looked up among the hub's stored files, and a file
 * the hub has is linked into the batch (POST /api/files/linkFile) instead of sent. Keep in mind:
 * - hashing, the lookup and the link start when the files are queued (prepare), ahead of their turn
 *   to be sent and a few links at a time of their own: a re-picked folder is linked without waiting
 *   for the uploader's file slots, and a file's answer is usually ready when its turn comes;
 * - the lookups of files that come close together go in one request (knownHashes), so a first pick
 *   of files the hub does not have costs a few requests, not one per file;
 * - anything that goes wrong (no worker, a failed lookup, a link refused) only means the file is sent:
 *   tryLink never throws;
 * - the server decides: it links only bytes of the caller's own hub whose stored hash it computed.
 */
import type { ChunkDone } from '@portal/contract/api';
import pLimit from 'p-limit';
import { knownHashes } from './api/known-hashes.ts';
import { linkFile } from './api/link-file.ts';
import { hashFile } from './lib/hasher.ts';

/** Links in flight at once. */
const LINKS_AT_ONCE = 4;
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

export function createLinker(): Linker {
  const linking = pLimit(LINKS_AT_ONCE);
  /** Each queued file's link, started by prepare; taken (and forgotten) by tryLink. */
  const started = new Map<string, { file: Blob; link: Promise<ChunkDone | null> }>();
  let waiting: Array<{ sha256: string; resolve: (known: boolean) => void }> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  function ask() {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting.splice(0, HASHES_PER_ASK);
    if (waiting.length > 0) timer = setTimeout(ask, 0);
    if (batch.length === 0) return;
    knownHashes([...new Set(batch.map((w) => w.sha256))])
      .then((known) => batch.forEach((w) => w.resolve(known.has(w.sha256))))
      .catch(() => batch.forEach((w) => w.resolve(false)));
  }

  function isKnown(sha256: string): Promise<boolean> {
    return new Promise((resolve) => {
      waiting.push({ sha256, resolve });
      if (waiting.length >= HASHES_PER_ASK) ask();
      else timer ??= setTimeout(ask, ASK_DELAY_MS);
    });
  }

  async function link(job: LinkableFile, signal?: AbortSignal): Promise<ChunkDone | null> {
    try {
      const sha256 = await hashFile(job.file);
      if (signal?.aborted || !(await isKnown(sha256))) return null;
      return await linking(() => (signal?.aborted ? null : linkFile({ folderId: job.batchId, filePath: job.relativePath, size: job.file.size, sha256 }, signal)));
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
