/**
 * Issue #20 item 3 and issue #21 item 2 in the browser, over plain http on the machine's LAN address (not
 * a secure context: no crypto.subtle there):
 * - a folder of 6寸 photos (1795×1205 px at 300 dpi) is suggested 6寸照片冲印 in 推荐产品, and 按推荐匹配
 *   checks the checked row against it;
 * - after 重置, picking the same folder again brings its work back without a byte of it sent: every
 *   file is linked from the bytes the hub already has (counted from the page's own network events), its
 *   hash remembered by the page from the first pick.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { shot } from '../support/browser.ts';
import { watchWire } from '../support/chunks.ts';
import { afterStep, leaveOrderPage, openOrderPage, rowOf, watchRowTop } from '../support/ordering.ts';
import type { RunningServer } from '../support/server.ts';
import { labelledJpeg } from '../support/upload-fixtures.ts';

const TIMEOUT_MS = 45_000;
const PHOTOS = 12;
const SIX_INCH = { width: 1795, height: 1205 };

/** A non-loopback IPv4 address of this machine: a page from it is not a secure context. */
function lanAddress(): string {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

describe('推荐产品 and bytes never sent twice', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;
  let folder: string;
  let photoBytes = 0;
  const host = lanAddress();
  /** What the page sent since the last reset: chunk requests and their body bytes, linkFile calls. */
  let wire: Awaited<ReturnType<typeof watchWire>>;
  const sent = () => {
    const { bytes, chunks, links } = wire.read();
    return { bytes, chunks, links };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(os.tmpdir(), 'portal-dedupe-'));
    folder = join(dir, '海边假期');
    await mkdir(folder);
    for (let i = 1; i <= PHOTOS; i++) {
      const bytes = await labelledJpeg(`第${i}张`, i * 29, SIX_INCH);
      photoBytes += bytes.length;
      await writeFile(join(folder, `IMG_${String(i).padStart(4, '0')}.jpg`), bytes);
    }
    // Watched from the start (before the login).
    ({ server, browser, context, page } = await openOrderPage({
      server: { host },
      beforeLogin: async (opened) => {
        wire = await watchWire(await opened.context.newCDPSession(opened.page));
      },
    }));
  });

  afterEach((ctx) => afterStep(ctx, page, 'suggest'));

  afterAll(() => leaveOrderPage({ context, browser, server }, dir));

  it('the page is served over plain http on a LAN address, without crypto.subtle', async () => {
    expect(server.url).toContain(host);
    const secure = await page.evaluate(() => [globalThis.isSecureContext, typeof globalThis.crypto?.subtle]);
    expect(secure).toEqual(host === '127.0.0.1' ? [true, 'object'] : [false, 'undefined']);
  });

  it('a folder of 1795×1205 px photos at 300 dpi is suggested 6寸, and 按推荐匹配 checks it', async () => {
    // The row stays where it appeared while 推荐产品 works out its suggestion: the panel came SETTLE_MS after the
    // row, above the table, and pushed the rows 95 px down under a customer's click (a lost check in CI).
    const tops = watchRowTop(page, '海边假期', 3_000);
    await page.getByTestId('upload-folder-input').setInputFiles(folder);
    const row = rowOf(page, '海边假期');
    await row.waitFor({ timeout: TIMEOUT_MS });
    const panel = page.locator('.ant-card').filter({ has: page.getByText('推荐产品', { exact: true }) });
    await panel.getByText('6寸照片冲印（光面，无边框）').waitFor({ timeout: TIMEOUT_MS });
    expect(await tops).toHaveLength(1);
    expect(await panel.getByText('尺寸吻合').isVisible()).toBe(true);
    // One line per suggested SKU, not per work.
    expect(await panel.getByTestId('suggest-group').allInnerTexts()).toEqual([expect.stringMatching(/6寸照片冲印（光面，无边框）\s*尺寸吻合\s*· 1个作品/)]);
    // Every byte of the first pick was sent.
    const first = sent();
    expect(first.chunks).toBe(PHOTOS);
    expect(first.bytes).toBeGreaterThan(photoBytes);
    expect(first.links).toBe(0);
    await shot(page, 'suggest-panel');

    // 按推荐匹配 with nothing checked says so; with the row checked, it is checked against 6寸.
    await panel.getByRole('button', { name: '按推荐匹配' }).click();
    await page.locator('.ant-message').getByText('请先勾选要按推荐匹配的作品（可点击“勾选这些作品”）').waitFor();
    // 勾选这些作品 checks the group's rows in the order table.
    await panel.getByTestId('suggest-group').getByRole('button', { name: '勾选这些作品' }).click();
    await expect.poll(() => row.getByRole('checkbox').isChecked()).toBe(true);
    await panel.getByRole('button', { name: '按推荐匹配' }).click();
    await row.getByText('已匹配', { exact: true }).waitFor({ timeout: TIMEOUT_MS });
    expect(await row.getByText('6寸照片冲印').first().isVisible()).toBe(true);
    // Every work has a product now: the panel says so at its height, and 按推荐匹配 rests.
    await panel.getByText('所有作品都已选择产品').waitFor();
    expect(await panel.getByRole('button', { name: '按推荐匹配' }).isDisabled()).toBe(true);
    await shot(page, 'suggest-applied');
  });

  it('after 重置, the same folder picked again comes back without a byte sent', async () => {
    await page.getByRole('button', { name: '重置' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '确定' }).click();
    await expect.poll(() => page.locator('.ant-table-row').count(), { timeout: 10_000 }).toBe(0);
    wire.reset();

    await page.getByTestId('upload-folder-input').setInputFiles(folder);
    const row = rowOf(page, '海边假期');
    await row.waitFor({ timeout: TIMEOUT_MS });
    expect(await row.getByText(`${PHOTOS}个文件`).isVisible()).toBe(true);
    expect(sent()).toEqual({ bytes: 0, chunks: 0, links: PHOTOS });
    // Their hashes came from what the page remembered of the first pick (IndexedDB, over plain http).
    const remembered = await page.evaluate(() => new Promise<number>((resolve, reject) => {
      const open = indexedDB.open('portal-file-hashes');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const count = open.result.transaction('sha256').objectStore('sha256').count();
        count.onsuccess = () => resolve(count.result);
        count.onerror = () => reject(count.error);
      };
    }));
    expect(remembered).toBe(PHOTOS);
    // The linked files are the customer's: the preview shows them.
    await page.locator('.ant-message').getByText('上传成功').first().waitFor({ timeout: TIMEOUT_MS });
    await shot(page, 'dedupe-repick');
  });
});
