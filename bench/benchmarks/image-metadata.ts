/**
 * readImageMeta (apps/server/src/media/image.ts: type sniffing, sharp's header read, our own density
 * parse) over a few hundred images, against a bare `sharp(file).metadata()` loop over the same
 * files in the same process. One file after another: the figure is the cost per call.
 */
import { copyFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { readImageMeta } from '@portal/server/src/media/image.ts';
import { noiseImage } from '../lib/images.ts';
import { pairedMedians } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpus');
/** Generated files come from this many distinct images, copied under other names. */
const DISTINCT = 24;

async function corpusImages(): Promise<string[]> {
  const out: string[] = [];
  for (const dir of ['images', 'orientation']) {
    const names = await readdir(path.join(CORPUS, dir)).catch(() => [] as string[]);
    out.push(...names.filter((n) => /\.(jpe?g|png)$/i.test(n)).map((n) => path.join(CORPUS, dir, n)));
  }
  return out;
}

/** JPEGs and PNGs of several sizes, with 300 dpi, 72 dpi or no stated density. */
async function generated(dir: string, count: number): Promise<string[]> {
  const distinct: string[] = [];
  for (let i = 0; i < Math.min(DISTINCT, count); i++) {
    const format = i % 3 === 2 ? 'png' : 'jpeg';
    const width = 200 + ((i * 97) % 1200);
    const height = 150 + ((i * 61) % 900);
    const density = [300, 72, undefined][i % 3];
    const file = path.join(dir, `gen-${i}.${format === 'png' ? 'png' : 'jpg'}`);
    await writeFile(file, await noiseImage({ width, height, format, quality: 90, density }));
    distinct.push(file);
  }
  const out = [...distinct];
  for (let i = distinct.length; i < count; i++) {
    const from = distinct[i % distinct.length]!;
    const file = path.join(dir, `copy-${i}${path.extname(from)}`);
    await copyFile(from, file);
    out.push(file);
  }
  return out;
}

const benchmark: Benchmark = {
  name: 'image-metadata',
  description: 'readImageMeta over 300 images vs a bare sharp(file).metadata() loop, same files, same process',
  goal: { ratioMax: 1.5 },
  async run(ctx) {
    const total = ctx.quick ? 60 : 300;
    const runs = ctx.quick ? 3 : 9;
    const corpus = await corpusImages();
    if (corpus.length === 0) ctx.log(`no corpus at ${CORPUS}: generated images only`);
    const files = [...corpus, ...(await generated(await ctx.tmpDir('images'), Math.max(0, total - corpus.length)))];

    // Files readImageMeta refuses (none expected) would time a throw, not a read: leave them out.
    const usable: string[] = [];
    for (const f of files) {
      try {
        await readImageMeta(f);
        usable.push(f);
      } catch (err) {
        ctx.log(`left out ${path.basename(f)}: ${String(err)}`);
      }
    }
    const p = await pairedMedians({
      runs,
      warmup: 1,
      figure: async () => {
        for (const f of usable) await readImageMeta(f);
      },
      baseline: async () => {
        for (const f of usable) await sharp(f).metadata();
      },
    });
    const figure = { value: p.figureMs, unit: 'ms' };
    const baseline = { value: p.baselineMs, unit: 'ms' };
    return {
      metric: `time/${usable.length} files`,
      figure,
      baseline,
      ratio: figure.value / baseline.value,
      extra: {
        files: usable.length,
        'from the corpus': corpus.length,
        runs,
        'per file ms': p.figureMs / usable.length,
        'baseline per file ms': p.baselineMs / usable.length,
        'runs ms': p.figureRuns.map((v) => v.toFixed(0)).join(' '),
        'baseline runs ms': p.baselineRuns.map((v) => v.toFixed(0)).join(' '),
      },
    };
  },
};

export default benchmark;
