/**
 * The order table in headless Chromium with 2,000 works against 20: the time to render them, and
 * the longest main-thread task (Long Tasks API) while the body is scrolled from top to bottom, a
 * body height per animation frame (20 rows: down and up again for BASELINE_STEPS steps). The rows
 * are synthetic (`window.__portalTest`, the page opened with `?portalTest`;
 * e2e/support/works-bench.ts), so no file is uploaded.
 */
import { hasTestHook, measureWorksTable, type WorksTableTiming } from '../../e2e/support/works-bench.ts';
import { buildWebIfStale, openBatchUpload, startBrowser } from '../lib/browser.ts';
import { startBenchServer } from '../lib/server.ts';
import { median } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';
import { perRun } from '../lib/format.ts';

const SMALL = 20;
const RENDER_RATIO_MAX = 3;
const LONGEST_TASK_MAX_MS = 100;
const BASELINE_STEPS = 40;

const benchmark: Benchmark = {
  name: 'browser-rows',
  description: 'order table in Chromium: render 2,000 works vs 20, and the longest task while scrolling them top to bottom',
  goal: { ratioMax: RENDER_RATIO_MAX },
  async run(ctx) {
    const large = ctx.quick ? 200 : 2000;
    const runs = ctx.quick ? 1 : 3;
    const baselineSteps = ctx.quick ? 10 : BASELINE_STEPS;
    buildWebIfStale(ctx);
    const [server, browser] = await Promise.all([startBenchServer(ctx), startBrowser(ctx)]);
    const { page } = await openBatchUpload(ctx, browser, server, '?portalTest');
    if (!(await hasTestHook(page))) throw new Error('window.__portalTest is missing: the page did not take ?portalTest');

    // 20 rows are a scroll of two steps: the baseline scrolls them down and up again for
    // BASELINE_STEPS steps, each a screenful of rows mounted, as every step of the 2,000 is.
    const measure = (count: number) =>
      measureWorksTable(page, count, { scroll: 'page', keystrokes: false, minSteps: count === SMALL ? baselineSteps : 0 });
    // Warm-up: the table's code paths, the JIT, antd's style cache; not counted.
    ctx.log(`warm-up: ${SMALL} and ${large} rows`);
    await measure(SMALL);
    await measure(large);
    const small: WorksTableTiming[] = [];
    const big: WorksTableTiming[] = [];
    for (let run = 1; run <= runs; run++) {
      ctx.log(`run ${run}/${runs}: ${SMALL} rows, then ${large}`);
      small.push(await measure(SMALL));
      const got = await measure(large);
      if (got.rows !== large) throw new Error(`the table holds ${got.rows} rows, not ${large}`);
      big.push(got);
    }
    await page.evaluate(() => (globalThis as { __portalTest?: { clearWorks(): void } }).__portalTest?.clearWorks());

    const pick = (xs: WorksTableTiming[], f: (t: WorksTableTiming) => number) => xs.map(f);
    const renderFig = median(pick(big, (t) => t.renderMs));
    const renderBase = median(pick(small, (t) => t.renderMs));
    const taskFig = median(pick(big, (t) => t.scrollLongestTaskMs));
    const taskBase = median(pick(small, (t) => t.scrollLongestTaskMs));
    const last = big.at(-1) as WorksTableTiming;
    return [
      {
        metric: `render ${large} works`,
        figure: { value: renderFig, unit: 'ms' },
        baseline: { value: renderBase, unit: 'ms' },
        ratio: renderFig / renderBase,
        extra: {
          rows: `${large} vs ${SMALL}`,
          runs,
          [`render ms (${large})`]: perRun(pick(big, (t) => t.renderMs)),
          [`render ms (${SMALL})`]: perRun(pick(small, (t) => t.renderMs)),
          [`DOM rows (${large})`]: last.domRows,
          measured: 'addWorks to the second animation frame with rows in the DOM',
        },
      },
      {
        metric: 'longest task scrolling',
        goal: { valueMax: LONGEST_TASK_MAX_MS },
        figure: { value: taskFig, unit: 'ms' },
        baseline: { value: taskBase, unit: 'ms' },
        ratio: taskFig / taskBase,
        extra: {
          step: `one body height per animation frame, top to bottom (${SMALL} rows: down and up for ${baselineSteps} steps)`,
          [`longest task ms per run (${large})`]: perRun(pick(big, (t) => t.scrollLongestTaskMs)),
          [`longest task ms per run (${SMALL})`]: perRun(pick(small, (t) => t.scrollLongestTaskMs)),
          [`tasks > 50 ms per run (${large})`]: pick(big, (t) => t.scrollLongTasks).join(' '),
          [`frames (${large})`]: last.scrollFrames,
          [`frames (${SMALL})`]: (small.at(-1) as WorksTableTiming).scrollFrames,
          [`scroll s (${large})`]: median(pick(big, (t) => t.scrollMs)) / 1000,
          [`frame ms p50/p95/max (${large})`]: `${last.scrollFrameMedianMs}/${last.scrollFrameP95Ms}/${last.scrollFrameMaxMs}`,
          [`DOM rows at the bottom (${large})`]: last.domRowsAtBottom,
          'no long task': 'reads 0 (the Long Tasks API reports tasks over 50 ms only)',
        },
      },
    ];
  },
};
export default benchmark;
