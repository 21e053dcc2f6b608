/**
 * The shape every benchmark shares. A benchmark measures a figure and, in the same run and on the
 * same machine, the baseline it is compared with; the ratio is what the goal is about.
 */

export interface Quantity {
  value: number;
  unit: string;
}

/** Bounds a measurement must stay within; a row holds when every bound it states holds. */
export interface Goal {
  /** ratio ≥ ratioMin (use for "faster is bigger" figures such as MB/s). */
  ratioMin?: number;
  /** ratio ≤ ratioMax (use for times: figure time / baseline time). */
  ratioMax?: number;
  /** figure.value ≤ valueMax, in the figure's unit. */
  valueMax?: number;
  /** figure.value ≥ valueMin, in the figure's unit. */
  valueMin?: number;
}

export interface Measurement {
  /** What this row measures, when a benchmark prints more than one (e.g. 'peak RSS'). */
  metric?: string;
  /** This row's goal; the benchmark's goal when left out. */
  goal?: Goal;
  figure: Quantity;
  baseline: Quantity;
  /** Always figure.value / baseline.value, so that every ratio in the table reads the same way. */
  ratio: number;
  /** Details printed under the table and kept in the JSON (sizes, counts, split times). */
  extra?: Record<string, number | string>;
}

export interface BenchContext {
  /** BENCH_QUICK=1: smaller data, to smoke-test the harness. */
  quick: boolean;
  /** The repository root (absolute, no trailing slash). */
  repoRoot: string;
  /** A fresh temporary directory, removed when the run ends (even when the benchmark crashes). */
  tmpDir(prefix: string): Promise<string>;
  /** A progress line on stderr; the table goes to stdout. */
  log(message: string): void;
  /** Registers clean-up (a server to stop, a child to kill); run in reverse order after the benchmark. */
  defer(fn: () => Promise<void> | void): void;
}

export interface Benchmark {
  name: string;
  /** One line: what is measured against what. */
  description: string;
  goal: Goal;
  run(ctx: BenchContext): Promise<Measurement | Measurement[]>;
}

export const ratioOf = (figure: Quantity, baseline: Quantity): number => figure.value / baseline.value;
