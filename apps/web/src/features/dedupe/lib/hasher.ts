/**
 * Hashes files in Web Workers (hash.worker.ts), a few at once; each worker takes one file at a time.
 * Keep in mind:
 * - the workers are made on the first hash and stay for the page: a pick of 2,000 photos is 2,000
 *   messages, not 2,000 workers;
 * - a file is hashed once per Blob (a retry or a second ask answers the same promise);
 * - where a worker cannot be made, hashFile rejects: the caller then simply sends the bytes.
 */
import type { HashAnswer, HashRequest } from './hash.worker.ts';

/** Two: hashing is bound by the CPU, and the page's own thread only posts messages meanwhile. */
const WORKERS = Math.max(1, Math.min(2, globalThis.navigator?.hardwareConcurrency ?? 2));

type Pending = { resolve: (sha256: string) => void; reject: (error: Error) => void };

function createHasher() {
  let workers: Array<{ worker: Worker; busy: number }> | null = null;
  const pending = new Map<number, Pending>();
  const done = new WeakMap<Blob, Promise<string>>();
  let nextId = 1;

  function start() {
    workers = Array.from({ length: WORKERS }, () => {
      const worker = new Worker(new URL('./hash.worker.ts', import.meta.url), { type: 'module' });
      const entry = { worker, busy: 0 };
      worker.onmessage = (event: MessageEvent<HashAnswer>) => {
        entry.busy--;
        const p = pending.get(event.data.id);
        pending.delete(event.data.id);
        if (!p) return;
        if ('sha256' in event.data) p.resolve(event.data.sha256);
        else p.reject(new Error(event.data.error));
      };
      worker.onerror = () => {
        // A worker that cannot run (no WebAssembly allowed, say): every file waiting fails, and is sent.
        for (const [id, p] of pending) {
          pending.delete(id);
          p.reject(new Error('hash worker failed'));
        }
      };
      return entry;
    });
    return workers;
  }

  return {
    hashFile(file: Blob): Promise<string> {
      const known = done.get(file);
      if (known) return known;
      const promise = new Promise<string>((resolve, reject) => {
        if (typeof Worker === 'undefined') {
          reject(new Error('no Web Worker'));
          return;
        }
        const pool = workers ?? start();
        const least = pool.reduce((a, b) => (b.busy < a.busy ? b : a));
        const id = nextId++;
        pending.set(id, { resolve, reject });
        least.busy++;
        least.worker.postMessage({ id, file } satisfies HashRequest);
      });
      done.set(file, promise);
      return promise;
    },
  };
}

let shared: ReturnType<typeof createHasher> | null = null;
/** The page's hasher. */
export const hashFile = (file: Blob): Promise<string> => (shared ??= createHasher()).hashFile(file);
