/**
 * A batch of JPEGs uploaded to the real server with the web client's chunk protocol, against the
 * same bytes streamed to disk by a bare node:http server (lib/sink-server.ts) with the same request
 * sizes and concurrency. Also the server's peak memory against its memory at rest.
 *
 * Measured twice when a PostgreSQL server answers (lib/postgres.ts): on PGlite, the default the
 * brief's server runs on, and on PostgreSQL, what production runs. PGlite keeps its whole database
 * engine inside the server process, so the memory rows of the two differ by design.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { noiseImage } from '../lib/images.ts';
import { request } from '../lib/http.ts';
import { tempDatabase } from '../lib/postgres.ts';
import { cpuSecondsOf, memoryOf, settledRss } from '../lib/proc.ts';
import { startBenchServer } from '../lib/server.ts';
import { startSink, type Sink } from '../lib/sink.ts';
import { median, timed } from '../lib/timing.ts';
import type { BenchContext, Benchmark, Measurement } from '../lib/types.ts';
import { CHUNK_SIZE, CHUNKS_PER_FILE, FILES_AT_ONCE, chunkOf, sendBatch, uploadToServer, type BatchFile, type RequestTimes } from '../lib/upload.ts';

const MB = 1e6;
/** 1650×1100 noise at quality 100 is ≈ 2.5 MB: 200 of them make the 500 MB batch. */
const IMAGE = { width: 1650, height: 1100 };
const WARMUP_FILES = 3;
const RSS_GOAL_MB = 250;

async function toSink(sink: Sink, file: BatchFile, index: number, times?: number[]): Promise<boolean> {
  const start = performance.now();
  const res = await request(`${sink.url}/upload`, { headers: { 'content-type': 'application/octet-stream' }, body: chunkOf(file.bytes, index) });
  if (res.status !== 200) throw new Error(`the sink answered ${res.status}: ${res.text}`);
  times?.push(performance.now() - start);
  return true;
}

/** One server (one database), its own baseline right before it: two rows, throughput and peak RSS. */
async function measure(ctx: BenchContext, db: string, env: Record<string, string>, files: BatchFile[], rounds: number): Promise<Measurement[]> {
  const totalMb = files.reduce((n, f) => n + f.bytes.length, 0) / MB;
  const server = await startBenchServer(ctx, env);
  const idleMb = await settledRss(server.pid);
  const startupPeakMb = memoryOf(server.pid).peakMb;
  const sinkDir = await ctx.tmpDir('sink');
  const sink = await startSink(ctx, sinkDir);

  // Warm-up: first requests, JIT, the database's first inserts; not timed.
  const warm = files.slice(0, WARMUP_FILES).map((f) => ({ ...f, relativePath: `warmup-${f.relativePath}` }));
  await sendBatch(warm, (f, i) => toSink(sink, f, i));
  await uploadToServer(server, warm, randomUUID());

  // Rounds alternate baseline and server so that drift of the machine touches both alike.
  const baseMs: number[] = [];
  const figMs: number[] = [];
  const baseTimes: number[] = [];
  const times: RequestTimes = { chunk: [], completing: [] };
  let sinkCpu = 0;
  let serverCpu = 0;
  let clientCpu = 0;
  let requests = 0;
  let sinkFiles = (await readdir(sinkDir)).length;
  for (let round = 1; round <= rounds; round++) {
    ctx.log(`${db}: round ${round}/${rounds}, baseline (bare HTTP to disk)`);
    const sinkCpuBefore = cpuSecondsOf(sink.pid);
    baseMs.push((await timed(() => sendBatch(files, (f, i) => toSink(sink, f, i, baseTimes)))).ms);
    sinkCpu += cpuSecondsOf(sink.pid) - sinkCpuBefore;
    // The sink's files stay, as the server's do: on this VM, writing into memory that deleted files
    // just gave back costs a third of the CPU that fresh pages cost, which would flatter the baseline.
    const written = (await readdir(sinkDir)).length;
    requests = written - sinkFiles;
    sinkFiles = written;

    ctx.log(`${db}: round ${round}/${rounds}, server (chunked upload)`);
    const cpuBefore = cpuSecondsOf(server.pid);
    const clientBefore = process.cpuUsage();
    figMs.push((await timed(() => uploadToServer(server, files, randomUUID(), times))).ms);
    serverCpu += cpuSecondsOf(server.pid) - cpuBefore;
    const client = process.cpuUsage(clientBefore);
    clientCpu += (client.user + client.system) / 1e6;
  }
  const mem = memoryOf(server.pid);
  await server.stop();
  const fig = { ms: median(figMs) };
  const base = { ms: median(baseMs) };

  const figure = { value: totalMb / (fig.ms / 1000), unit: 'MB/s' };
  const baseline = { value: totalMb / (base.ms / 1000), unit: 'MB/s' };
  return [
    {
      metric: `throughput (${db})`,
      figure,
      baseline,
      ratio: figure.value / baseline.value,
      extra: {
        files: files.length,
        'total MB': totalMb,
        'chunk bytes': CHUNK_SIZE,
        concurrency: `${FILES_AT_ONCE} files x ${CHUNKS_PER_FILE} chunks`,
        rounds,
        'server s (median)': fig.ms / 1000,
        'baseline s (median)': base.ms / 1000,
        'server runs s': figMs.map((ms) => (ms / 1000).toFixed(2)).join(' '),
        'baseline runs s': baseMs.map((ms) => (ms / 1000).toFixed(2)).join(' '),
        'requests per batch': requests,
        'server CPU s per batch': serverCpu / rounds,
        'baseline CPU s per batch': sinkCpu / rounds,
        'client CPU s per batch': clientCpu / rounds,
        'chunk ms p50': median(times.chunk),
        'completing chunk ms p50': median(times.completing),
        'baseline request ms p50': median(baseTimes),
      },
    },
    {
      metric: `peak RSS (${db})`,
      goal: { valueMax: RSS_GOAL_MB },
      figure: { value: mem.peakMb, unit: 'MB' },
      baseline: { value: idleMb, unit: 'MB' },
      ratio: mem.peakMb / idleMb,
      extra: { 'idle RSS MB (baseline)': idleMb, 'peak before upload MB': startupPeakMb, [`RSS after ${rounds} batches MB`]: mem.rssMb },
    },
  ];
}

const benchmark: Benchmark = {
  name: 'upload-throughput',
  description: 'chunked upload of a 500 MB batch (200 JPEGs) vs a bare HTTP stream of the same bytes to disk; server peak RSS',
  goal: { ratioMin: 0.8 },
  async run(ctx) {
    const count = ctx.quick ? 20 : 200;
    const bytes = await noiseImage({ ...IMAGE, format: 'jpeg', quality: 100, density: 300 });
    // One image under many names: each file is its own upload (its own identifier and path).
    const files: BatchFile[] = Array.from({ length: count }, (_, i) => ({ relativePath: `p${String(i + 1).padStart(4, '0')}.jpg`, bytes }));
    ctx.log(`${count} files of ${(bytes.length / MB).toFixed(2)} MB, ${((bytes.length * count) / MB).toFixed(0)} MB in all`);

    const rounds = ctx.quick ? 1 : 3;
    const rows = await measure(ctx, 'PGlite', {}, files, rounds);
    const databaseUrl = await tempDatabase(ctx);
    if (databaseUrl) rows.push(...(await measure(ctx, 'PostgreSQL', { DATABASE_URL: databaseUrl }, files, rounds)));
    return rows;
  },
};

export default benchmark;
