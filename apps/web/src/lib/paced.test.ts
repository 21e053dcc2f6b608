import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pacer, PACE_MS } from './paced.ts';

describe('paced', () => {
  let paced: ReturnType<typeof pacer>;
  beforeEach(() => {
    vi.useFakeTimers();
    paced = pacer();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  /** Animation frames every 16 ms, driven by the fake clock. */
  function frames() {
    const callbacks = new Map<number, () => void>();
    let id = 0;
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => {
      callbacks.set(++id, cb);
      return id;
    });
    vi.stubGlobal('cancelAnimationFrame', (n: number) => callbacks.delete(n));
    setInterval(() => {
      const due = [...callbacks.values()];
      callbacks.clear();
      for (const cb of due) cb();
    }, 16);
  }

  it('draws the first request after a quiet spell at the next frame, and a burst once', () => {
    frames();
    const flush = vi.fn();
    const request = paced(flush);
    for (let i = 0; i < 50; i++) request();
    vi.advanceTimersByTime(16);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('holds the next flush until PACE_MS after the last, at a frame', () => {
    frames();
    const flush = vi.fn();
    const request = paced(flush);
    request();
    vi.advanceTimersByTime(16);
    const first = performance.now();
    request();
    vi.advanceTimersByTime(PACE_MS - 20);
    expect(flush).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(40);
    expect(flush).toHaveBeenCalledTimes(2);
    // Ten a second at most however many requests come.
    const stop = setInterval(request, 1);
    vi.advanceTimersByTime(1000);
    clearInterval(stop);
    expect(flush.mock.calls.length - 2).toBeLessThanOrEqual(1000 / PACE_MS);
    expect(flush.mock.calls.length - 2).toBeGreaterThanOrEqual(1000 / PACE_MS - 2);
    expect(performance.now() - first).toBeGreaterThanOrEqual(1000);
  });

  it('runs every flush requested of the clock in one task, each once', () => {
    frames();
    const order: string[] = [];
    const a = paced(() => order.push('a'));
    const b = paced(() => order.push('b'));
    a();
    vi.advanceTimersByTime(16);
    expect(order).toEqual(['a']);
    // b asks first, then a, within one pace: both wait for the same frame.
    b();
    a();
    b();
    vi.advanceTimersByTime(PACE_MS - 20);
    expect(order).toEqual(['a']);
    vi.advanceTimersByTime(40);
    expect(order).toEqual(['a', 'b', 'a']);
  });

  it('runs a flush asked for by a flush in the same task', () => {
    frames();
    const order: string[] = [];
    const b = paced(() => order.push('b'));
    const a = paced(() => {
      order.push('a');
      b();
    });
    a();
    vi.advanceTimersByTime(16);
    expect(order).toEqual(['a', 'b']);
    vi.advanceTimersByTime(PACE_MS * 3);
    expect(order).toEqual(['a', 'b']);
  });

  it('flushes by its timer where no frame runs (a background tab)', () => {
    vi.stubGlobal('requestAnimationFrame', () => 1);
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const flush = vi.fn();
    const request = paced(flush);
    request();
    vi.advanceTimersByTime(PACE_MS - 1);
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(flush).toHaveBeenCalledTimes(1);
  });
});
