import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { serverFile } from '../paths.ts';

/**
 * pdf.js runs only here, on worker threads (pdfjs.worker.mjs, one file, loaded the same way for every
 * task), never on the server's own thread: it parses and draws on the thread that calls it, and on
 * damaged files it leaves promises of its own rejected, which would end the server's process.
 *
 * Two pools of that one worker file, so that a flood of previews never holds an upload's check:
 * - `open` (pdf.ts): one thread; opening takes milliseconds.
 * - `render` (preview.ts): RENDER_THREADS threads (the preview service never asks for more at once),
 *   below the rest of the server in priority: pages wait for the processor, requests do not.
 * A task over its time has its thread ended (piscina ends the thread of an aborted task; the pool starts
 * another). Each thread has a bounded heap: a file whose parsing needs more ends its thread, not the
 * server. Idle threads end after a while and give their memory back; piscina unrefs idle threads, so the
 * pools never keep a process alive, and closePdfJs (the app's close) lets running and waiting tasks finish.
 */
const RENDER_THREADS = 2;
/** A worker's JavaScript heap. */
const HEAP_MB = 256;
/** How much lower than the rest of the server a render thread runs (nice(2), Linux: per thread). */
const RENDER_NICE = 10;
const IDLE_MS = 30_000;

type Task = 'open' | 'render';
/** A pool and its tasks not yet answered (waiting for a thread or running). */
type Pool = { piscina: Piscina; unanswered: Set<Promise<unknown>> };
const pools = new Map<Task, Pool>();

function pool(task: Task): Pool {
  let p = pools.get(task);
  if (!p) {
    const piscina = new Piscina({
      filename: pathToFileURL(serverFile('src/media/pdfjs.worker.mjs')).href,
      name: task,
      // Without the server's tsx loader where it has one (tests, dev; see the worker's head).
      execArgv: [],
      minThreads: 0,
      maxThreads: task === 'render' ? RENDER_THREADS : 1,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
      ...(task === 'render' ? { niceIncrement: RENDER_NICE } : {}),
    });
    p = { piscina, unanswered: new Set() };
    pools.set(task, p);
  }
  return p;
}

/** What a task answered, or that it did not: over its time, or its thread died (out of heap). */
type Ended = { outcome: 'timeout' } | { outcome: 'thread-died'; cause: unknown };

async function run<T>(task: Task, input: object, timeoutMs: number, transferList?: ArrayBuffer[]): Promise<T | Ended> {
  const signal = AbortSignal.timeout(timeoutMs);
  const { piscina, unanswered } = pool(task);
  const answer = piscina.run(input, { signal, ...(transferList ? { transferList } : {}) }) as Promise<T>;
  unanswered.add(answer);
  try {
    return await answer;
  } catch (cause) {
    return signal.aborted ? { outcome: 'timeout' } : { outcome: 'thread-died', cause };
  } finally {
    unanswered.delete(answer);
  }
}

type NoDocument = { outcome: 'encrypted' } | { outcome: 'no-document'; reason: string };
export type OpenAnswer = { outcome: 'opened'; encrypted: boolean } | NoDocument | Ended;
export type RenderAnswer = { outcome: 'rendered'; jpeg: Uint8Array } | { outcome: 'not-rendered' } | NoDocument | Ended;

/**
 * Opens the file's bytes with pdf.js: PasswordException → 'encrypted'; a file it cannot open →
 * 'no-document'. The time counts from the call, the wait for the thread included.
 */
export function openPdf(bytes: Uint8Array, timeoutMs: number): Promise<OpenAnswer> {
  const copy = new Uint8Array(bytes);
  return run<OpenAnswer>('open', { data: copy }, timeoutMs, [copy.buffer]);
}

export interface RenderRequest {
  pageNumber: number;
  maxSide: number;
  quality: number;
  /** Images inside the page larger than this (pixels) are left out. */
  maxImagePixels: number;
  timeoutMs: number;
}

/**
 * One page to a JPEG. The file is read in ranges (the cross-reference data and what the page needs),
 * and the thread keeps the document a short while for the same file's next pages (pdfjs.worker.mjs).
 */
export function renderPdfPage(file: string, r: RenderRequest): Promise<RenderAnswer> {
  const { timeoutMs, ...rest } = r;
  return run<RenderAnswer>('render', { url: pathToFileURL(file).href, ...rest }, timeoutMs);
}

/**
 * Closes the pools once their running and waiting tasks are answered (each within its time: piscina's
 * close would drop the tasks still waiting for a thread, and a page dropped gets a placeholder). A task
 * asked for afterwards starts a new pool: several apps may share one process (the tests).
 */
export async function closePdfJs(): Promise<void> {
  const closing = [...pools.values()];
  pools.clear();
  await Promise.all(
    closing.map(async ({ piscina, unanswered }) => {
      await Promise.allSettled(unanswered);
      await piscina.close();
    }),
  );
}
