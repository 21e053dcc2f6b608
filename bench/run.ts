/**
 * `npm run bench [-- name…]`: runs the benchmarks of benchmarks/*.ts in sequence (or the named
 * ones), prints one table of figure, baseline, ratio, goal and whether it held, and writes
 * results/<timestamp>.json and results/latest.json. BENCH_QUICK=1 uses smaller data.
 *
 * Exit code: 0 when every benchmark ran, held or not; 1 when one crashed; 2 on an unknown name.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { goalText, held, num, table } from './lib/format.ts';
import { machine, machineLine, writeRecord, type Row } from './lib/results.ts';
import type { BenchContext, Benchmark, Measurement } from './lib/types.ts';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '..');
const quick = ['1', 'true', 'yes'].includes((process.env.BENCH_QUICK ?? '').toLowerCase());

async function discover(): Promise<Benchmark[]> {
  const dir = path.join(benchDir, 'benchmarks');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts')).sort();
  const found: Benchmark[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { default?: Benchmark };
    const b = mod.default;
    if (!b || typeof b.run !== 'function' || !b.name) throw new Error(`benchmarks/${f} must export default a Benchmark {name, description, goal, run}`);
    found.push(b);
  }
  return found;
}

const started = performance.now();
const log = (message: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);

async function runOne(b: Benchmark): Promise<Row[]> {
  const cleanups: Array<() => Promise<void> | void> = [];
  const ctx: BenchContext = {
    quick,
    repoRoot,
    log: (m) => log(`${b.name}: ${m}`),
    async tmpDir(prefix) {
      const dir = await mkdtemp(path.join(os.tmpdir(), `portal-bench-${prefix}-`));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return dir;
    },
    defer: (fn) => void cleanups.push(fn),
  };
  const t0 = performance.now();
  let rows: Row[];
  try {
    const out = await b.run(ctx);
    const seconds = (performance.now() - t0) / 1000;
    rows = (Array.isArray(out) ? out : [out]).map((m: Measurement, i) => {
      const goal = m.goal ?? b.goal;
      return { benchmark: b.name, metric: m.metric ?? (i === 0 ? 'main' : `#${i + 1}`), goal, figure: m.figure, baseline: m.baseline,
        ratio: m.ratio, held: held(goal, m), extra: m.extra, seconds: i === 0 ? seconds : 0 };
    });
  } catch (err) {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    log(`${b.name}: CRASHED\n${message}`);
    rows = [{ benchmark: b.name, metric: 'main', goal: b.goal, error: err instanceof Error ? err.message : String(err), seconds: (performance.now() - t0) / 1000 }];
  }
  for (const fn of cleanups.reverse()) {
    try {
      await fn();
    } catch (err) {
      log(`${b.name}: clean-up failed: ${String(err)}`);
    }
  }
  return rows;
}

async function main(): Promise<number> {
  const all = await discover();
  const args = process.argv.slice(2);
  if (args.includes('--list') || args.includes('--help')) {
    for (const b of all) process.stdout.write(`${b.name.padEnd(20)} ${b.description}\n`);
    process.stdout.write('\nnpm run bench [-- name…]   BENCH_QUICK=1 for smaller data\n');
    return 0;
  }
  const unknown = args.filter((a) => !all.some((b) => b.name === a));
  if (unknown.length) {
    process.stderr.write(`unknown benchmark ${unknown.join(', ')}; there are: ${all.map((b) => b.name).join(', ')}\n`);
    return 2;
  }
  const chosen = args.length ? all.filter((b) => args.includes(b.name)) : all;
  const startedAt = new Date().toISOString();
  const m = machine(repoRoot);
  log(`${chosen.length} benchmark(s)${quick ? ', QUICK (smaller data)' : ''} on ${machineLine(m)}`);

  const rows: Row[] = [];
  for (const b of chosen) {
    log(`${b.name}: ${b.description}`);
    const got = await runOne(b);
    rows.push(...got);
    log(`${b.name}: done in ${got[0]?.seconds.toFixed(1)} s`);
  }
  const seconds = (performance.now() - started) / 1000;

  const body = rows.map((r) => {
    const unit = r.figure?.unit ?? '';
    if (r.error) return [r.benchmark, r.metric, '-', '-', '-', goalText(r.goal, unit), 'CRASHED'];
    return [r.benchmark, r.metric, `${num(r.figure!.value)} ${unit}`, `${num(r.baseline!.value)} ${r.baseline!.unit}`, num(r.ratio!),
      goalText(r.goal, unit), r.held ? 'held' : 'NOT HELD'];
  });
  const out: string[] = [
    '',
    `Benchmarks${quick ? ' (QUICK: smaller data, figures not comparable with a full run)' : ''}, ${startedAt}, ${seconds.toFixed(0)} s`,
    `machine: ${machineLine(m)}`,
    'ratio = figure / baseline, both measured in this run on this machine',
    '',
    table(['benchmark', 'metric', 'figure', 'baseline', 'ratio', 'goal', 'result'], body),
    '',
  ];
  for (const r of rows) {
    if (r.error) out.push(`${r.benchmark}: CRASHED: ${r.error}`);
    else if (r.extra) out.push(`${r.benchmark} ${r.metric}: ${Object.entries(r.extra).map(([k, v]) => `${k}=${typeof v === 'number' ? num(v) : v}`).join(', ')}`);
  }
  const notHeld = rows.filter((r) => r.held === false).length;
  const crashed = rows.filter((r) => r.error).length;
  out.push('', `${rows.length - notHeld - crashed} held, ${notHeld} not held, ${crashed} crashed`);
  const file = await writeRecord(path.join(benchDir, 'results'), { startedAt, seconds, quick, benchmarks: chosen.map((b) => b.name), machine: m, rows });
  out.push(`written: ${path.relative(repoRoot, file)} and bench/results/latest.json`, '');
  process.stdout.write(out.join('\n'));
  return crashed ? 1 : 0;
}

// process.exit: a keep-alive socket or a timer left by a benchmark must not keep the run open.
main().then((code) => process.exit(code), (err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
