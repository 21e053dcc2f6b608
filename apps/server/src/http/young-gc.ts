import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = (options: { type: 'minor'; execution: 'async' }) => void;

/**
 * Runs a young-generation collection (a scavenge) after every `everyBytes` of request bodies, for
 * the upload route. Keep in mind why (measured, docs/decisions.md, Measured):
 * - every read of a request body is a new 64 KB buffer, and V8 counts the array-buffer memory made
 *   since the last mark-compact against the old generation's limit;
 * - left to itself V8 scavenges them only every 32 MB of such buffers, or when the young generation
 *   fills; at hundreds of MB a second that sawtooth was higher than the 11-20 MB of slack above the
 *   server's heap, and a mark-compact at its low point set off the next: storms of one mark-compact
 *   every 50 ms that halved upload throughput;
 * - a scavenge every few megabytes keeps the sawtooth under the slack, for well under a millisecond each.
 * Answers a no-op where the engine refuses to give the collector.
 */
export function youngCollector(everyBytes: number): (bytes: number) => void {
  const gc = exposedCollector();
  if (!gc) return () => {};
  let since = 0;
  return (bytes) => {
    since += bytes;
    if (since < everyBytes) return;
    since = 0;
    gc({ type: 'minor', execution: 'async' });
  };
}

/** V8's `gc()`, taken from a fresh context once the flag that exposes it is on; null where refused. */
function exposedCollector(): Collect | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    return typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    return null;
  }
}
