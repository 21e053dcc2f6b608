/**
 * A folder of 10,000 small JPEGs given to the upload area in headless Chromium, against a folder
 * of 100: the longest main-thread task (Long Tasks API) from the hand-over until the page lists
 * every file (the overall progress reads 正在上传 n/10000 个文件), and that time itself.
 *
 * Two ways, each with the goal: the folder picked through 上传文件夹, which in Chromium opens the
 * directory picker (showDirectoryPicker; headless, it is made to answer the real folder's handle:
 * e2e/support/browser.ts answerDirectoryPicker), and the folder dropped on the drop zone (CDP
 * Input.dispatchDragEvent with the real folder, read by the page through webkitGetAsEntry, as for a
 * folder dragged from the desktop). Once, it is also given to the `webkitdirectory` input, the
 * page's way in a browser without the picker (playwright's setInputFiles): there Chromium builds
 * the FileList in one task before the page hears of it (a synchronous MIME lookup per file, ≈ 0.2
 * ms each), which no page code can shorten; reported, no goal. The uploads start at once against
 * the real server; each run stops them by leaving the page.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import sharp from 'sharp';
import { answerDirectoryPicker, dropFolder } from '../../e2e/support/browser.ts';
import { buildWebIfStale, freshBatchUpload, openBatchUpload, startBrowser, type LongTask as TaskEntry, type LongTaskObserver as Observer } from '../lib/browser.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';
import { perRun } from '../lib/format.ts';

const SMALL = 100;
const LONGEST_TASK_MAX_MS = 200;
/** How long the uploads are watched after the listing, for the details (no goal). */
const AFTER_MS = 2000;
const LISTED_TIMEOUT_MS = 60_000;

// The functions handed to page.evaluate run in the page; the bench compiles without the DOM library.
interface Probe {
  t0: number;
  /** The page's event: `drop` on the zone, or the input's `change`. */
  eventAt?: number;
  listedAt?: number;
  tasks: TaskEntry[];
  observer: Observer;
}
declare const window: { __benchPick?: Probe };
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  addEventListener(type: string, listener: () => void, options: { capture: boolean; once: boolean }): void;
};
declare function requestAnimationFrame(callback: () => void): number;
declare const PerformanceObserver: new (callback: (list: { getEntries(): TaskEntry[] }) => void) => Observer;

/**
 * drop: dragged onto the zone; picker: 上传文件夹 through the directory picker (the page's way in
 * Chromium); input: the `webkitdirectory` input (the page's way where there is no picker).
 */
type Way = 'drop' | 'picker' | 'input';

interface PickRun {
  files: number;
  /** The longest task from the hand-over until every file was listed (0: none over 50 ms). */
  longestMs: number;
  longTasks: number;
  /** The longest of those tasks that began after the page's event (drop or change). */
  longestAfterEventMs: number;
  /** performance.now() before the drop or setInputFiles, to the frame that showed n/<files>. */
  listedMs: number;
  /** The hand-over to the page's event; for the input, Chromium's FileList is built in between. */
  eventMs: number;
  /** The longest task in the AFTER_MS of uploading after the listing. */
  uploadingLongestMs: number;
}

/** A folder of `count` copies of one small JPEG. */
async function folderOf(root: string, count: number, jpeg: Buffer): Promise<string> {
  const dir = path.join(root, `photos-${count}`);
  await mkdir(dir);
  const first = path.join(dir, 'p00001.jpg');
  await writeFile(first, jpeg);
  const names = Array.from({ length: count - 1 }, (_, i) => path.join(dir, `p${String(i + 2).padStart(5, '0')}.jpg`));
  for (let i = 0; i < names.length; i += 200) await Promise.all(names.slice(i, i + 200).map((name) => copyFile(first, name)));
  return dir;
}

async function pick(page: Page, cdp: CDPSession, server: BenchServer, way: Way, dir: string, files: number): Promise<PickRun> {
  await freshBatchUpload(page, server);
  await page.waitForTimeout(300);
  const zone = page.getByTestId('upload-drop-zone');
  if (way === 'picker') await answerDirectoryPicker(page, cdp, zone, dir);
  // BENCH_PAGE_PROF=<dir>: the page's CPU profile and a trace of its garbage collections, per run
  // of the large folder (open the profile in Chrome DevTools, the trace in https://ui.perfetto.dev).
  const profiling = process.env.BENCH_PAGE_PROF && files > SMALL ? process.env.BENCH_PAGE_PROF : null;
  const traceEvents: unknown[] = [];
  const onTrace = (e: { value: unknown[] }) => traceEvents.push(...e.value);
  if (profiling) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
    cdp.on('Tracing.dataCollected', onTrace);
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['v8.gc', 'disabled-by-default-v8.gc', 'devtools.timeline'] }, transferMode: 'ReportEvents' });
  }
  const t0 = await page.evaluate(
    ({ total, event }) => {
      const probe: Probe = {
        t0: performance.now(),
        tasks: [],
        observer: new PerformanceObserver((list) => probe.tasks.push(...list.getEntries())),
      };
      // Buffered: a task is reported a little after it ends; takeRecords() collects the rest.
      probe.observer.observe({ type: 'longtask', buffered: true });
      document.addEventListener(event, () => (probe.eventAt ??= performance.now()), { capture: true, once: true });
      const want = `/${total} 个文件`;
      const poll = () => {
        if (document.querySelector('[data-testid="upload-overall"]')?.textContent?.includes(want)) probe.listedAt = performance.now();
        else requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
      window.__benchPick = probe;
      return probe.t0;
    },
    { total: files, event: { drop: 'drop', picker: 'click', input: 'change' }[way] },
  );
  if (way === 'drop') await dropFolder(page, cdp, zone, dir);
  else if (way === 'picker') await page.getByRole('button', { name: '上传文件夹' }).click();
  else await page.getByTestId('upload-folder-input').setInputFiles(dir);
  try {
    await page.waitForFunction(() => window.__benchPick?.listedAt !== undefined, undefined, { polling: 100, timeout: LISTED_TIMEOUT_MS });
  } catch (err) {
    const shown = await page.getByTestId('upload-overall').textContent({ timeout: 1000 }).catch(() => null);
    throw new Error(`browser-pick: ${way} of ${files} files: the overall progress did not read n/${files} 个文件 within ${LISTED_TIMEOUT_MS / 1000} s (it reads: ${shown ?? 'nothing'})`, { cause: err });
  }
  await page.waitForTimeout(AFTER_MS);
  if (profiling) {
    const { profile } = await cdp.send('Profiler.stop');
    const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await traced;
    cdp.off('Tracing.dataCollected', onTrace);
    const name = path.join(profiling, `page-${way}-${files}-${Date.now()}`);
    await mkdir(profiling, { recursive: true });
    await writeFile(`${name}.cpuprofile`, JSON.stringify(profile));
    await writeFile(`${name}.trace.json`, JSON.stringify(traceEvents));
  }
  const got = await page.evaluate(() => {
    const probe = window.__benchPick as Probe;
    probe.tasks.push(...probe.observer.takeRecords());
    probe.observer.disconnect();
    return {
      eventAt: probe.eventAt ?? Number.NaN,
      listedAt: probe.listedAt as number,
      tasks: probe.tasks.map((t) => ({ startTime: t.startTime, duration: t.duration })),
    };
  });
  const overlapping = (from: number, to: number) => got.tasks.filter((t) => t.startTime + t.duration > from && t.startTime < to);
  const longest = (tasks: TaskEntry[]) => Math.max(0, ...tasks.map((t) => t.duration));
  const during = overlapping(t0, got.listedAt);
  return {
    files,
    longestMs: longest(during),
    longTasks: during.length,
    longestAfterEventMs: longest(during.filter((t) => t.startTime >= got.eventAt)),
    listedMs: got.listedAt - t0,
    eventMs: got.eventAt - t0,
    uploadingLongestMs: longest(overlapping(got.listedAt, got.listedAt + AFTER_MS)),
  };
}

const benchmark: Benchmark = {
  name: 'browser-pick',
  description: 'upload area in Chromium: longest task from picking (上传文件夹) or dropping a folder of 10,000 files until all are listed, vs 100 files',
  goal: { valueMax: LONGEST_TASK_MAX_MS },
  async run(ctx) {
    const large = ctx.quick ? 1000 : 10_000;
    const warm = ctx.quick ? 200 : 1000;
    const runs = ctx.quick ? 1 : 3;
    buildWebIfStale(ctx);
    const root = await ctx.tmpDir('pick');
    const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#c8d8e8' } })
      .jpeg({ quality: 80 })
      .withMetadata({ density: 300 })
      .toBuffer();
    const [server, browser, smallDir, warmDir, largeDir] = await Promise.all([
      startBenchServer(ctx),
      startBrowser(ctx),
      folderOf(root, SMALL, jpeg),
      folderOf(root, warm, jpeg),
      folderOf(root, large, jpeg),
    ]);
    ctx.log(`folders of ${SMALL}, ${warm} and ${large} JPEGs of ${jpeg.length} bytes`);
    const { context, page } = await openBatchUpload(ctx, browser, server);
    const cdp = await context.newCDPSession(page);

    // Warm-up: the upload area's code paths, antd's styles, the JIT; a smaller folder to keep the time.
    ctx.log(`warm-up: drops of ${SMALL} and ${warm} files`);
    await pick(page, cdp, server, 'drop', smallDir, SMALL);
    await pick(page, cdp, server, 'drop', warmDir, warm);
    const small: PickRun[] = [];
    const big: PickRun[] = [];
    const pickedSmall: PickRun[] = [];
    const pickedBig: PickRun[] = [];
    for (let run = 1; run <= runs; run++) {
      ctx.log(`run ${run}/${runs}: drops of ${SMALL} files, then ${large}; the same folders picked through 上传文件夹`);
      small.push(await pick(page, cdp, server, 'drop', smallDir, SMALL));
      big.push(await pick(page, cdp, server, 'drop', largeDir, large));
      pickedSmall.push(await pick(page, cdp, server, 'picker', smallDir, SMALL));
      pickedBig.push(await pick(page, cdp, server, 'picker', largeDir, large));
    }
    ctx.log(`once: ${SMALL} and ${large} files through the folder input (no directory picker)`);
    const inputSmall = await pick(page, cdp, server, 'input', smallDir, SMALL);
    const inputBig = await pick(page, cdp, server, 'input', largeDir, large);
    await page.goto('about:blank');

    const of = (xs: PickRun[], f: (r: PickRun) => number) => xs.map(f);
    /** The goal's row (longest task) and the time to all listed, of one way over the runs. */
    const rowsOf = (way: string, bigRuns: PickRun[], smallRuns: PickRun[]) => {
      const taskFig = median(of(bigRuns, (r) => r.longestMs));
      const taskBase = median(of(smallRuns, (r) => r.longestMs));
      const listedFig = median(of(bigRuns, (r) => r.listedMs));
      const listedBase = median(of(smallRuns, (r) => r.listedMs));
      return [
        {
          metric: `longest task, ${way} of ${large}`,
          figure: { value: taskFig, unit: 'ms' },
          baseline: { value: taskBase, unit: 'ms' },
          ratio: taskFig / taskBase,
          extra: {
            files: `${large} vs ${SMALL} (${jpeg.length}-byte JPEGs, one folder)`,
            runs,
            [`longest task ms per run (${large})`]: perRun(of(bigRuns, (r) => r.longestMs)),
            [`longest task ms per run (${SMALL})`]: perRun(of(smallRuns, (r) => r.longestMs)),
            [`tasks > 50 ms per run (${large})`]: of(bigRuns, (r) => r.longTasks).join(' '),
            [`longest task ms in ${AFTER_MS / 1000} s of uploading after (${large})`]: perRun(of(bigRuns, (r) => r.uploadingLongestMs)),
            'no long task': 'reads 0 (the Long Tasks API reports tasks over 50 ms only)',
          },
        },
        {
          metric: `${way} to all listed`,
          goal: {},
          figure: { value: listedFig, unit: 'ms' },
          baseline: { value: listedBase, unit: 'ms' },
          ratio: listedFig / listedBase,
          extra: {
            [`ms per run (${large})`]: perRun(of(bigRuns, (r) => r.listedMs)),
            [`ms per run (${SMALL})`]: perRun(of(smallRuns, (r) => r.listedMs)),
            measured: `from before the ${way} to the frame whose overall progress reads n/<files> 个文件`,
          },
        },
      ];
    };
    return [
      ...rowsOf('folder picked', pickedBig, pickedSmall),
      ...rowsOf('drop', big, small),
      {
        metric: `longest task, folder input of ${large}`,
        // Not the page's way in Chromium any more (the directory picker is): what a browser without
        // the picker would cost, measured where it can be.
        goal: {},
        figure: { value: inputBig.longestMs, unit: 'ms' },
        baseline: { value: inputSmall.longestMs, unit: 'ms' },
        ratio: inputBig.longestMs / inputSmall.longestMs,
        extra: {
          runs: 1,
          [`pick to change event ms (${large}; Chromium builds the FileList)`]: inputBig.eventMs,
          [`pick to change event ms (${SMALL})`]: inputSmall.eventMs,
          [`longest task after the change event ms (${large}; the page's own)`]: inputBig.longestAfterEventMs,
          [`pick to all listed ms (${large})`]: inputBig.listedMs,
          [`pick to all listed ms (${SMALL})`]: inputSmall.listedMs,
        },
      },
    ];
  },
};
export default benchmark;
