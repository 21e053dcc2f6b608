/**
 * Issue #21 item 4's third figure: a folder of 10,000 small JPEGs picked through 上传文件夹 (the directory
 * picker, answered with the real folder's handle as in browser-pick) with the upload throttled to the shop's
 * line, against a folder of 100: the longest main-thread task (Long Tasks API) from the pick until every file
 * is preflighted (the folder's 预检 row lists the size of all of them, nothing 测量中…) and hashed (the
 * browser's hash cache, features/dedupe/lib/hash-cache.ts, holds every file's sha256). Each run is a fresh
 * browser context (an empty hash cache) and a folder of bytes of its own (none the hub already has).
 *
 * Should the server's row replace the 预检 row first (every file uploaded and parsed), the preflight is
 * counted done then; the details say how often that happened.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { answerDirectoryPicker } from '../../e2e/support/browser.ts';
import { distinctJpeg } from '../../e2e/support/upload-fixtures.ts';
import { throttleToShopLine } from '../lib/album.ts';
import { buildWebIfStale, closeOpenDraft, openBatchUpload, startBrowser, type LongTask, type LongTaskObserver } from '../lib/browser.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median } from '../lib/timing.ts';
import type { BenchContext, Benchmark } from '../lib/types.ts';

const SMALL = 100;
const LONGEST_TASK_MAX_MS = 100;
const DONE_TIMEOUT_MS = 5 * 60_000;

// The functions handed to page.evaluate run in the page; the bench compiles without the DOM library.
declare const window: { __benchMany?: { tasks: LongTask[]; observer: LongTaskObserver } };
declare const document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; closest(s: string): { querySelector(s: string): { textContent: string | null } | null } | null }> };
declare const PerformanceObserver: new (callback: (list: { getEntries(): LongTask[] }) => void) => LongTaskObserver;
declare const indexedDB: { databases(): Promise<Array<{ name?: string }>>; open(name: string): { onsuccess: (() => void) | null; onerror: (() => void) | null; result: { objectStoreNames: { contains(s: string): boolean }; transaction(s: string): { objectStore(s: string): { count(): { onsuccess: (() => void) | null; onerror: (() => void) | null; result: number } } }; close(): void } } };

async function folderOf(root: string, name: string, count: number, jpeg: Buffer): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir);
  for (let i = 0; i < count; i++) await writeFile(path.join(dir, `IMG_${String(i + 1).padStart(5, '0')}.jpg`), distinctJpeg(jpeg, `${name} ${i}`));
  return dir;
}

interface Progress { preflighted: boolean; byServer: boolean; hashed: number }

/** What the page shows of the folder `name`: preflighted (or replaced by the server's row), and how many hashes are cached. */
const progressOf = (page: Page, name: string, files: number) => page.evaluate(async ({ name, files }): Promise<Progress> => {
  let preflighted = false;
  let byServer = false;
  for (const el of Array.from(document.querySelectorAll('[data-testid="work-name"]'))) if (el.textContent === name) byServer = true;
  for (const el of Array.from(document.querySelectorAll('[data-testid="preflight-name"]'))) {
    if (el.textContent !== name) continue;
    const size = el.closest('.ant-table-row')?.querySelector('[data-testid="preflight-size"]')?.textContent ?? '';
    preflighted = size.includes(`×${files}`) && !size.includes('测量中');
  }
  // Opened only once the page has made it: an open without a version would make it first, without its store.
  if (!(await indexedDB.databases()).some((d) => d.name === 'portal-file-hashes')) return { preflighted: preflighted || byServer, byServer, hashed: 0 };
  const hashed = await new Promise<number>((resolve) => {
    const open = indexedDB.open('portal-file-hashes');
    open.onerror = () => resolve(0);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('sha256')) return resolve(0), db.close();
      const count = db.transaction('sha256').objectStore('sha256').count();
      count.onsuccess = () => (resolve(count.result), db.close());
      count.onerror = () => (resolve(0), db.close());
    };
  });
  return { preflighted: preflighted || byServer, byServer, hashed };
}, { name, files });

interface Run { files: number; longestMs: number; longTasks: number; doneMs: number; preflightedMs: number; byServer: boolean }

async function pickRun(ctx: BenchContext, browser: Browser, server: BenchServer, dir: string, files: number): Promise<Run> {
  await closeOpenDraft(server);
  const { context, page } = await openBatchUpload(ctx, browser, server);
  try {
    await page.waitForFunction(() => Array.from(document.querySelectorAll('button')).some((b) => (b.textContent ?? '').includes('上传文件夹')));
    const cdp = await context.newCDPSession(page);
    await throttleToShopLine(cdp);
    const zone = page.getByTestId('upload-drop-zone');
    await answerDirectoryPicker(page, cdp, zone, dir);
    const t0 = await page.evaluate(() => {
      const probe = { tasks: [] as LongTask[], observer: new PerformanceObserver((list) => probe.tasks.push(...list.getEntries())) };
      probe.observer.observe({ type: 'longtask', buffered: false });
      window.__benchMany = probe;
      return performance.now();
    });
    const started = performance.now();
    await page.getByRole('button', { name: '上传文件夹' }).click();
    const name = path.basename(dir);
    let preflightedMs = 0;
    let last: Progress = { preflighted: false, byServer: false, hashed: 0 };
    while (!(last.preflighted && last.hashed >= files)) {
      if (performance.now() - started > DONE_TIMEOUT_MS) throw new Error(`preflight-many: ${files} files not preflighted and hashed within ${DONE_TIMEOUT_MS / 60_000} min (${JSON.stringify(last)})`);
      await page.waitForTimeout(250);
      last = await progressOf(page, name, files);
      if (last.preflighted && !preflightedMs) preflightedMs = performance.now() - started;
    }
    const doneMs = performance.now() - started;
    const tasks = await page.evaluate((t0) => {
      const probe = window.__benchMany!;
      probe.tasks.push(...probe.observer.takeRecords());
      probe.observer.disconnect();
      return probe.tasks.filter((t) => t.startTime + t.duration > t0).map((t) => ({ startTime: t.startTime, duration: t.duration }));
    }, t0);
    return { files, longestMs: Math.max(0, ...tasks.map((t) => t.duration)), longTasks: tasks.length, doneMs, preflightedMs, byServer: last.byServer };
  } finally {
    await page.goto('about:blank').catch(() => undefined);
    await context.close();
  }
}

const benchmark: Benchmark = {
  name: 'preflight-many',
  description: 'a folder of 10,000 small JPEGs picked (上传文件夹, upload at 100 Mbit/s): longest task until every file is preflighted and hashed, vs 100 files',
  goal: { valueMax: LONGEST_TASK_MAX_MS },
  async run(ctx) {
    const large = ctx.quick ? 1000 : 10_000;
    const runs = ctx.quick ? 1 : 3;
    buildWebIfStale(ctx);
    const root = await ctx.tmpDir('many');
    const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#c8d8e8' } }).jpeg({ quality: 80 }).withMetadata({ density: 300 }).toBuffer();
    const [server, browser] = await Promise.all([startBenchServer(ctx), startBrowser(ctx)]);
    ctx.log(`folders of ${SMALL} and ${large} JPEGs, a pair for each of ${runs} runs and a warm-up`);
    const folders = [];
    for (let run = 0; run <= runs; run++) {
      folders.push({ small: await folderOf(root, `预检百张${run}`, SMALL, jpeg), large: run === 0 ? null : await folderOf(root, `预检万张${run}`, large, jpeg) });
    }
    ctx.log(`warm-up: ${SMALL} files`);
    await pickRun(ctx, browser, server, folders[0]!.small, SMALL);
    const small: Run[] = [];
    const big: Run[] = [];
    for (let run = 1; run <= runs; run++) {
      ctx.log(`run ${run}/${runs}: ${SMALL} files, then ${large}`);
      small.push(await pickRun(ctx, browser, server, folders[run]!.small, SMALL));
      big.push(await pickRun(ctx, browser, server, folders[run]!.large!, large));
    }
    const ms = (xs: number[]) => xs.map((x) => Math.round(x)).join(' ');
    const figure = median(big.map((r) => r.longestMs));
    const baseline = median(small.map((r) => r.longestMs));
    return [{
      metric: `longest task, ${large} preflighted and hashed`,
      figure: { value: figure, unit: 'ms' },
      baseline: { value: baseline, unit: 'ms' },
      ratio: figure / baseline,
      extra: {
        runs,
        'longest task ms per run': ms(big.map((r) => r.longestMs)),
        [`longest task ms per run, ${SMALL} files`]: ms(small.map((r) => r.longestMs)),
        'tasks over 50 ms per run': big.map((r) => r.longTasks).join(' '),
        'pick → all preflighted ms per run': ms(big.map((r) => r.preflightedMs)),
        'pick → all preflighted and hashed ms per run': ms(big.map((r) => r.doneMs)),
        [`pick → all preflighted and hashed ms per run, ${SMALL} files`]: ms(small.map((r) => r.doneMs)),
        'runs where the server row came first': big.filter((r) => r.byServer).length,
      },
    }];
  },
};

export default benchmark;
