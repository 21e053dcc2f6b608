/**
 * The production zip of one order of 120 noise JPEGs (≈ 180 MB, a work folder of 5寸 photos): downloaded
 * through the signed link as an operator's browser does, against reading the same stored files from disk
 * (fs streams, one after another, into nothing). Also the server's memory while it streams, against the
 * zip's size: the zip must not be held in memory.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { noiseImage } from '../lib/images.ts';
import { memoryOf, settledRss } from '../lib/proc.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median, sleep, timed } from '../lib/timing.ts';
import type { Benchmark, Measurement } from '../lib/types.ts';
import { uploadToServer } from '../lib/upload.ts';

/** 127 × 89 mm at 300 dpi: what the demo's 5寸 photo (PH-5) checks for. */
const WIDTH = 1500;
const HEIGHT = 1051;

async function placeOrder(server: BenchServer, files: number): Promise<{ so: string; folder: string; names: string[] }> {
  const variants = await Promise.all([0, 1, 2, 3].map(() => noiseImage({ width: WIDTH, height: HEIGHT, format: 'jpeg', quality: 95, density: 300 })));
  const names = Array.from({ length: files }, (_, i) => `p${String(i + 1).padStart(3, '0')}.jpg`);
  const folderId = randomUUID();
  await uploadToServer(server, names.map((n, i) => ({ relativePath: `相册/${n}`, bytes: variants[i % variants.length]! })), folderId);
  const answer = await server.call<{ state: number; message: { works?: Array<{ uuid: string; filePath: string; articleName: string }>; taskId?: string } }>(
    'GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/相册`)}`);
  let works = answer.message.works;
  for (let i = 0; !works && answer.message.taskId && i < 600; i++) {
    await sleep(200);
    const task = await server.call<{ message: { status: string; jsonContent: { works: typeof works } | null; error: string | null } }>('GET', `/api/long-time-tasks/${answer.message.taskId}`);
    if (task.message.status === 'failed') throw new Error(`parse failed: ${task.message.error}`);
    if (task.message.status === 'finished') works = task.message.jsonContent!.works;
  }
  const work = works?.[0];
  if (!work) throw new Error(`no work parsed: ${JSON.stringify(answer).slice(0, 300)}`);
  const products = await server.call<Array<{ id: number; number: string }>>('GET', '/api/customer-hubs/getProductsPage/1?page=0&size=100&productName=PH-5');
  const productId = products.find((p) => p.number === 'PH-5')!.id;
  const details = await server.call<{ message: { propertyConfigs: Array<{ id: number; number: string }> } }>('GET', `/api/customer-hubs/getProductDetails?productId=${productId}`);
  const propertyConfigId = details.message.propertyConfigs.find((c) => c.number === 'PH5-GL-NB')!.id;
  const check = await server.call<{ state: number }>('POST', '/api/sales_order/checkFile', { productId, propertyConfigId, filePath: work.filePath });
  if (check.state !== 200) throw new Error(`check failed: ${JSON.stringify(check).slice(0, 300)}`);
  const order = await server.call<{ message: { orders: Array<{ salesOrderNumber: string }> } }>('POST', '/api/sales_order/batch', {
    idempotencyKey: randomUUID(), deliveryMethod: 'Unified',
    works: [{ uuid: work.uuid, articleName: work.articleName, filePath: work.filePath, quantity: 1, productId, propertyConfigId, toning: 'None' }],
  });
  return { so: order.message.orders[0]!.salesOrderNumber, folder: path.join(server.dataDir, 'files', '1', 'upload', folderId, '相册'), names };
}

const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });

const benchmark: Benchmark = {
  name: 'production-zip',
  description: 'the production zip of a 120-photo order (≈ 180 MB) by its signed link vs reading the same files from disk; server RSS growth while streaming vs the zip size',
  goal: { ratioMin: 0.3 },
  async run(ctx) {
    const files = ctx.quick ? 12 : 120;
    const runs = ctx.quick ? 1 : 3;
    const server = await startBenchServer(ctx);
    const { so, folder, names } = await placeOrder(server, files);
    const auth = await fetch(`${server.url}/api/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'operator', password: 'operator' }) });
    const operator = ((await auth.json()) as { id_token: string }).id_token;
    // One zip first, untimed: the first ticket loads pdf-lib, fontkit and the CJK font once per process
    // (≈ 90 MB and a few seconds), which no zip after it pays again.
    const warm = timed(async () => {
      const linkRes = await fetch(`${server.url}/api/admin/production/link?salesOrderNumber=${so}`, { headers: { authorization: `Bearer ${operator}` } });
      const res = await fetch(server.url + ((await linkRes.json()) as { url: string }).url);
      for await (const _ of res.body!) { /* drained */ }
    });
    const warmMs = (await warm).ms;
    const idleMb = await settledRss(server.pid);

    const figureRuns: number[] = [];
    const baselineRuns: number[] = [];
    let zipBytes = 0;
    let streamingPeakMb = 0;
    for (let i = 0; i < runs; i++) {
      baselineRuns.push((await timed(async () => {
        for (const n of names) await pipeline(createReadStream(path.join(folder, n)), sink());
      })).ms);
      const got = await timed(async () => {
        const linkRes = await fetch(`${server.url}/api/admin/production/link?salesOrderNumber=${so}`, { headers: { authorization: `Bearer ${operator}` } });
        const { url } = (await linkRes.json()) as { url: string };
        const res = await fetch(server.url + url);
        if (res.status !== 200 || !res.body) throw new Error(`zip answered ${res.status}: ${await res.text()}`);
        let bytes = 0;
        const sampler = setInterval(() => { streamingPeakMb = Math.max(streamingPeakMb, memoryOf(server.pid).rssMb); }, 50);
        try {
          for await (const chunk of res.body) bytes += (chunk as Uint8Array).length;
        } finally {
          clearInterval(sampler);
        }
        return bytes;
      });
      zipBytes = got.value;
      figureRuns.push(got.ms);
      ctx.log(`run ${i + 1}/${runs}: disk ${(baselineRuns[i]! / 1000).toFixed(2)} s, zip ${(got.ms / 1000).toFixed(2)} s`);
    }
    const mb = zipBytes / 1e6;
    const figure = { value: mb / (median(figureRuns) / 1000), unit: 'MB/s' };
    const baseline = { value: mb / (median(baselineRuns) / 1000), unit: 'MB/s' };
    const grewMb = Math.max(0, streamingPeakMb - idleMb);
    const rows: Measurement[] = [
      {
        metric: 'throughput',
        figure, baseline, ratio: figure.value / baseline.value,
        extra: { files, 'zip MB': mb, runs, 'zip runs s': figureRuns.map((ms) => (ms / 1000).toFixed(2)).join(' '), 'disk runs s': baselineRuns.map((ms) => (ms / 1000).toFixed(2)).join(' ') },
      },
      {
        metric: 'RSS growth while streaming',
        // The server's memory may grow by a few stream buffers and the ticket's font, not by the zip.
        goal: { ratioMax: 0.35 },
        figure: { value: grewMb, unit: 'MB' },
        baseline: { value: mb, unit: 'MB' },
        ratio: grewMb / mb,
        extra: { 'first zip (loads the font) s': warmMs / 1000, 'RSS after the first zip MB': idleMb, 'peak RSS while streaming MB': streamingPeakMb },
      },
    ];
    return rows;
  },
};

export default benchmark;
