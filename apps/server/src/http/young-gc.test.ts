import { constants, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { youngCollector } from './young-gc.ts';

/** Counts this process's young-generation collections from now on. */
function countScavenges() {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) count++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { get count() { return count; }, stop: () => observer.disconnect() };
}

/** Waits until `done()` or the time runs out; answers whether it came true. */
async function until(done: () => boolean, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
  return done();
}

describe('youngCollector', () => {
  it('runs a scavenge once the bytes it is told of reach the threshold, and counts from zero again after it', async () => {
    // A threshold this test alone reaches: nothing else here allocates enough to scavenge on its own.
    const note = youngCollector(1_000_000);
    const scavenges = countScavenges();
    try {
      note(400_000);
      note(400_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = scavenges.count;
      note(400_000);
      expect(await until(() => scavenges.count > before)).toBe(true);

      // The count starts again after each collection.
      const after = scavenges.count;
      note(999_999);
      note(1);
      expect(await until(() => scavenges.count > after)).toBe(true);
    } finally {
      scavenges.stop();
    }
  });
});
