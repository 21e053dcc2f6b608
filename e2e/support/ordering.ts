/**
 * Steps of the batch order page shared by the e2e specs: the demo customer on 批量上传下单 of a server of
 * the spec's own (and all of it closed after), the order table's rows, uploads, 5寸照片冲印, toasts.
 */
import { rm } from 'node:fs/promises';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { closeLeftovers, launchBrowser, login, newPage, shot } from './browser.ts';
import { openProduct } from './picker.ts';
import { startServer, type RunningServer, type StartServerOptions } from './server.ts';

export interface OrderPage {
  server: RunningServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * Starts a server (with `server`'s options) and a browser, and logs demo/demo in on 批量上传下单.
 * `beforeLogin` runs once the server answers and the page is open (a catalogue set up in the database,
 * a DevTools session that watches the page's requests).
 */
export async function openOrderPage(options: { server?: StartServerOptions; beforeLogin?: (opened: OrderPage) => Promise<void>; motion?: boolean } = {}): Promise<OrderPage> {
  const [server, browser] = await Promise.all([startServer(options.server), launchBrowser()]);
  const { context, page } = await newPage(browser, { motion: options.motion ?? false });
  const opened = { server, browser, context, page };
  await options.beforeLogin?.(opened);
  await login(page, server.url, 'demo', 'demo');
  await page.getByRole('heading', { name: '批量上传下单' }).waitFor();
  return opened;
}

/** A page of its own in `browser`, logged in as `user` (whose password is its name, as the demo logins' are) on 批量上传下单. */
export async function loggedIn(browser: Browser, url: string, user: string): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser);
  await login(opened.page, url, user, user);
  await opened.page.getByRole('heading', { name: '批量上传下单' }).waitFor();
  return opened;
}

/** After a test: a picture of the page when it failed (e2e/artifacts/<name>-failed-<test>.png), and whatever it left open closed. */
export async function afterStep(ctx: { task: { name: string; result?: { state?: string } } }, page: Page | undefined, name: string): Promise<void> {
  if (!page) return;
  if (ctx.task.result?.state === 'fail') await shot(page, `${name}-failed-${ctx.task.name.slice(0, 16)}`).catch(() => undefined);
  await closeLeftovers(page);
}

/** Closes what `openOrderPage` opened (whatever of it a failed start left) and deletes the spec's folder of files. */
export async function leaveOrderPage(opened: Partial<OrderPage>, dir?: string): Promise<void> {
  await opened.context?.close();
  await opened.browser?.close();
  await opened.server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** The order table's rows of works with this name. */
export const rowsOf = (page: Page, name: string): Locator =>
  page.locator('.ant-table-row').filter({ has: page.getByTestId('work-name').getByText(name, { exact: true }) });
export const rowOf = (page: Page, name: string): Locator => rowsOf(page, name).first();

export async function toast(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();
}

/** Closes the toasts on screen, so the next wait cannot be satisfied by an old one. */
export async function clearToasts(page: Page): Promise<void> {
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 6_000 }).catch(() => undefined);
}

/** The order table's rows of works (not the 预检 rows of items still uploading, which have no work name). */
export const workRows = (page: Page): Locator => page.locator('.ant-table-row').filter({ has: page.getByTestId('work-name') });

/** Uploads `paths` (one work each) and waits for their rows. */
export async function upload(page: Page, paths: string[], names: string[]): Promise<void> {
  const before = await workRows(page).count();
  await page.getByTestId('upload-files-input').setInputFiles(paths);
  await expect.poll(() => workRows(page).count(), { timeout: 30_000 }).toBe(before + paths.length);
  await expect.poll(() => page.getByTestId('preflight-name').count(), { timeout: 30_000 }).toBe(0);
  for (const name of names) await rowOf(page, name).waitFor();
}

/** Checks `rows`, chooses 5寸照片冲印 (光面, 无边框) for them and waits for the checks to settle. */
export async function chooseFivePrint(page: Page, rows: Locator[]): Promise<void> {
  for (const row of rows) await row.getByRole('checkbox').check();
  const opener = page.getByRole('button', { name: '选择产品', exact: true });
  const details = await openProduct(page, opener, { product: '5寸照片冲印', options: ['光面', '无边框'] });
  // 确定 again while the dialog is still up: on a loaded machine a click during the dialog's opening
  // was seen to do nothing (1 run in 4), as a customer would click again. A refusal would stay up and fail.
  await expect.poll(async () => {
    if (await details.isVisible()) await details.getByRole('button', { name: '确定' }).click({ timeout: 5_000 }).catch(() => undefined);
    return details.isVisible();
  }, { timeout: 30_000, interval: 2_000 }).toBe(false);
  for (const row of rows) {
    await expect.poll(() => row.getByTestId('work-state').getAttribute('data-state'), { timeout: 30_000 }).not.toBe('unmatch');
  }
  for (const row of rows) await row.getByRole('checkbox').uncheck();
  // The success entries leave by themselves.
  await expect.poll(() => page.locator('[role="listitem"][data-status="start"], [role="listitem"][data-status="success"]').count(), { timeout: 15_000 }).toBe(0);
}

// page.evaluate callbacks run in the browser; e2e compiles without the DOM library.
declare const document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; closest(s: string): { getBoundingClientRect(): { top: number } } | null }> };
declare const requestAnimationFrame: (callback: () => void) => number;

/**
 * Where the row of the work `name` stands on screen (its top, px) from the frame it appears in until
 * `ms` later, every frame: one value when nothing above the order table pushed it. Start it before the
 * pick that brings the row; a customer's click on the row in that time lands where the row was.
 */
export function watchRowTop(page: Page, name: string, ms: number): Promise<number[]> {
  return page.evaluate(({ name, ms }) => new Promise<number[]>((resolve) => {
    const tops: number[] = [];
    let since: number | undefined;
    const tick = () => {
      const cell = Array.from(document.querySelectorAll('[data-testid="work-name"]')).find((el) => el.textContent === name);
      const top = cell?.closest('.ant-table-row')?.getBoundingClientRect().top;
      if (top !== undefined) {
        since ??= performance.now();
        if (tops.at(-1) !== Math.round(top)) tops.push(Math.round(top));
      }
      if (since !== undefined && performance.now() - since > ms) resolve(tops);
      else requestAnimationFrame(tick);
    };
    tick();
  }), { name, ms });
}
