/**
 * Measures the order table with N works without uploading N files: the page, opened with
 * `?portalTest`, offers `window.__portalTest` (apps/web/src/features/works-table/components/test-hook.ts),
 * whose `addWorks` puts synthetic rows into the works store. Used by e2e/tests/order.test.ts (2,000
 * rows stay a screenful in the DOM) and by bench/benchmarks/browser-rows.ts (render and scroll
 * times of 2,000 rows against 20).
 */
import type { Page } from 'playwright-core';
import { login } from './browser.ts';

// The functions passed to page.evaluate run in the browser; e2e compiles without the DOM library,
// so the little of it they use is declared here (module scope: nothing leaks to other files).
interface El {
  clientHeight: number;
  scrollHeight: number;
  scrollTop: number;
  value: string;
  focus(): void;
  blur(): void;
  dispatchEvent(event: unknown): boolean;
}
declare const window: { __portalTest?: Hook };
declare const document: { querySelectorAll(selector: string): { length: number }; querySelector(selector: string): El | null };
declare function requestAnimationFrame(callback: (time: number) => void): number;
declare const Event: new (type: string, init?: { bubbles?: boolean }) => unknown;
declare const HTMLInputElement: { prototype: object };
interface TaskEntry {
  startTime: number;
  duration: number;
}
declare const PerformanceObserver: new (callback: (list: { getEntries(): TaskEntry[] }) => void) => {
  observe(options: { type: string; buffered?: boolean }): void;
  takeRecords(): TaskEntry[];
  disconnect(): void;
};

interface Hook {
  addWorks(rows: unknown[]): number;
  clearWorks(): void;
  rowCount(): number;
}

/** A matched 5寸 photo work, as the table shows one after a passing check. */
export function syntheticWorks(count: number, prefix = '合成作品'): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(5, '0');
    const uuid = `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;
    return {
      uuid,
      articleName: `${prefix}${n}`,
      filePath: `upload/synthetic/${prefix}${n}.jpg`,
      fileName: `${prefix}${n}.jpg`,
      files: [{ fileName: `${prefix}${n}.jpg`, filePath: `upload/synthetic/${prefix}${n}.jpg`, component: null, width: 1500, height: 1051, dpi: 300, pages: 1 }],
      quantity: 1 + (i % 3),
      pageCount: 1,
      addPageNum: 0,
      state: i % 10 === 9 ? 'unmatch' : 'match',
      productId: 1,
      productName: '5寸照片冲印',
      propertyConfigId: 1,
      sku: '相纸:光面;边框:无边框',
      components: [{ componentName: '照片', width: 127, height: 89, count: 1 }],
      fileArea: 0.0113,
      toning: 'None',
      customToning: true,
    };
  });
}

export interface WorksTableTiming {
  rows: number;
  /** From addWorks to the second animation frame with rows in the DOM. */
  renderMs: number;
  /** Rows in the DOM after rendering: what virtualisation keeps small. */
  domRows: number;
  /** Frames while the body is scrolled from top to bottom in steps (0 when not scrolled). */
  scrollFrames: number;
  /** From the first step to the frame after the last. */
  scrollMs: number;
  scrollFrameMedianMs: number;
  scrollFrameP95Ms: number;
  scrollFrameMaxMs: number;
  /** Main-thread tasks over 50 ms while scrolling (Long Tasks API), and the longest (0 when none). */
  scrollLongTasks: number;
  scrollLongestTaskMs: number;
  /** Rows in the DOM at the bottom of the table. */
  domRowsAtBottom: number;
  /** Synchronous work of one keystroke in a 订购数量 input (event handling and React's render), median of 20. */
  keystrokeMedianMs: number;
  keystrokeMaxMs: number;
}

export interface MeasureOptions {
  /**
   * Scroll the body from top to bottom, one step per animation frame: 'half' a body height per
   * step (the default), 'page' a whole body height (every frame brings a screenful of new rows),
   * or false not to scroll.
   */
  scroll?: 'half' | 'page' | false;
  /** At least this many scroll steps: a short table is scrolled down and up again until then (default 0). */
  minSteps?: number;
  /** Time 20 keystrokes in the first row's 订购数量 (default true). */
  keystrokes?: boolean;
}

/** Is the test door open? (The page must have been opened with `?portalTest`.) */
export async function hasTestHook(page: Page): Promise<boolean> {
  return page.evaluate(() => Boolean(window.__portalTest));
}

/**
 * Logs in as demo and opens 批量上传下单 with `?portalTest`, drawn whole (its toolbar is there once
 * the page's modules ran, so the test door would be open by then); answers whether it is.
 */
export async function openWithTestHook(page: Page, url: string): Promise<boolean> {
  await login(page, url, 'demo', 'demo');
  await page.getByRole('heading', { name: '批量上传下单' }).waitFor();
  await page.goto(`${url}/batch-upload?portalTest`);
  await page.getByRole('heading', { name: '批量上传下单' }).waitFor();
  await page.getByRole('button', { name: '选择产品', exact: true }).waitFor();
  return hasTestHook(page);
}

/** Replaces the table's rows with `count` synthetic works and times the table. */
export async function measureWorksTable(page: Page, count: number, options: MeasureOptions = {}): Promise<WorksTableTiming> {
  const rows = syntheticWorks(count);
  await page.evaluate(() => window.__portalTest?.clearWorks());
  await page.waitForFunction(() => document.querySelectorAll('.ant-table-row').length === 0);
  const scroll = options.scroll ?? 'half';
  const keystrokes = options.keystrokes ?? true;
  const minSteps = options.minSteps ?? 0;

  return page.evaluate(async ({ data, scroll, keystrokes, minSteps }) => {
    const hook = window.__portalTest;
    if (!hook) throw new Error('open the page with ?portalTest');
    const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
    const stats = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
      return { median: at(0.5), p95: at(0.95), max: s.at(-1) ?? 0 };
    };
    const round = (x: number) => Math.round(x * 10) / 10;

    const t0 = performance.now();
    hook.addWorks(data);
    while (document.querySelectorAll('.ant-table-row').length === 0) await frame();
    await frame();
    await frame();
    const renderMs = performance.now() - t0;
    const domRows = document.querySelectorAll('.ant-table-row').length;

    const holder = document.querySelector('.ant-table-tbody-virtual-holder') ?? document.querySelector('.ant-table-body');
    const frames: number[] = [];
    const tasks: TaskEntry[] = [];
    let scrollMs = 0;
    let domRowsAtBottom = 0;
    if (holder && scroll) {
      // Buffered: tasks are reported a little after they end; takeRecords() collects the rest.
      const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
      observer.observe({ type: 'longtask', buffered: true });
      const step = scroll === 'page' ? Math.max(120, holder.clientHeight) : Math.max(120, holder.clientHeight / 2);
      const s0 = await frame();
      let last = s0;
      // Until the bottom (the height is read again each step, as the list measures its rows),
      // then down and up again while fewer than minSteps steps were taken.
      let top = 0;
      let down = true;
      for (;;) {
        const bottom = holder.scrollHeight - holder.clientHeight;
        top = down ? Math.min(bottom, top + step) : Math.max(0, top - step);
        holder.scrollTop = top;
        holder.dispatchEvent(new Event('scroll'));
        const now = await frame();
        frames.push(now - last);
        last = now;
        if (top >= bottom && frames.length >= minSteps) break;
        if (top >= bottom || top <= 0) down = !down;
      }
      await frame();
      scrollMs = last - s0;
      domRowsAtBottom = document.querySelectorAll('.ant-table-row').length;
      tasks.push(...observer.takeRecords());
      observer.disconnect();
      // Only the tasks that overlap the scroll (the buffer holds older ones).
      const during = tasks.filter((t) => t.startTime + t.duration > s0 && t.startTime < last);
      tasks.length = 0;
      tasks.push(...during);
      holder.scrollTop = 0;
      holder.dispatchEvent(new Event('scroll'));
      await frame();
      await frame();
    }
    const scrolled = stats(frames);

    const input = keystrokes ? document.querySelector('.ant-table-row input[aria-label="订购数量"]') : null;
    const keys: number[] = [];
    if (input) {
      // React tracks the value: set it the way the browser does, then tell it with an input event.
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      input.focus();
      for (let i = 0; i < 20; i++) {
        const k0 = performance.now();
        setValue?.call(input, String(2 + (i % 5)));
        input.dispatchEvent(new Event('input', { bubbles: true }));
        keys.push(performance.now() - k0);
        await frame();
      }
      input.blur();
    }
    const key = stats(keys);
    return {
      rows: hook.rowCount(),
      renderMs: round(renderMs),
      domRows,
      scrollFrames: frames.length,
      scrollMs: round(scrollMs),
      scrollFrameMedianMs: round(scrolled.median),
      scrollFrameP95Ms: round(scrolled.p95),
      scrollFrameMaxMs: round(scrolled.max),
      scrollLongTasks: tasks.length,
      scrollLongestTaskMs: round(Math.max(0, ...tasks.map((t) => t.duration))),
      domRowsAtBottom,
      keystrokeMedianMs: round(key.median),
      keystrokeMaxMs: round(key.max),
    };
  }, { data: rows, scroll, keystrokes, minSteps });
}
