/**
 * A batch of JPEGs uploaded to the real server with the web client's chunk protocol, against the
 * same bytes streamed to disk by a bare node:http server (lib/sink-server.ts) with the same request
 * sizes and concurrency. Also the server's peak memory against its memory at rest.
 *
 * A round ends when its bytes are on disk, on both sides: the batch, then `sync`, timed together.
 * The server writes every chunk durably before it answers (decisions: CHUNK_DURABLE), so its `sync`
 * finds little left to do; the sink answers from the page cache, and its bytes reach the disk in
 * the `sync`. The time until the last answer alone is reported too (no goal): it compares a
 * durable write with one that is not.
 *
 * Measured twice when a PostgreSQL server answers (lib/postgres.ts): on PGlite, the default the
 * brief's server runs on, and on PostgreSQL, what production runs. PGlite keeps its whole database
 * engine inside the server process, so the memory rows of the two differ by design.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir, truncate } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { noiseImage } from '../lib/images.ts';
import { request } from '../lib/http.ts';
import { tempDatabase } from '../lib/postgres.ts';
import { cpuSecondsOf, cpuSecondsOfProcesses, machineCpuSeconds, mainThreadCpuSecondsOf, memoryOf, settledRss } from '../lib/proc.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { startSink, type Sink } from '../lib/sink.ts';
import { median } from '../lib/timing.ts';
import type { BenchContext, Benchmark, Measurement } from '../lib/types.ts';
import { CHUNK_SIZE, CHUNKS_PER_FILE, FILES_AT_ONCE, REQUESTS_AT_ONCE, chunkOf, sendBatch, uploadToServer, type BatchFile, type RequestTimes } from '../lib/upload.ts';

const MB = 1e6;
/** 1650×1100 noise at quality 100 is ≈ 2.5 MB: 200 of them make the 500 MB batch. */
export const IMAGE = { width: 1650, height: 1100 };
const RSS_GOAL_MB = 250;
const WARMUP_BATCHES = 4;

async function toSink(sink: Sink, file: BatchFile, index: number, times?: number[]): Promise<boolean> {
  const start = performance.now();
  const res = await request(`${sink.url}/upload`, { headers: { 'content-type': 'application/octet-stream' }, body: chunkOf(file.bytes, index) });
  if (res.status !== 200) throw new Error(`the sink answered ${res.status}: ${res.text}`);
  times?.push(performance.now() - start);
  return true;
}

/**
 * Lets go of a round's bytes and writes back what is dirty, before the next timed round. Keep in mind:
 * - this VM's balloon hands freed memory back to its host (free page reporting, seconds after the
 *   free), and the first write to a page the host took back costs ≈ 2 ms per MB, four times a write
 *   into memory the guest still holds. With every round's files kept, whichever side happened to
 *   write into such pages lost up to half a second per batch: rounds of the same code differed by
 *   2-3×. A server that has run a while writes into page cache it recycles, so each round's files are
 *   emptied right after it (the sink's, and the server's uploaded folder) and the next round writes
 *   into the memory they held;
 * - emptied, not deleted: this VM's ext4 has no journal, and without one a new inode is never one
 *   freed in the last minute; every create then steps over each recently freed inode (a third of the
 *   sink's CPU once rounds deleted their files);
 * - the kernel writes dirty pages back in bursts of a gigabyte or more that take both cores for a
 *   second; `sync` makes each round start with none pending. The server's own flushes (O_DSYNC
 *   chunks) still count within its time: they are part of its work.
 */
export async function nextRound(paths: string[]): Promise<void> {
  const files = (await Promise.all(paths.map(filesUnder))).flat();
  await Promise.all(files.map((f) => truncate(f, 0)));
  await sync();
}

const sync = () => promisify(execFile)('sync').then(() => undefined);

/**
 * Until the server has the sha256 of every file uploaded so far (services/content-hashes.ts): a hub's
 * hashes asked for are answered once every file of the hub has its hash.
 */
export async function hashesSettled(server: BenchServer): Promise<void> {
  await server.call('POST', '/api/files/knownHashes', { hashes: ['0'.repeat(64)] });
}

/** One timed round: the batch until its last answer, then until its bytes are on disk. */
export async function toDisk(send: () => Promise<void>): Promise<{ answeredMs: number; diskMs: number }> {
  const start = performance.now();
  await send();
  const answeredMs = performance.now() - start;
  await sync();
  return { answeredMs, diskMs: performance.now() - start };
}

/** The file itself, or every file below a folder; nothing when it does not exist. */
async function filesUnder(p: string): Promise<string[]> {
  const entries = await readdir(p, { withFileTypes: true, recursive: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOTDIR') return null;
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  if (entries === null) return [p];
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** The folder a batch uploaded into lands in on disk: DATA_DIR/files/<hub>/upload/<folderId>. */
export async function uploadedFolders(server: BenchServer, folderId: string): Promise<string[]> {
  const files = path.join(server.dataDir, 'files');
  const hubs = (await readdir(files)).filter((name) => /^\d+$/.test(name));
  return hubs.map((hub) => path.join(files, hub, 'upload', folderId));
}

/** One server (one database), its own baseline right before it: two rows, throughput and peak RSS. */
async function measure(ctx: BenchContext, db: string, env: Record<string, string>, files: BatchFile[], rounds: number): Promise<Measurement[]> {
  const totalMb = files.reduce((n, f) => n + f.bytes.length, 0) / MB;
  const server = await startBenchServer(ctx, env);
  const idleMb = await settledRss(server.pid);
  const startupPeakMb = memoryOf(server.pid).peakMb;
  const sinkDir = await ctx.tmpDir('sink');
  const sink = await startSink(ctx, sinkDir);

  // The sink's files of the round just run (the names it has not written before).
  const sinkSeen = new Set<string>();
  const newSinkFiles = async () => {
    const fresh = (await readdir(sinkDir)).filter((name) => !sinkSeen.has(name));
    for (const name of fresh) sinkSeen.add(name);
    return fresh.map((name) => path.join(sinkDir, name));
  };

  // Warm-up, not timed: WARMUP_BATCHES whole batches each, emptied after as a round's are. A fresh
  // server's batches keep getting faster for five or six of them (measured 2026-11-25, ten batches in
  // a row: 1.16 1.17 1.05 0.99 1.02 0.99 0.97 0.94 0.96 0.93 s on PGlite, the same shape on
  // PostgreSQL: V8 optimising the code of a chunk, the database's first pages); a server that has
  // taken uploads for a while runs the later figure. With one batch of warm-up the server's seven
  // rounds still went 1.46 → 0.97 s.
  let serverFolders: string[] = [];
  for (let batch = 1; batch <= (ctx.quick ? 1 : WARMUP_BATCHES); batch++) {
    const warm = files.map((f) => ({ ...f, relativePath: `warmup${batch}-${f.relativePath}` }));
    await sendBatch(warm, (f, i) => toSink(sink, f, i));
    await nextRound(await newSinkFiles());
    const warmFolder = randomUUID();
    await uploadToServer(server, warm, warmFolder);
    await hashesSettled(server);
    serverFolders = await uploadedFolders(server, warmFolder);
    await nextRound(serverFolders);
  }

  // Rounds alternate baseline and server so that drift of the machine touches both alike.
  const baseMs: number[] = [];
  const figMs: number[] = [];
  const baseAnsweredMs: number[] = [];
  const figAnsweredMs: number[] = [];
  const baseTimes: number[] = [];
  const times: RequestTimes = { chunk: [], completing: [] };
  let sinkCpu = 0;
  let sinkMainCpu = 0;
  let serverCpu = 0;
  let serverMainCpu = 0;
  let postgresCpu = 0;
  let machineServerCpu = 0;
  let machineBaseCpu = 0;
  let clientCpu = 0;
  let requests = 0;
  const hashMs: number[] = [];
  let hashCpu = 0;
  for (let round = 1; round <= rounds; round++) {
    ctx.log(`${db}: round ${round}/${rounds}, baseline (bare HTTP to disk)`);
    await nextRound([...serverFolders, ...(await newSinkFiles())]);
    const sinkCpuBefore = cpuSecondsOf(sink.pid);
    const sinkMainBefore = mainThreadCpuSecondsOf(sink.pid);
    const machineBefore = machineCpuSeconds();
    const base = await toDisk(() => sendBatch(files, (f, i) => toSink(sink, f, i, baseTimes)));
    baseMs.push(base.diskMs);
    baseAnsweredMs.push(base.answeredMs);
    machineBaseCpu += machineCpuSeconds() - machineBefore;
    sinkCpu += cpuSecondsOf(sink.pid) - sinkCpuBefore;
    sinkMainCpu += mainThreadCpuSecondsOf(sink.pid) - sinkMainBefore;
    const written = await newSinkFiles();
    requests = written.length;

    ctx.log(`${db}: round ${round}/${rounds}, server (chunked upload)`);
    await nextRound(written);
    const folderId = randomUUID();
    const cpuBefore = cpuSecondsOf(server.pid);
    const mainCpuBefore = mainThreadCpuSecondsOf(server.pid);
    const postgresBefore = cpuSecondsOfProcesses('postgres');
    const clientBefore = process.cpuUsage();
    const machineServerBefore = machineCpuSeconds();
    const fig = await toDisk(() => uploadToServer(server, files, folderId, times));
    figMs.push(fig.diskMs);
    figAnsweredMs.push(fig.answeredMs);
    machineServerCpu += machineCpuSeconds() - machineServerBefore;
    serverFolders = await uploadedFolders(server, folderId);
    serverCpu += cpuSecondsOf(server.pid) - cpuBefore;
    serverMainCpu += mainThreadCpuSecondsOf(server.pid) - mainCpuBefore;
    postgresCpu += cpuSecondsOfProcesses('postgres') - postgresBefore;
    const client = process.cpuUsage(clientBefore);
    clientCpu += (client.user + client.system) / 1e6;
    // The batch's sha256s, which the server computes once the uploads go quiet: waited for (and
    // reported) before the round's files are emptied and before the next baseline round, so that
    // neither reads emptied files nor shares the machine with them.
    const hashCpuBefore = cpuSecondsOf(server.pid);
    const hashStart = performance.now();
    await hashesSettled(server);
    hashMs.push(performance.now() - hashStart);
    hashCpu += cpuSecondsOf(server.pid) - hashCpuBefore;
  }
  const mem = memoryOf(server.pid);
  await server.stop();
  const fig = { ms: median(figMs) };
  const base = { ms: median(baseMs) };
  const figAnswered = median(figAnsweredMs);
  const baseAnswered = median(baseAnsweredMs);

  const mbps = (ms: number) => ({ value: totalMb / (ms / 1000), unit: 'MB/s' });
  const figure = mbps(fig.ms);
  const baseline = mbps(base.ms);
  const seconds = (runs: number[]) => runs.map((ms) => (ms / 1000).toFixed(2)).join(' ');
  return [
    {
      metric: `throughput to disk (${db})`,
      figure,
      baseline,
      ratio: figure.value / baseline.value,
      extra: {
        files: files.length,
        'total MB': totalMb,
        'chunk bytes': CHUNK_SIZE,
        concurrency: `${REQUESTS_AT_ONCE} requests over ${FILES_AT_ONCE} files, ${CHUNKS_PER_FILE} chunks of a file at most`,
        rounds,
        'server s (median)': fig.ms / 1000,
        'baseline s (median)': base.ms / 1000,
        'server runs s': seconds(figMs),
        'baseline runs s': seconds(baseMs),
        'server sync s (median)': median(figMs.map((ms, i) => ms - figAnsweredMs[i]!)) / 1000,
        'baseline sync s (median)': median(baseMs.map((ms, i) => ms - baseAnsweredMs[i]!)) / 1000,
        'requests per batch': requests,
        'server CPU s per batch': serverCpu / rounds,
        'server main thread CPU s per batch': serverMainCpu / rounds,
        'hashing after the batch s (median)': median(hashMs) / 1000,
        'hashing after the batch, server CPU s per batch': hashCpu / rounds,
        ...(db === 'PostgreSQL' ? { 'PostgreSQL server CPU s per batch': postgresCpu / rounds } : {}),
        'baseline CPU s per batch': sinkCpu / rounds,
        'baseline main thread CPU s per batch': sinkMainCpu / rounds,
        'client CPU s per batch': clientCpu / rounds,
        'machine CPU s per batch, server rounds': machineServerCpu / rounds,
        'machine CPU s per batch, baseline rounds': machineBaseCpu / rounds,
        'chunk ms p50': median(times.chunk),
        'completing chunk ms p50': median(times.completing),
        'baseline request ms p50': median(baseTimes),
      },
    },
    {
      metric: `throughput answered (${db})`,
      goal: {},
      figure: mbps(figAnswered),
      baseline: mbps(baseAnswered),
      ratio: baseAnswered / figAnswered,
      extra: {
        'server runs s': seconds(figAnsweredMs),
        'baseline runs s': seconds(baseAnsweredMs),
        note: 'until the last answer, without the sync: the server has written every chunk durably by then, the sink only into the page cache',
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

    const rounds = ctx.quick ? 1 : 7;
    const rows = await measure(ctx, 'PGlite', {}, files, rounds);
    const databaseUrl = await tempDatabase(ctx);
    if (databaseUrl) rows.push(...(await measure(ctx, 'PostgreSQL', { DATABASE_URL: databaseUrl }, files, rounds)));
    return rows;
  },
};

export default benchmark;
