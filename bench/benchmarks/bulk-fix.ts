/**
 * A bulk 裁切填充 of 100 photos (issue #20 item 2: POST /api/bulk-fix/apply, the long task polled every
 * 100 ms until finished, its works checked again on the server) against 100 single crops of the same
 * photos through cropImg, one after another, as a customer makes them in 文件详情.
 *
 * The photos are 4000×3000 px (a phone's 12 megapixels) at 300 dpi (339×254 mm: too big for the demo
 * shop's 5寸, PH-5), with texture so that decoding and encoding cost what a photo's do. Each side of each run gets its own
 * upload of the same bytes (a crop replaces its file, a fill points the work to a new one), made and
 * parsed (one folder work) and checked against PH-5 before anything is timed. The single crop cuts
 * the 5寸 box at the photo's own dpi (1500×1051 px), centred, as the crop dialog proposes it; the fill
 * scales the photo to cover 5寸 at 300 dpi (1500×1051 px). Both end with 100 files of 127×89 mm.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { BulkFixTaskAnswer } from '@portal/contract';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median, sleep, timed } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';
import { uploadToServer, type BatchFile } from '../lib/upload.ts';
import { checkFile, findSku, parseWorks, type ParsedWork, type Sku } from '../lib/works.ts';

const FOLDER = '裁切';
/** A 12-megapixel phone photo. */
export const WIDTH = 4000;
export const HEIGHT = 3000;
const POLL_MS = 100;

/** Different pictures among the photos (each photo is one of them, under its own name). */
const VARIANTS = 5;

/** The benchmark's photos (also measured bare by tools/fill-cost.ts). */
export async function photos(count: number): Promise<BatchFile[]> {
  // Noise blurred and scaled up: decodes and encodes like a photo (texture everywhere), not like one flat colour.
  const base = await sharp({ create: { width: WIDTH / 8, height: HEIGHT / 8, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .blur(1).resize(WIDTH, HEIGHT).png({ compressionLevel: 1 }).toBuffer();
  const variants = await Promise.all(Array.from({ length: VARIANTS }, (_, i) =>
    sharp(base).modulate({ hue: i * 60 }).jpeg({ quality: 88 }).withMetadata({ density: 300 }).toBuffer()));
  return Array.from({ length: count }, (_, i) => ({ relativePath: `${FOLDER}/p${String(i + 1).padStart(3, '0')}.jpg`, bytes: variants[i % VARIANTS]! }));
}

/** A fresh folder work of the photos, checked against the SKU (untimed). */
async function freshWork(server: BenchServer, batch: BatchFile[], sku: Sku): Promise<ParsedWork> {
  const folderId = randomUUID();
  await uploadToServer(server, batch, folderId);
  const [work] = await parseWorks(server, `upload/${folderId}/${FOLDER}`);
  if (!work || work.files.length !== batch.length) throw new Error(`the folder parsed into ${work?.files.length ?? 0} files, expected ${batch.length}`);
  const checked = await checkFile(server, work, sku);
  if (checked.state !== 400) throw new Error('the photos were expected to fail 5寸 before the fix');
  return work;
}

const benchmark: Benchmark = {
  name: 'bulk-fix',
  description: 'bulk 裁切填充 of 100 photos (apply task until finished, works re-checked) vs 100 cropImg calls one after another on the same photos',
  goal: { ratioMax: 0.5 },
  async run(ctx) {
    const count = ctx.quick ? 12 : 100;
    const runs = ctx.quick ? 1 : 2;
    const server = await startBenchServer(ctx);
    const batch = await photos(count);
    const mb = batch.reduce((n, f) => n + f.bytes.length, 0) / 1e6;
    const sku = await findSku(server, 'PH-5');
    // The crop dialog's box: 5寸 at the photo's 300 dpi, centred.
    const box = { width: Math.round((127 / 25.4) * 300), height: Math.round((89 / 25.4) * 300) };

    const works: Array<{ crop: ParsedWork; fill: ParsedWork }> = [];
    for (let i = 0; i < runs; i++) works.push({ crop: await freshWork(server, batch, sku), fill: await freshWork(server, batch, sku) });
    ctx.log(`${runs * 2} works of ${count} photos (${mb.toFixed(1)} MB each) uploaded, parsed and checked`);

    const cropRuns: number[] = [];
    const fillRuns: number[] = [];
    let lastStates = '';
    for (const w of works) {
      cropRuns.push((await timed(async () => {
        for (const f of w.crop.files) {
          await server.call('POST', '/api/files/cropImg', {
            path: f.filePath, x: (WIDTH - box.width) / 2, y: (HEIGHT - box.height) / 2, width: box.width, height: box.height, scale: 100, rotation: 0,
          });
        }
      })).ms);
      fillRuns.push((await timed(async () => {
        const started = await server.call<{ message: { taskId: string } }>('POST', '/api/bulk-fix/apply', {
          position: 'centre', items: w.fill.files.map((f) => ({ workUuid: w.fill.uuid, filePath: f.filePath, kind: 'fill' })),
        });
        for (;;) {
          const s = await server.call<BulkFixTaskAnswer>('GET', `/api/bulk-fix/tasks/${started.message.taskId}`);
          if (s.message.status === 'failed') throw new Error(`the bulk fix failed: ${s.message.error}`);
          if (s.message.status === 'finished') {
            const r = s.message.result!;
            if (r.items.some((x) => !x.ok)) throw new Error(`a fix was refused: ${JSON.stringify(r.items.find((x) => !x.ok))}`);
            lastStates = r.works.map((x) => x.state).join(',');
            return;
          }
          await sleep(POLL_MS);
        }
      })).ms);
    }
    if (lastStates !== 'match') throw new Error(`the filled work was expected to be checked as match, got ${lastStates}`);

    const figure = { value: median(fillRuns), unit: 'ms' };
    const baseline = { value: median(cropRuns), unit: 'ms' };
    return {
      metric: `time/${count} files`,
      figure,
      baseline,
      ratio: figure.value / baseline.value,
      extra: {
        files: count,
        'photo px': `${WIDTH}×${HEIGHT} at 300 dpi`,
        'batch MB': mb,
        SKU: sku.label,
        runs,
        'fill per file ms': figure.value / count,
        'crop per file ms': baseline.value / count,
        'fill runs ms': fillRuns.map((v) => v.toFixed(0)).join(' '),
        'crop runs ms': cropRuns.map((v) => v.toFixed(0)).join(' '),
        'work state after the fill': lastStates,
      },
    };
  },
};
export default benchmark;
