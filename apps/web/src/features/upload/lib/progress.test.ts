import { describe, expect, it } from 'vitest';
import { bytesSent, chunkLength, createBatcher } from './progress.ts';

const MB2 = 2_048_000;

describe('bytes sent', () => {
  it('counts the part of a chunk in flight, not only finished chunks', () => {
    // A photo of one chunk, a quarter sent: a quarter, not 0.
    expect(bytesSent(500_000, MB2, new Set(), new Map([[1, 125_000]]))).toBe(125_000);
    // Chunk 1 acknowledged, chunk 2 half sent, chunk 3 (the short last one) not started.
    const size = 2 * MB2 + 1000;
    expect(bytesSent(size, MB2, new Set([1]), new Map([[2, MB2 / 2]]))).toBe(MB2 + MB2 / 2);
  });

  it('never counts a chunk twice nor past its length or the file size', () => {
    const size = MB2 + 1000;
    expect(chunkLength(size, MB2, 2)).toBe(1000);
    // Chunk 1 sent again while acknowledged: counted once; the short chunk 2 reports its whole body.
    expect(bytesSent(size, MB2, new Set([1]), new Map([[1, 10], [2, 5000]]))).toBe(size);
    expect(bytesSent(10, MB2, new Set(), new Map([[1, 11]]))).toBe(10);
  });
});

describe('the progress batcher', () => {
  it('writes the latest value of every key in one call per tick, and forgets a settled key', () => {
    const ticks: Array<() => void> = [];
    const writes: Array<Record<string, number>> = [];
    const batcher = createBatcher<number>((values) => writes.push(Object.fromEntries(values)), (flush) => ticks.push(flush));
    for (let i = 0; i < 2000; i++) for (const bytes of [10, 20, 30]) batcher.set(`f${i}`, bytes);
    batcher.forget('f7');
    expect(ticks).toHaveLength(1);
    ticks.shift()?.();
    expect(writes).toHaveLength(1);
    expect(Object.keys(writes[0] ?? {})).toHaveLength(1999);
    expect(writes[0]?.f0).toBe(30);
    expect(writes[0]?.f7).toBeUndefined();
    // Nothing pending: no write; the next value schedules the next tick.
    batcher.set('f1', 40);
    expect(ticks).toHaveLength(1);
    ticks.shift()?.();
    expect(writes.at(-1)).toEqual({ f1: 40 });
  });
});
