/**
 * A 1,000-entry zip of JPEGs in 10 folders (≈ 300 MB), uploaded once per run and then parsed as the
 * web app does (parseOrderInfo4BatchUp answers state 100, then /api/long-time-tasks/{id} is polled
 * every 100 ms until the task is finished), against `unzip -q` of the same archive.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { noiseImage } from '../lib/images.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median, sleep, timed } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';
import { uploadToServer } from '../lib/upload.ts';

const FOLDERS = 10;
/** Around 560×380 noise at quality 100 is ≈ 300 kB; a few sizes so that entries differ. */
const VARIANTS = [[560, 380], [550, 385], [570, 372], [545, 390], [565, 378]] as const;
const POLL_MS = 100;

type TaskAnswer = { state: number; message: { status: 'running' | 'finished' | 'failed'; progress: { done: number; total: number };
  jsonContent: { works: Array<{ files: unknown[] }>; unsupported: unknown[] } | null; error: string | null } };

function requireUnzip(): void {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
  } catch {
    throw new Error('`unzip` is not installed, and it is this benchmark\'s baseline: install it (Debian: apt-get install -y unzip)');
  }
}

async function makeZip(file: string, entries: number): Promise<void> {
  const images = await Promise.all(VARIANTS.map(([width, height]) => noiseImage({ width, height, format: 'jpeg', quality: 100, density: 300 })));
  const zip = new yazl.ZipFile();
  const perFolder = Math.ceil(entries / FOLDERS);
  for (let i = 0; i < entries; i++) {
    const folder = `作品${String(Math.floor(i / perFolder) + 1).padStart(2, '0')}`;
    zip.addBuffer(images[i % images.length]!, `${folder}/p${String((i % perFolder) + 1).padStart(3, '0')}.jpg`, { compress: true });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

function unzip(zipPath: string, dest: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('unzip', ['-q', zipPath, '-d', dest], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`unzip exited with ${code}: ${err}`))));
  });
}

/** Parses an uploaded zip; answers when the task has finished, and when its extraction half ended. */
async function parse(server: BenchServer, filePath: string): Promise<{ extractedMs: number; answer: TaskAnswer }> {
  const start = performance.now();
  const first = await server.call<{ state: number; message: { taskId?: string } }>('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(filePath)}`);
  const taskId = first.message.taskId;
  if (first.state !== 100 || !taskId) throw new Error(`expected a long task (state 100), got ${JSON.stringify(first).slice(0, 300)}`);
  let extractedMs = 0;
  for (;;) {
    const answer = await server.call<TaskAnswer>('GET', `/api/long-time-tasks/${taskId}`);
    const { done, total } = answer.message.progress;
    // The task counts extraction as the first half of its progress, metadata as the second.
    if (!extractedMs && total > 0 && done * 2 >= total) extractedMs = performance.now() - start;
    if (answer.message.status !== 'running') return { extractedMs, answer };
    await sleep(POLL_MS);
  }
}

const benchmark: Benchmark = {
  name: 'parse-zip',
  description: 'parsing an uploaded 1,000-entry 300 MB zip (long task, polled) vs `unzip -q` of it',
  goal: { ratioMax: 1.5 },
  async run(ctx) {
    requireUnzip();
    const entries = ctx.quick ? 100 : 1000;
    const runs = ctx.quick ? 1 : 3;
    const work = await ctx.tmpDir('zip');
    const zipPath = path.join(work, 'batch.zip');
    const made = await timed(() => makeZip(zipPath, entries));
    const bytes = await readFile(zipPath);
    ctx.log(`zip of ${entries} entries, ${(bytes.length / 1e6).toFixed(0)} MB, made in ${(made.ms / 1000).toFixed(1)} s`);

    const server = await startBenchServer(ctx);
    const figureRuns: number[] = [];
    const extractRuns: number[] = [];
    const baselineRuns: number[] = [];
    let last: TaskAnswer | undefined;
    for (let i = 0; i < runs; i++) {
      const dest = path.join(work, `unzip-${i}`);
      baselineRuns.push((await timed(() => unzip(zipPath, dest))).ms);
      await rm(dest, { recursive: true, force: true });

      // Each run parses its own upload: a zip already extracted is not extracted again.
      const folderId = randomUUID();
      await uploadToServer(server, [{ relativePath: 'batch.zip', bytes }], folderId);
      const got = await timed(() => parse(server, `upload/${folderId}/batch.zip`));
      if (got.value.answer.message.status !== 'finished') throw new Error(`the parse task ${got.value.answer.message.status}: ${got.value.answer.message.error}`);
      figureRuns.push(got.ms);
      extractRuns.push(got.value.extractedMs);
      last = got.value.answer;
      ctx.log(`run ${i + 1}/${runs}: unzip ${(baselineRuns[i]! / 1000).toFixed(2)} s, parse ${(got.ms / 1000).toFixed(2)} s`);
    }
    const works = last?.message.jsonContent?.works ?? [];
    const filesInWorks = works.reduce((n, w) => n + w.files.length, 0);
    if (filesInWorks !== entries) throw new Error(`the parse found ${filesInWorks} files in ${works.length} works, expected ${entries}`);

    const figure = { value: median(figureRuns) / 1000, unit: 's' };
    const baseline = { value: median(baselineRuns) / 1000, unit: 's' };
    return {
      metric: 'time',
      figure,
      baseline,
      ratio: figure.value / baseline.value,
      extra: {
        entries,
        'zip MB': bytes.length / 1e6,
        runs,
        works: works.length,
        unsupported: last?.message.jsonContent?.unsupported.length ?? 0,
        'extraction s (median, to 100 ms)': median(extractRuns) / 1000,
        'parse runs s': figureRuns.map((ms) => (ms / 1000).toFixed(2)).join(' '),
        'unzip runs s': baselineRuns.map((ms) => (ms / 1000).toFixed(2)).join(' '),
      },
    };
  },
};

export default benchmark;
