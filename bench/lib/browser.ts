/**
 * The web app in headless Chromium for a benchmark: builds apps/web's e2e build (the app plus the test
 * hook, apps/web/dist-e2e, which the e2e harness's server serves) when its sources are newer, launches
 * the system Chromium the way the e2e tests do (e2e/support/browser.ts), and opens 批量上传下单 logged in as demo/demo.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, login, newPage } from '../../e2e/support/browser.ts';
import type { BenchServer } from './server.ts';
import type { BenchContext } from './types.ts';

// freshBatchUpload's function runs in the page; the bench compiles without the DOM library.
declare const document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; disabled: boolean }> };

/**
 * `scripts/build-web-if-stale.mjs`: a build only when apps/web/src (or the contract) changed. The e2e build
 * (apps/web/dist-e2e, with the test hook) unless `production` asks for what a shop serves (apps/web/dist).
 */
export function buildWebIfStale(ctx: BenchContext, options: { production?: boolean } = {}): string {
  const t0 = performance.now();
  const out = execFileSync(process.execPath, [path.join(ctx.repoRoot, 'scripts', 'build-web-if-stale.mjs'), ...(options.production ? [] : ['--e2e'])], {
    cwd: ctx.repoRoot,
    encoding: 'utf8',
    // The build's log would land in the table's stdout: keep it, and say one line.
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const dist = options.production ? 'dist' : 'dist-e2e';
  if (out.trim()) ctx.log(`built apps/web/${dist} (stale or missing) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return path.join(ctx.repoRoot, 'apps', 'web', dist);
}

/** Headless Chromium, closed when the benchmark ends. */
export async function startBrowser(ctx: BenchContext): Promise<Browser> {
  const browser = await launchBrowser();
  ctx.defer(() => browser.close());
  return browser;
}

export const BATCH_UPLOAD_HEADING = '批量上传下单';

/**
 * A fresh /batch-upload with an empty batch, ready for a pick: the last run's uploads stopped by
 * leaving the page, then the login's open draft closed (重置's call), or the page would restore the
 * last run's batch (issue #21 item 3: its works listed at once, its files known) and time nothing.
 * 上传文件夹 is enabled once the account (its hub) is known, and a pick before that is ignored.
 */
export async function freshBatchUpload(page: Page, server: BenchServer): Promise<void> {
  await page.goto('about:blank');
  await closeOpenDraft(server);
  await page.goto(`${server.url}/batch-upload`);
  await page.getByRole('heading', { name: BATCH_UPLOAD_HEADING }).waitFor();
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('button')).some((b) => (b.textContent ?? '').includes('上传文件夹') && !b.disabled),
  );
}

/** Closes the bench login's open batch draft, if any (DELETE /api/batch-drafts/{id}, as 重置 does). */
export async function closeOpenDraft(server: BenchServer): Promise<void> {
  const open = await server.call<{ draft: { id: number } | null }>('GET', '/api/batch-drafts/open');
  if (open.draft) await server.call('DELETE', `/api/batch-drafts/${open.draft.id}`);
}

/** A task of the Long Tasks API (PerformanceObserver, type longtask), as a page function sees it. */
export interface LongTask {
  startTime: number;
  duration: number;
}
/** The PerformanceObserver a page function watches long tasks with. */
export interface LongTaskObserver {
  observe(options: { type: string; buffered?: boolean }): void;
  takeRecords(): LongTask[];
  disconnect(): void;
}

/**
 * A fresh context logged in as demo/demo, on /batch-upload with `query` (e.g. `?portalTest`),
 * the page's heading shown. Closed when the benchmark ends.
 */
export async function openBatchUpload(
  ctx: BenchContext,
  browser: Browser,
  server: BenchServer,
  query = '',
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser, { motion: true });
  ctx.defer(() => context.close());
  // The bench runs under tsx, whose esbuild keeps function names with a `__name(fn, 'name')` helper
  // call inside every named arrow; functions handed to page.evaluate carry those calls into the page.
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  await login(page, server.url, 'demo', 'demo');
  await page.getByRole('heading', { name: BATCH_UPLOAD_HEADING }).waitFor();
  if (query) {
    await page.goto(`${server.url}/batch-upload${query}`);
    await page.getByRole('heading', { name: BATCH_UPLOAD_HEADING }).waitFor();
  }
  return { context, page };
}
