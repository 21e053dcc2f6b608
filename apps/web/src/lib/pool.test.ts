import { describe, expect, it } from 'vitest';
import { mapPooled } from './pool.ts';

describe('mapPooled', () => {
  it('runs at most `limit` at once and answers in the items’ order, with or without a task each', async () => {
    for (const taskEach of [false, true]) {
      let running = 0;
      let most = 0;
      const release: Array<() => void> = [];
      const result = mapPooled([5, 1, 4, 2, 3], 2, async (n) => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((r) => release.push(r));
        running--;
        return n * 10;
      }, { taskEach });
      // Let each waiting call go once it has started, until all five have run.
      for (let released = 0; released < 5; released++) {
        while (release.length === 0) await new Promise((r) => setTimeout(r, 0));
        release.shift()!();
      }
      expect(await result).toEqual([50, 10, 40, 20, 30]);
      expect(most).toBe(2);
    }
  });
});
