import { performance } from 'node:perf_hooks';

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds one call takes, and what it returned. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export interface Paired {
  /** Median milliseconds of the measured code and of its baseline. */
  figureMs: number;
  baselineMs: number;
  figureRuns: number[];
  baselineRuns: number[];
}

/**
 * Runs the measured code and its baseline `runs` times each, alternating (baseline first), after
 * `warmup` untimed rounds of both, and answers the medians. Alternating spreads any drift of the
 * machine (page cache, CPU clock, a neighbour's load) over both sides instead of one.
 */
export async function pairedMedians(
  o: { runs: number; warmup?: number; figure: () => Promise<unknown>; baseline: () => Promise<unknown> },
): Promise<Paired> {
  for (let i = 0; i < (o.warmup ?? 0); i++) {
    await o.baseline();
    await o.figure();
  }
  const figureRuns: number[] = [];
  const baselineRuns: number[] = [];
  for (let i = 0; i < o.runs; i++) {
    baselineRuns.push((await timed(o.baseline)).ms);
    figureRuns.push((await timed(o.figure)).ms);
  }
  return { figureMs: median(figureRuns), baselineMs: median(baselineRuns), figureRuns, baselineRuns };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
