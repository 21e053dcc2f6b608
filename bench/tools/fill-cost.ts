/**
 * What the pixels of bulk-fix cost, bare: CPU milliseconds per photo of the benchmark's 4000×3000 JPEGs at
 * 300 dpi, one after another in this process (process.cpuUsage counts sharp's threads too), for
 * - the single crop's pixels (cropImg's cropImage: the centred 5寸 box, 1500×1051 px, no resampling),
 * - the bulk 裁切填充's pixels (fixImage: covering 1500×1051 px, centred),
 * - and the parts of the fill: decoding the whole photo, a decode at half size on load (what libjpeg can do
 *   and sharp does only from a shrink of 3: measured with a 1333×1000 cover, which sharp loads at half
 *   size) and the encoding of the 1500×1051 result.
 * What the goal asks of the baseline follows: the bulk side can at best keep every core busy with fills,
 * the baseline does one crop's pixels plus its request per file, one after another. Not a benchmark with a goal: the record
 * for docs/decisions.md (bulk-fix's goal) and bench/HISTORY.md. Run: node --import tsx bench/tools/fill-cost.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { cropImage, fixImage } from '@portal/server/src/media/transform.ts';
import { HEIGHT, photos, WIDTH } from '../benchmarks/bulk-fix.ts';
import { median } from '../lib/timing.ts';

sharp.cache(false);
const PER_ROUND = 20;
const ROUNDS = 3;
const box = { width: Math.round((127 / 25.4) * 300), height: Math.round((89 / 25.4) * 300) };

const dir = await mkdtemp(path.join(os.tmpdir(), 'fill-cost-'));
const files: string[] = [];
for (const [i, f] of (await photos(5)).entries()) {
  files.push(path.join(dir, `p${i}.jpg`));
  await writeFile(files[i]!, f.bytes);
}
const encoded = await sharp(files[0]).extract({ left: 0, top: 0, ...box }).raw().toBuffer({ resolveWithObject: true });

const steps: Record<string, (file: string) => Promise<unknown>> = {
  'crop (cropImg)': (f) => cropImage(f, { rotation: 0, rect: { left: (WIDTH - box.width) / 2, top: Math.round((HEIGHT - box.height) / 2), ...box }, format: 'jpeg', density: 300 }),
  'fill (bulk 裁切填充)': (f) => fixImage(f, { kind: 'fill', ...box, position: 'centre' }, 'jpeg', 300),
  'decode whole': (f) => sharp(f).raw().toBuffer(),
  'decode at half size on load': (f) => sharp(f).resize(1333, 1000, { fit: 'cover' }).raw().toBuffer(),
  'encode 1500×1051': () => sharp(encoded.data, { raw: encoded.info }).withMetadata({ density: 300 }).jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer(),
};

const cpu: Record<string, number[]> = {};
for (let round = 0; round <= ROUNDS; round++) {
  for (const [name, step] of Object.entries(steps)) {
    const n = round === 0 ? 2 : PER_ROUND; // round 0 warms up
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) await step(files[i % files.length]!);
    const used = process.cpuUsage(start);
    if (round > 0) (cpu[name] ??= []).push((used.user + used.system) / 1000 / n);
  }
}
await rm(dir, { recursive: true, force: true });

const ms = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)]));
const cores = os.availableParallelism();
for (const [k, v] of Object.entries(ms)) console.log(`${k.padEnd(30)} ${v.toFixed(1).padStart(7)} ms CPU per photo`);
const crop = ms['crop (cropImg)']!;
const fill = ms['fill (bulk 裁切填充)']!;
const halfFill = ms['decode at half size on load']! + ms['encode 1500×1051']!;
// The goal (bulk ≤ 0.5 × crops) asks fill / cores ≤ (crop + the crop request's own cost) / 2.
const needs = (f: number) => Math.max(0, (2 * f) / cores - crop);
console.log(`fill / crop: ${(fill / crop).toFixed(2)}; with every one of ${cores} cores on fills the bulk takes ${(fill / cores).toFixed(0)} ms a photo,`);
console.log(`  so the goal holds only if each cropImg request costs ${needs(fill).toFixed(0)} ms or more besides its pixels`);
console.log(`with a half-size decode the fill would be about ${halfFill.toFixed(0)} ms: ${needs(halfFill).toFixed(0)} ms besides the crop's pixels would do`);
console.log(`load average while measured: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
