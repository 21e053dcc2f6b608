/**
 * The chunked uploader (../shared/spec/product-spec.md §9, ../shared/spec/decisions.md §3): files are cut with `Blob.slice` into
 * LIMITS.chunkSize pieces and sent to POST /api/files/updateFile; it writes progress to the
 * upload store and tells its owner when a file is settled (done or failed).
 *
 * Keep in mind:
 * - at most REQUESTS_AT_ONCE chunk requests are in flight, shared by at most FILES_AT_ONCE files
 *   being sent, each with at most CHUNKS_PER_FILE chunks in flight; the rest wait in a first-in,
 *   first-out queue. There are more files than a file's share of the requests so that the next
 *   file's first chunk goes out while a file's last chunk is still being completed by the server
 *   (its type check and metadata): with a fixed pair of requests per file, that request's partner
 *   sat idle meanwhile;
 * - a request slot is held for a try only, not over the pause before the next one;
 * - a chunk is retried at most LIMITS.chunkRetries times, after a growing pause, and only when a
 *   retry can help (no answer, 5xx, 408, 429); a refusal (4xx) fails the file at once with the
 *   server's message. The store counts the pauses under way, so the page can say it is retrying;
 * - the indexes of acknowledged chunks are remembered per file, so `retry` sends only the rest;
 *   resending a chunk is harmless, so nothing is lost when an answer was the only thing missing;
 * - the server answers message.status 300 (with the stored path and metadata) for the chunk that
 *   completed the file; when every chunk is acknowledged and no 300 came (the completing answer
 *   was lost), one more chunk is sent: after completion any chunk is answered 300. Answered 200
 *   again, the server lost the record of a chunk it acknowledged (its database restarted: a chunk's
 *   record commits without waiting for its disk, see the server's services/uploads.ts): the file's
 *   chunks the server holds are asked (storedChunks) and the rest sent once more;
 * - progress counts bytes as they are sent (each request's upload progress), not chunks as they
 *   are answered; a try that fails gives its bytes back. Progress goes to the store through one
 *   batcher, once per frame for every file together; a file's settled state is written at once
 *   and drops its pending progress;
 * - `cancel` aborts the requests in flight and forgets the files; nothing is reported for them;
 * - a 401 (the login ran out mid-batch: the page goes to the login) is no refusal of the file: it fails with
 *   MSG.uploadLoginEnded and 重试, and the files not started yet fail the same way unsent (through a proxy each was a
 *   whole chunk sent to be refused) until the next `add` or `retry`, which the customer makes logged in again.
 */
import { LIMITS } from '@portal/contract/enums';
import { MSG } from '@portal/contract/messages';
import { isApiError } from '../../lib/http.ts';
import type { ChunkDone } from '@portal/contract/api';
import { sendChunk, type ChunkFields } from './api/update-file.ts';
import { storedChunks } from './api/stored-chunks.ts';
import { serverAnswers } from './api/health.ts';
import { extensionOf } from './lib/pick.ts';
import { bytesSent, createBatcher } from './lib/progress.ts';
import type { Batch } from '../batch/index.ts';
import type { Linker } from '../dedupe/index.ts';

/** Six: what a browser opens to one host over HTTP/1.1; more would queue and hold up the page's other calls. */
const REQUESTS_AT_ONCE = 6;
const FILES_AT_ONCE = 4;
const CHUNKS_PER_FILE = 2;
/**
 * Pauses of 3, 9 and 27 s before the spec's 3 retries (../shared/spec/product-spec.md §9): 39 s, long enough for a
 * shop's server to restart under a batch. 0.5, 1 and 2 s let 4 files of 6 fail across a 4.5 s restart (crash probe);
 * 2, 4 and 8 s let the 4 files in flight fail across a killed server's 15 s restart on the embedded database, which
 * then waited for the customer's 重试 (files probe, 2026-12-01). A blip costs 3 s, as before it cost 2.
 */
const FIRST_BACKOFF_MS = 3000;
const BACKOFF_FACTOR = 3;

export interface UploadJob {
  id: string;
  file: Blob;
  /** Let go once the file is sent (PickedFile.holds). */
  holds?: unknown;
  relativePath: string;
  batchId: string;
  /** Number of files of the pick, this file's place in it, and its item's place: sent as fileNum, fileIndex, index. */
  fileNum: number;
  fileIndex: number;
  itemIndex: number;
  /** Chunks the server already holds (a resumed upload): not sent. */
  acknowledged?: readonly number[];
}

interface Running extends Omit<UploadJob, 'acknowledged'> {
  chunkTotal: number;
  acknowledged: Set<number>;
  /** Chunk index → bytes of it sent by the try in flight. */
  inFlight: Map<number, number>;
  controller: AbortController;
}

export type SettledListener = (id: string, outcome: { ok: true; result: ChunkDone } | { ok: false; error: string }) => void;

export function chunkCount(size: number): number {
  return Math.max(1, Math.ceil(size / LIMITS.chunkSize));
}

function isTransient(error: unknown): boolean {
  if (!isApiError(error)) return true;
  return error.status === 0 || error.status >= 500 || error.status === 408 || error.status === 429;
}

/** How often the server is asked whether it answers again while chunks wait to be retried. */
const PROBE_MS = 2000;

/**
 * The pauses before retries. One after no answer at all (the server down or restarting) ends early once the server
 * answers again: asked every PROBE_MS while such a pause lasts, and told by any chunk that gets through. A server back
 * after 15 s otherwise left a chunk whose second retry met it still down waiting out its 27 s (LAN re-walk,
 * 2026-12-01). One after an answer (5xx, 429: a busy server) waits its time. Ended early, a pause still counts as a
 * retry.
 */
function createPauses() {
  const waking = new Set<() => void>();
  let probing = false;
  const wakeAll = () => {
    // Each wake leaves the set; a Set goes on past the entries deleted while it is iterated.
    for (const wake of waking) wake();
  };
  async function probe() {
    if (probing) return;
    probing = true;
    try {
      while (waking.size > 0) {
        await new Promise((r) => setTimeout(r, PROBE_MS));
        if (waking.size > 0 && (await serverAnswers())) wakeAll();
      }
    } finally {
      probing = false;
    }
  }
  return {
    wakeAll,
    sleep(ms: number, signal: AbortSignal, wakeable: boolean): Promise<void> {
      return new Promise((resolve, reject) => {
        if (signal.aborted) {
          reject(signal.reason);
          return;
        }
        const done = () => {
          clearTimeout(timer);
          waking.delete(done);
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const timer = setTimeout(done, ms);
        const onAbort = () => {
          clearTimeout(timer);
          waking.delete(done);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        if (!wakeable) return;
        waking.add(done);
        void probe();
      });
    },
  };
}

/**
 * At most `max` holders at a time; a waiter whose signal aborts stops waiting (rejects with its reason).
 * Not p-limit: a slot is held for one try and released by its holder before the pause that follows,
 * and one file's waiters leave the queue when that file is cancelled; p-limit holds a slot for a
 * whole function and can only clear its queue as a whole.
 */
function createSlots(max: number) {
  let free = max;
  const waiting: Array<{ take: () => void }> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next.take();
    else free++;
  };
  return {
    acquire(signal: AbortSignal): Promise<() => void> {
      if (signal.aborted) return Promise.reject(signal.reason);
      let released = false;
      const once = () => {
        if (released) return;
        released = true;
        release();
      };
      if (free > 0) {
        free--;
        return Promise.resolve(once);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          take: () => {
            signal.removeEventListener('abort', onAbort);
            resolve(once);
          },
        };
        const onAbort = () => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.push(waiter);
      });
    },
  };
}

/** An uploader that writes its files' progress and state into `uploads` (the page's batch). */
/**
 * `linker` (features/dedupe): asked before a file's first chunk whether the hub already stores its
 * bytes; a file it links is done without a byte sent.
 */
export function createUploader(uploads: Pick<Batch, 'patchUploadFile' | 'setUploadBytes' | 'countRetryPause'>, onSettled: SettledListener, linker?: Linker) {
  const { patchUploadFile, setUploadBytes, countRetryPause } = uploads;
  const jobs = new Map<string, Running>();
  const requests = createSlots(REQUESTS_AT_ONCE);
  const queue: string[] = [];
  const sending = new Set<string>();
  const progress = createBatcher<number>(setUploadBytes);
  const pauses = createPauses();
  /** A chunk was answered 401: the login ran out, and nothing more is sent until the next add or retry. */
  let loggedOut = false;

  function reportBytes(job: Running) {
    progress.set(job.id, bytesSent(job.file.size, LIMITS.chunkSize, job.acknowledged, job.inFlight));
  }

  function fieldsOf(job: Running, chunkIndex: number): ChunkFields {
    return {
      identifier: job.id,
      chunkIndex,
      chunkTotal: job.chunkTotal,
      size: job.file.size,
      filePath: job.relativePath,
      ext: extensionOf(job.relativePath),
      fileNum: job.fileNum,
      fileIndex: job.fileIndex,
      index: job.itemIndex,
      acceptFolder: job.relativePath.includes('/'),
      folderId: job.batchId,
    };
  }

  async function sendWithRetry(job: Running, chunkIndex: number) {
    const start = (chunkIndex - 1) * LIMITS.chunkSize;
    const blob = job.file.slice(start, Math.min(start + LIMITS.chunkSize, job.file.size));
    const name = job.relativePath.slice(job.relativePath.lastIndexOf('/') + 1);
    for (let attempt = 0; ; attempt++) {
      let noAnswer = false;
      const release = await requests.acquire(job.controller.signal);
      const onProgress = (bytes: number) => {
        job.inFlight.set(chunkIndex, bytes);
        reportBytes(job);
      };
      try {
        const answer = await sendChunk(fieldsOf(job, chunkIndex), blob, name, job.controller.signal, onProgress);
        // The server answers: chunks waiting to be retried need not wait longer.
        pauses.wakeAll();
        return answer;
      } catch (error) {
        if (job.controller.signal.aborted || !isTransient(error) || attempt >= LIMITS.chunkRetries) throw error;
        noAnswer = !isApiError(error) || error.status === 0;
      } finally {
        release();
        job.inFlight.delete(chunkIndex);
        reportBytes(job);
      }
      countRetryPause(1);
      try {
        await pauses.sleep(FIRST_BACKOFF_MS * BACKOFF_FACTOR ** attempt, job.controller.signal, noAnswer);
      } finally {
        countRetryPause(-1);
      }
    }
  }

  async function sendFile(job: Running): Promise<ChunkDone> {
    const sent = await sendUnacknowledged(job);
    if (sent) return sent;
    const again = await sendWithRetry(job, job.chunkTotal);
    if (again.message.status === 300) return again.message;
    const [held] = await storedChunks([{ folderId: job.batchId, filePath: job.relativePath, size: job.file.size, chunkTotal: job.chunkTotal }]);
    if (held?.result) return held.result;
    job.acknowledged = new Set(held?.status === 'receiving' ? held.chunks : []);
    const resent = await sendUnacknowledged(job);
    if (resent) return resent;
    throw new Error('the server did not confirm the file');
  }

  /** Sends the chunks not acknowledged yet, at most CHUNKS_PER_FILE at a time; the completing answer when one came. */
  async function sendUnacknowledged(job: Running): Promise<ChunkDone | undefined> {
    const pending: number[] = [];
    for (let i = 1; i <= job.chunkTotal; i++) if (!job.acknowledged.has(i)) pending.push(i);
    let done: ChunkDone | undefined;
    let failed = false;
    const worker = async () => {
      while (!failed && pending.length > 0) {
        const index = pending.shift() as number;
        try {
          const answer = await sendWithRetry(job, index);
          job.acknowledged.add(index);
          if (answer.message.status === 300) done = answer.message;
          reportBytes(job);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    const results = await Promise.allSettled(Array.from({ length: Math.min(CHUNKS_PER_FILE, pending.length) }, worker));
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (rejected) throw rejected.reason;
    return done;
  }

  async function run(id: string): Promise<void> {
    const job = jobs.get(id);
    if (!job) return;
    if (loggedOut) {
      patchUploadFile(id, { status: 'failed', error: MSG.uploadLoginEnded, refused: false, bytesDone: bytesSent(job.file.size, LIMITS.chunkSize, job.acknowledged, new Map()) });
      onSettled(id, { ok: false, error: MSG.uploadLoginEnded });
      return;
    }
    sending.add(id);
    patchUploadFile(id, { status: 'uploading', error: undefined });
    // A resumed file starts with what the server already holds.
    if (job.acknowledged.size > 0) reportBytes(job);
    try {
      // A file already partly sent (a retry) goes on being sent.
      const linked = linker && job.acknowledged.size === 0 ? await linker.tryLink(job, job.controller.signal) : null;
      if (!jobs.has(id) || job.controller.signal.aborted) return;
      const result = linked ?? (await sendFile(job));
      if (!jobs.has(id)) return;
      job.holds = undefined;
      progress.forget(id);
      patchUploadFile(id, { status: 'done', result, bytesDone: job.file.size });
      onSettled(id, { ok: true, result });
    } catch (error) {
      if (job.controller.signal.aborted || !jobs.has(id)) return;
      // A refusal carries the server's reason; a login that ran out says what to do; anything else is the spec's
      // generic upload failure.
      const ended = isApiError(error) && error.status === 401;
      if (ended) loggedOut = true;
      const refused = isApiError(error) && !isTransient(error) && !ended;
      const text = ended ? MSG.uploadLoginEnded : refused ? error.message : MSG.uploadFailed;
      progress.forget(id);
      patchUploadFile(id, { status: 'failed', error: text, refused, bytesDone: bytesSent(job.file.size, LIMITS.chunkSize, job.acknowledged, new Map()) });
      onSettled(id, { ok: false, error: text });
    } finally {
      sending.delete(id);
      pump();
    }
  }

  function pump() {
    while (sending.size < FILES_AT_ONCE && queue.length > 0) {
      const id = queue.shift() as string;
      if (jobs.has(id)) void run(id);
    }
  }

  return {
    /** Queues files; they start as slots free up. */
    add(newJobs: readonly UploadJob[]): void {
      loggedOut = false;
      for (const job of newJobs) {
        jobs.set(job.id, { ...job, chunkTotal: chunkCount(job.file.size), acknowledged: new Set(job.acknowledged), inFlight: new Map(), controller: new AbortController() });
        queue.push(job.id);
        linker?.prepare(job);
      }
      pump();
    },

    /** Sends failed files again, without the chunks the server already acknowledged. */
    retry(ids: readonly string[]): void {
      loggedOut = false;
      for (const id of ids) {
        const job = jobs.get(id);
        if (!job || sending.has(id) || queue.includes(id)) continue;
        job.controller = new AbortController();
        patchUploadFile(id, { status: 'queued', error: undefined, refused: undefined });
        queue.push(id);
      }
      pump();
    },

    /** The chunks of a file the server acknowledged (features/draft keeps them with an unfinished upload). */
    acknowledgedOf(id: string): number[] {
      return [...(jobs.get(id)?.acknowledged ?? [])];
    },

    /** Stops and forgets files: their item was deleted, or parsed (no File object is kept alive). */
    cancel(ids: readonly string[]): void {
      const doomed = new Set(ids);
      for (const id of doomed) {
        jobs.get(id)?.controller.abort();
        jobs.delete(id);
        progress.forget(id);
      }
      for (let i = queue.length - 1; i >= 0; i--) if (doomed.has(queue[i] as string)) queue.splice(i, 1);
    },
  };
}

export type Uploader = ReturnType<typeof createUploader>;
