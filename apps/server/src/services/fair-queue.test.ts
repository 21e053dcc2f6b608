import { describe, expect, it } from 'vitest';
import { createFairQueue } from './fair-queue.ts';

/** A task that ends when the test says so, and notes when it started. */
function gate(started: string[], name: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { fn: async () => { started.push(name); await opened; return name; }, open };
}

describe('createFairQueue', () => {
  it('runs at most `concurrency` tasks and serves the keys in turn, each in its own order', async () => {
    const q = createFairQueue(2);
    const started: string[] = [];
    const a = ['a1', 'a2', 'a3', 'a4', 'a5'].map((n) => gate(started, n));
    const b = ['b1', 'b2'].map((n) => gate(started, n));
    const done = [...a.map((g) => q.run('A', g.fn)), ...b.map((g) => q.run('B', g.fn))];
    expect(started).toEqual(['a1', 'a2']);
    expect(q.waiting('A')).toBe(3);
    expect(q.waiting('B')).toBe(2);
    for (const g of [...a, ...b]) {
      g.open();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(done)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'b1', 'b2']);
    // B waited for one turn of A, not for A's whole queue.
    expect(started).toEqual(['a1', 'a2', 'a3', 'b1', 'a4', 'b2', 'a5']);
    expect(q.running).toBe(0);
  });

  it('takes a task whose signal aborts before it starts out of its queue', async () => {
    const q = createFairQueue(1);
    const started: string[] = [];
    const first = gate(started, 'first');
    const second = gate(started, 'second');
    const third = gate(started, 'third');
    const stop = new AbortController();
    const p1 = q.run('A', first.fn);
    const p2 = q.run('A', second.fn, stop.signal);
    const p3 = q.run('B', third.fn);
    stop.abort(new Error('gone'));
    await expect(p2).rejects.toThrow('gone');
    expect(q.waiting()).toBe(1);
    first.open();
    third.open();
    expect(await Promise.all([p1, p3])).toEqual(['first', 'third']);
    expect(started).toEqual(['first', 'third']);
  });
});
