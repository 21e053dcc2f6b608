/**
 * Upload progress as bytes sent, not as chunks finished: a file of one chunk (most photos) would
 * otherwise sit at 0% and jump to 100% when the server answers. Pure functions and a small
 * batcher, so the uploader can count every progress event of every request and still write the
 * upload store once per frame for all files together.
 */

/** Length of the chunk `index` (1-based) of a file of `size` bytes cut into `chunkSize` pieces. */
export function chunkLength(size: number, chunkSize: number, index: number): number {
  return Math.max(0, Math.min(chunkSize, size - (index - 1) * chunkSize));
}

/**
 * The bytes of a file counted as sent: every acknowledged chunk whole, plus what has gone of each
 * chunk in flight (`inFlight`: chunk index → its bytes sent so far). A chunk both acknowledged and
 * in flight (sent again) counts once; a chunk's count never passes its length, nor the file's size.
 */
export function bytesSent(size: number, chunkSize: number, acknowledged: ReadonlySet<number>, inFlight: ReadonlyMap<number, number>): number {
  let bytes = 0;
  for (const i of acknowledged) bytes += chunkLength(size, chunkSize, i);
  for (const [i, sent] of inFlight) {
    if (!acknowledged.has(i)) bytes += Math.max(0, Math.min(sent, chunkLength(size, chunkSize, i)));
  }
  return Math.min(size, bytes);
}

export type Schedule = (flush: () => void) => void;

/** One flush per animation frame; a timer where there are no frames (a background tab, tests). */
export const nextFrame: Schedule = (flush) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    flush();
  };
  setTimeout(once, 100);
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(once);
};

/**
 * Collects the latest value per key and hands them all to `write` in one call, once per `schedule`
 * tick: two thousand files' progress events between two frames are one write of the store.
 * `forget` drops a key's pending value (its file settled: the settled value is written at once,
 * and a late progress value must not overwrite it).
 */
export function createBatcher<V>(write: (values: ReadonlyMap<string, V>) => void, schedule: Schedule = nextFrame) {
  let pending = new Map<string, V>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.size === 0) return;
    const values = pending;
    pending = new Map();
    write(values);
  };
  return {
    set(key: string, value: V): void {
      pending.set(key, value);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    forget(key: string): void {
      pending.delete(key);
    },
  };
}
