/**
 * What one chunk costs late in a file against early in one (issue #19 item 8): chunks sent one after
 * another to the real server; the figure is the median time of 40 chunks around number 6,000 of a
 * file, the baseline that of 40 chunks around number 100 of another, sent in turn with them. A chunk
 * whose cost grows with the chunks already received shows a ratio well above 1.
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
/** Chunks timed at each mark. */
const WINDOW = 40;

async function measure(ctx: BenchContext, db: string, env: Record<string, string>, lateMark: number): Promise<Measurement> {
  const server: BenchServer = await startBenchServer(ctx, { MIN_CHUNK_BYTES: String(CHUNK), ...env });
  const total = lateMark + WINDOW + 100;
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
  // File A is brought to the late mark untimed (which also warms the server up: V8 optimising the
  // chunk's code, the database's first pages), file B to the early mark. Then their chunks alternate,
  // B's around chunk 100 and A's around the late mark, each timed: drift of the machine (other work on
  // its 2 cores) touches both marks alike.
  const late = randomUUID();
  const early = randomUUID();
  const earlyMark = 100;
  for (let i = 1; i < lateMark - WINDOW / 2; i++) {
    await send(i, late);
    if (i % 1000 === 0) ctx.log(`${db}: ${i}/${lateMark} chunks`);
  }
  for (let i = 1; i < earlyMark - WINDOW / 2; i++) await send(i, early);
  const earlyMs: number[] = [];
  const lateMs: number[] = [];
  for (let k = 0; k < WINDOW; k++) {
    earlyMs.push(await send(earlyMark - WINDOW / 2 + k, early));
    lateMs.push(await send(lateMark - WINDOW / 2 + k, late));
  }
  await server.stop();
  const figure = { value: median(lateMs), unit: 'ms' };
  const baseline = { value: median(earlyMs), unit: 'ms' };
  return {
    metric: `chunk ${lateMark} vs chunk 100 (${db})`,
    figure,
    baseline,
    ratio: figure.value / baseline.value,
    extra: { 'chunk bytes': CHUNK, 'timed per mark': earlyMs.length },
  };
}

const benchmark: Benchmark = {
  name: 'chunk-cost',
  description: 'one chunk\'s time around chunk 6,000 of a file vs around chunk 100 of another, sent in turn (1 KiB chunks)',
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
