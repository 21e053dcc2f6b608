/**
 * What one chunk costs late in a file against early in it (issue #19 item 8): the chunks of one file
 * of 6,100 chunks sent one after another to the real server, each timed; the figure is the median of
 * the chunks around number 6,000, the baseline the median of those around number 100, same file, same
 * run. A chunk whose cost grows with the chunks already received shows a ratio well above 1.
 *
 * The chunks are 1,024 bytes (the server is started with MIN_CHUNK_BYTES=1024) so that 6,000 of them
 * take seconds: what is measured is the chunk's bookkeeping, not its bytes. The file is never
 * completed (its last chunk is not sent). Measured on PGlite and, when a PostgreSQL answers
 * (lib/postgres.ts), on PostgreSQL.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { request } from '../lib/http.ts';
import { tempDatabase } from '../lib/postgres.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median } from '../lib/timing.ts';
import type { BenchContext, Benchmark, Measurement } from '../lib/types.ts';
import { multipart } from '../lib/upload.ts';

const CHUNK = 1024;
/** Chunks timed on each side of the two marks. */
const WINDOW = 40;
const WARMUP_CHUNKS = 500;

async function measure(ctx: BenchContext, db: string, env: Record<string, string>, late: number): Promise<Measurement> {
  const server: BenchServer = await startBenchServer(ctx, { MIN_CHUNK_BYTES: String(CHUNK), ...env });
  const total = late + WINDOW + 100;
  const size = total * CHUNK;
  // A PNG signature, so chunk 1 passes the magic-byte check; the rest never gets looked at.
  const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size - 8)]);
  const send = async (index: number, folderId: string) => {
    const { body, contentType } = multipart({
      identifier: `${size}-costpng`, chunkNumber: String(index), totalChunks: String(total), totalSize: String(size), chunkSize: String(CHUNK),
      relativePath: 'cost/cost.png', filename: 'cost.png', folderId,
    }, { name: 'cost.png', bytes: bytes.subarray((index - 1) * CHUNK, index * CHUNK) });
    const start = performance.now();
    const res = await request(`${server.url}/api/files/updateFile`, { headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType }, body });
    const ms = performance.now() - start;
    if (res.status !== 200) throw new Error(`chunk ${index} refused (${res.status}): ${res.text.slice(0, 300)}`);
    return ms;
  };
  // Warm-up, not timed: another file's first chunks, so the early mark does not pay for the server's
  // first requests (V8 optimising the chunk's code, the database's first pages).
  const warmup = randomUUID();
  for (let i = 1; i <= WARMUP_CHUNKS; i++) await send(i, warmup);
  const folderId = randomUUID();
  const early: number[] = [];
  const lateMs: number[] = [];
  const earlyMark = 100;
  for (let i = 1; i < total; i++) {
    const ms = await send(i, folderId);
    if (Math.abs(i - earlyMark) < WINDOW / 2) early.push(ms);
    if (Math.abs(i - late) < WINDOW / 2) lateMs.push(ms);
    if (i % 1000 === 0) ctx.log(`${db}: ${i}/${total} chunks`);
  }
  await server.stop();
  const figure = { value: median(lateMs), unit: 'ms' };
  const baseline = { value: median(early), unit: 'ms' };
  return {
    metric: `chunk ${late} vs chunk ${earlyMark} (${db})`,
    figure,
    baseline,
    ratio: figure.value / baseline.value,
    extra: { 'chunk bytes': CHUNK, chunks: total - 1, 'timed per mark': early.length },
  };
}

const benchmark: Benchmark = {
  name: 'chunk-cost',
  description: 'one chunk\'s time around chunk 6,000 of a file vs around chunk 100 of the same file (sequential, 1 KiB chunks)',
  goal: { ratioMax: 1.3 },
  async run(ctx) {
    const late = ctx.quick ? 1000 : 6000;
    const rows = [await measure(ctx, 'PGlite', {}, late)];
    const pg = await tempDatabase(ctx);
    if (pg) rows.push(await measure(ctx, 'PostgreSQL', { DATABASE_URL: pg }, late));
    return rows;
  },
};
export default benchmark;
