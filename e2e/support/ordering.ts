/**
 * Steps of the batch order page shared by the e2e specs (order.test.ts, admin.test.ts): upload works,
 * choose 5寸照片冲印, wait for toasts.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

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

/** Uploads `paths` (one work each) and waits for their rows. */
export async function upload(page: Page, paths: string[], names: string[]): Promise<void> {
  const before = await page.locator('.ant-table-row').count();
  await page.getByTestId('upload-files-input').setInputFiles(paths);
  await expect.poll(() => page.locator('.ant-table-row').count(), { timeout: 30_000 }).toBe(before + paths.length);
  for (const name of names) await rowOf(page, name).waitFor();
}

/** Checks `rows`, chooses 5寸照片冲印 (光面, 无边框) for them and waits for the checks to settle. */
export async function chooseFivePrint(page: Page, rows: Locator[]): Promise<void> {
  for (const row of rows) await row.getByRole('checkbox').check();
  await page.getByRole('button', { name: '选择产品', exact: true }).click();
  const picker = page.getByRole('dialog', { name: '选择产品' });
  await picker.getByRole('button', { name: '5寸照片冲印' }).click();
  const details = page.getByRole('dialog', { name: '商品详情' });
  for (const option of [/^光面/, /^无边框/]) {
    const button = details.getByRole('button', { name: option });
    // A work that has the product already opens with its options chosen: clicking again would deselect.
    if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  }
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
