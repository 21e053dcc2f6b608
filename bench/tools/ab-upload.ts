/**
 * upload-throughput's batch (200 JPEGs, ≈ 500 MB, the web client's chunk protocol) sent to two server builds on
 * PostgreSQL, alternating with the sink, so that two versions of the upload path are compared on the same machine in
 * the same minutes (the bench's own runs differ ±30 % between runs). Build each variant's bundle
 * (`node scripts/build-server.mjs`) and copy it beside the other as apps/server/dist/<name>.mjs, then:
 *   A=apps/server/dist/server.mjs B=apps/server/dist/server-b.mjs ROUNDS=9 node --import tsx tools/ab-upload.ts
 * Prints each round's seconds to disk and, at the end, the medians, the ratios to the sink, each server's CPU and the
 * medians of its requests' times (less noisy than a round's) and its peak RSS. C=, D=, … add more builds to the rounds.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE, hashesSettled, nextRound, toDisk, uploadedFolders } from '../benchmarks/upload-throughput.ts';
import { noiseImage } from '../lib/images.ts';
import { request } from '../lib/http.ts';
import { tempDatabase } from '../lib/postgres.ts';
import { cpuSecondsOf, memoryOf } from '../lib/proc.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { startSink } from '../lib/sink.ts';
import { median } from '../lib/timing.ts';
import { toolContext } from '../lib/tool-context.ts';
import { chunkOf, sendBatch, uploadToServer, type BatchFile, type RequestTimes } from '../lib/upload.ts';

const { ctx, cleanUp } = toolContext();
const entries: Record<string, string> = { A: process.env.A ?? 'apps/server/dist/server.mjs', B: process.env.B ?? 'apps/server/dist/server.mjs' };
for (const name of 'CDEF') if (process.env[name]) entries[name] = process.env[name]!;
const names = Object.keys(entries);
const rounds = Number(process.env.ROUNDS ?? 9);
try {
  const bytes = await noiseImage({ ...IMAGE, format: 'jpeg', quality: 100, density: 300 });
  const files: BatchFile[] = Array.from({ length: 200 }, (_, i) => ({ relativePath: `p${String(i + 1).padStart(4, '0')}.jpg`, bytes }));
  const servers: Record<string, BenchServer> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const url = await tempDatabase(ctx);
    if (!url) throw new Error('no PostgreSQL');
    servers[name] = await startBenchServer(ctx, { DATABASE_URL: url }, entry);
  }
  const sinkDir = await ctx.tmpDir('sink');
  const sink = await startSink(ctx, sinkDir);
  const toSink = async () => {
    await sendBatch(files, async (file, index) => {
      const res = await request(`${sink.url}/upload`, { headers: { 'content-type': 'application/octet-stream' }, body: chunkOf(file.bytes, index) });
      if (res.status !== 200) throw new Error(`the sink answered ${res.status}`);
      return true;
    });
  };
  const sinkFiles = async () => (await readdir(sinkDir)).map((n) => path.join(sinkDir, n));
  const folders: Record<string, string[]> = Object.fromEntries(names.map((n) => [n, []]));
  const ms: Record<string, number[]> = Object.fromEntries([...names, 'sink'].map((n) => [n, []]));
  const cpu: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  const times: Record<string, RequestTimes> = Object.fromEntries(names.map((n) => [n, { chunk: [], completing: [] }]));
  const allFolders = () => Object.values(folders).flat();
  const runServer = async (name: string, timed: boolean) => {
    const server = servers[name]!;
    await nextRound([...allFolders(), ...(await sinkFiles())]);
    const folderId = randomUUID();
    const before = cpuSecondsOf(server.pid);
    const t = await toDisk(() => uploadToServer(server, files, folderId, timed ? times[name] : undefined));
    if (timed) {
      ms[name]!.push(t.diskMs);
      cpu[name]! += cpuSecondsOf(server.pid) - before;
    }
    await hashesSettled(server);
    folders[name] = await uploadedFolders(server, folderId);
    return t.diskMs;
  };
  const runSink = async (timed: boolean) => {
    await nextRound([...allFolders(), ...(await sinkFiles())]);
    const t = await toDisk(toSink);
    if (timed) ms.sink!.push(t.diskMs);
  };
  for (let w = 0; w < 4; w++) {
    await runSink(false);
    for (const name of names) await runServer(name, false);
  }
  for (let r = 1; r <= rounds; r++) {
    // The servers' order turns each round, so that none always follows the sink.
    const order = names.map((_, i) => names[(i + r) % names.length]!);
    await runSink(true);
    const line = [`round ${r}: sink ${(ms.sink!.at(-1)! / 1000).toFixed(2)}`];
    for (const name of order) line.push(`${name} ${((await runServer(name, true)) / 1000).toFixed(2)}`);
    console.log(line.join('  '));
  }
  const sinkMs = median(ms.sink!);
  for (const name of names) {
    const m = median(ms[name]!);
    console.log(`${name} (${entries[name]}): median ${(m / 1000).toFixed(3)} s, ratio to the sink ${(sinkMs / m).toFixed(3)}, CPU ${(cpu[name]! / rounds).toFixed(2)} s a batch, peak RSS ${memoryOf(servers[name]!.pid).peakMb.toFixed(0)} MB, chunk p50 ${median(times[name]!.chunk).toFixed(1)} ms, completing chunk p50 ${median(times[name]!.completing).toFixed(1)} ms`);
  }
  console.log(`sink median ${(sinkMs / 1000).toFixed(3)} s`);
} finally {
  await cleanUp();
}
process.exit(0);
