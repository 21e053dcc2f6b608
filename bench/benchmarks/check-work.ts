/**
 * The file check of a 300-photo work (POST /api/sales_order/checkFile, ../shared/spec/decisions.md §5) on the real
 * server, against the bare metadata read of the same 300 files: `sharp(file).metadata()` one after
 * another in this process.
 *
 * The photos are uploaded as a folder work with the web client's chunk protocol and parsed (the long
 * task, polled) before anything is timed; the check then measures each photo against the demo
 * shop's 5寸 photo SKU (PH-5, as the API tests use it). A work's first check learns what the upload
 * did not read (is each image whole) and stores it, so a second check of the same work reads no
 * file: every timed run checks a work never checked before, each uploaded from the same bytes into
 * its own folder. The re-check of a checked work is in the details.
 *
 * The photos are one-colour JPEGs (a tenth PNGs) of exactly 127×89 mm: landscape and portrait
 * (automatic orientation), mostly 300 dpi, some 250 dpi (a resolution warning, still a pass). One
 * colour keeps the uploads small; neither side reads pixels (the check reads a JPEG's tail and a
 * PNG's chunks, sharp the header).
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { startBenchServer } from '../lib/server.ts';
import { median, timed } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';
import { uploadToServer, type BatchFile } from '../lib/upload.ts';
import { checkNewWorks, findSku, parseWorks, rowsOf, type ParsedWork } from '../lib/works.ts';

const FOLDER = '相册';
const COLOURS = ['#cc8844', '#4488cc', '#88cc44', '#cc4488', '#44cc88', '#8844cc'];

/** The i-th photo: 127×89 mm landscape or portrait, at 300 or 250 dpi, JPEG or (one in ten) PNG. */
async function photo(i: number): Promise<{ name: string; bytes: Buffer }> {
  const dpi = i % 7 === 3 ? 250 : 300;
  const long = Math.round((127 / 25.4) * dpi);
  const short = Math.round((89 / 25.4) * dpi);
  const portrait = i % 4 === 1;
  const png = i % 10 === 9;
  const img = sharp({ create: { width: portrait ? short : long, height: portrait ? long : short, channels: 3, background: COLOURS[i % COLOURS.length]! } })
    .withMetadata({ density: dpi });
  const name = `p${String(i + 1).padStart(3, '0')}.${png ? 'png' : 'jpg'}`;
  return { name, bytes: await (png ? img.png() : img.jpeg({ quality: 90 })).toBuffer() };
}

const benchmark: Benchmark = {
  name: 'check-work',
  description: 'checkFile of a 300-photo folder work (first check) vs a bare sharp(file).metadata() loop over the same files',
  goal: { ratioMax: 2 },
  async run(ctx) {
    const count = ctx.quick ? 60 : 300;
    const runs = ctx.quick ? 3 : 7;
    const warmup = 2;
    const dir = await ctx.tmpDir('check-work');
    const photos = await Promise.all(Array.from({ length: count }, (_, i) => photo(i)));
    const files: string[] = [];
    for (const p of photos) {
      const file = path.join(dir, p.name);
      await writeFile(file, p.bytes);
      files.push(file);
    }
    const batch: BatchFile[] = photos.map((p) => ({ relativePath: `${FOLDER}/${p.name}`, bytes: p.bytes }));
    const mb = photos.reduce((n, p) => n + p.bytes.length, 0) / 1e6;

    const server = await startBenchServer(ctx);
    const sku = await findSku(server, 'PH-5');

    // One fresh work per timed run (and per warm-up round), all made before anything is timed.
    const works: ParsedWork[] = [];
    const uploadMs: number[] = [];
    const parseMs: number[] = [];
    for (let i = 0; i < runs + warmup; i++) {
      const folderId = randomUUID();
      uploadMs.push((await timed(() => uploadToServer(server, batch, folderId))).ms);
      const parsed = await timed(() => parseWorks(server, `upload/${folderId}/${FOLDER}`));
      parseMs.push(parsed.ms);
      const work = parsed.value[0];
      if (parsed.value.length !== 1 || work?.files.length !== count) {
        throw new Error(`the folder parsed into ${parsed.value.length} works of ${work?.files.length ?? 0} files, expected 1 of ${count}`);
      }
      works.push(work);
    }
    ctx.log(`${works.length} works of ${count} photos (${mb.toFixed(1)} MB each) uploaded and parsed; checking against ${sku.label}`);

    const { p, last, recheckRuns } = await checkNewWorks(server, works, sku, {
      runs,
      warmup,
      baseline: async () => {
        for (const f of files) await sharp(f).metadata();
      },
    });
    const rows = rowsOf(last);
    if (last.state !== 200 || rows.length !== count || rows.some((r) => !r.pass)) {
      throw new Error(`the check of ${count} fitting photos did not pass with a row each: ${JSON.stringify(last).slice(0, 500)}`);
    }


    const figure = { value: p.figureMs, unit: 'ms' };
    const baseline = { value: p.baselineMs, unit: 'ms' };
    return {
      metric: `time/${count} files`,
      figure,
      baseline,
      ratio: figure.value / baseline.value,
      extra: {
        files: count,
        'work MB': mb,
        SKU: sku.label,
        runs,
        'per file ms': p.figureMs / count,
        'baseline per file ms': p.baselineMs / count,
        'resolution warning': String(last.message.resolutionWarning),
        'answer rows': rows.length,
        'runs ms': p.figureRuns.map((v) => v.toFixed(0)).join(' '),
        'baseline runs ms': p.baselineRuns.map((v) => v.toFixed(0)).join(' '),
        're-check of a checked work ms (median)': median(recheckRuns),
        're-check runs ms': recheckRuns.map((v) => v.toFixed(0)).join(' '),
        'upload s per work (untimed, median)': median(uploadMs) / 1000,
        'parse s per work (untimed, median)': median(parseMs) / 1000,
      },
    };
  },
};

export default benchmark;
