/**
 * Issue #20 item 3 and issue #21 item 2 in the browser, over plain http on the machine's LAN address (not
 * a secure context: no crypto.subtle there):
 * - a folder of 6寸 photos (1795×1205 px at 300 dpi) is suggested 6寸照片冲印 in 推荐产品, and 按推荐匹配
 *   checks the checked row against it;
 * - after 重置, picking the same folder again brings its work back without a byte of it sent: every
 *   file is linked from the bytes the hub already has (counted from the page's own network events).
 */
import type { Browser, BrowserContext, CDPSession, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { launchBrowser, login, newPage, shot } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
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

const workRow = (page: Page, name: string): Locator =>
  page.locator('.ant-table-row').filter({ has: page.getByTestId('work-name').getByText(name, { exact: true }) });

describe('推荐产品 and bytes never sent twice', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;
  let folder: string;
  let photoBytes = 0;
  const host = lanAddress();
  /** Body bytes of chunk requests (POST /api/files/updateFile) and the number of linkFile calls, since the last reset. */
  const sent = { chunkBytes: 0, chunkRequests: 0, links: 0 };
  /** The counting of finished requests (reading a request's headers is asynchronous): awaited before the counts are read. */
  const counting: Array<Promise<void>> = [];
  const counted = async () => {
    await Promise.all(counting);
    return { ...sent };
  };
  /**
   * Body bytes of the chunk requests as the browser's network layer sent them: the Content-Length of the
   * headers it put on the wire (the DevTools protocol's Network.requestWillBeSentExtraInfo). Playwright
   * does not hand out a body that holds a Blob.
   */
  let cdp: CDPSession;
  const wireLength = new Map<string, number>();
  const posts = new Map<string, string>();
  const onFinished = async (req: Request) => {
    const path = new URL(req.url()).pathname;
    if (req.method() !== 'POST') return;
    if (path === '/api/files/updateFile') {
      sent.chunkRequests++;
      // counted from the DevTools protocol's events below
    }
    if (path === '/api/files/linkFile') sent.links++;
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
    [server, browser] = await Promise.all([startServer({ host }), launchBrowser()]);
    ({ context, page } = await newPage(browser));
    cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const chunkLength = (id: string) => {
      const length = wireLength.get(id);
      if (length === undefined || !posts.has(id)) return;
      wireLength.delete(id);
      posts.delete(id);
      sent.chunkBytes += length;
    };
    cdp.on('Network.requestWillBeSent', (e: { requestId: string; request: { url: string; method: string } }) => {
      if (e.request.method === 'POST' && new URL(e.request.url).pathname === '/api/files/updateFile') {
        posts.set(e.requestId, e.request.url);
        chunkLength(e.requestId);
      }
    });
    cdp.on('Network.requestWillBeSentExtraInfo', (e: { requestId: string; headers: Record<string, string> }) => {
      const length = Object.entries(e.headers).find(([k]) => k.toLowerCase() === 'content-length')?.[1];
      if (length === undefined) return;
      wireLength.set(e.requestId, Number(length));
      chunkLength(e.requestId);
    });
    page.on('requestfinished', (req) => counting.push(onFinished(req)));
    await login(page, server.url, 'demo', 'demo');
    await page.getByRole('heading', { name: '批量上传下单' }).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the page is served over plain http on a LAN address, without crypto.subtle', async () => {
    expect(server.url).toContain(host);
    const secure = await page.evaluate(() => [globalThis.isSecureContext, typeof globalThis.crypto?.subtle]);
    expect(secure).toEqual(host === '127.0.0.1' ? [true, 'object'] : [false, 'undefined']);
  });

  it('a folder of 1795×1205 px photos at 300 dpi is suggested 6寸, and 按推荐匹配 checks it', async () => {
    await page.getByTestId('upload-folder-input').setInputFiles(folder);
    const row = workRow(page, '海边假期');
    await row.waitFor({ timeout: TIMEOUT_MS });
    const panel = page.locator('.ant-card').filter({ has: page.getByText('推荐产品', { exact: true }) });
    await panel.getByText('6寸照片冲印（光面，无边框）').waitFor({ timeout: TIMEOUT_MS });
    expect(await panel.getByText('尺寸吻合').isVisible()).toBe(true);
    // Every byte of the first pick was sent.
    const first = await counted();
    expect(first.chunkRequests).toBe(PHOTOS);
    expect(first.chunkBytes).toBeGreaterThan(photoBytes);
    expect(first.links).toBe(0);
    await shot(page, 'suggest-panel');

    // 按推荐匹配 with nothing checked says so; with the row checked, it is checked against 6寸.
    await panel.getByRole('button', { name: '按推荐匹配' }).click();
    await page.locator('.ant-message').getByText('请选择订单').waitFor();
    await row.getByRole('checkbox').check();
    await panel.getByRole('button', { name: '按推荐匹配' }).click();
    await row.getByText('已匹配', { exact: true }).waitFor({ timeout: TIMEOUT_MS });
    expect(await row.getByText('6寸照片冲印').first().isVisible()).toBe(true);
    // Every work has a product now: the panel leaves.
    await expect.poll(() => panel.count()).toBe(0);
    await shot(page, 'suggest-applied');
  });

  it('after 重置, the same folder picked again comes back without a byte sent', async () => {
    await page.getByRole('button', { name: '重置' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '确定' }).click();
    await expect.poll(() => page.locator('.ant-table-row').count(), { timeout: 10_000 }).toBe(0);
    await counted();
    Object.assign(sent, { chunkBytes: 0, chunkRequests: 0, links: 0 });

    await page.getByTestId('upload-folder-input').setInputFiles(folder);
    const row = workRow(page, '海边假期');
    await row.waitFor({ timeout: TIMEOUT_MS });
    expect(await row.getByText(`${PHOTOS}个文件`).isVisible()).toBe(true);
    expect(await counted()).toEqual({ chunkBytes: 0, chunkRequests: 0, links: PHOTOS });
    // The linked files are the customer's: the preview shows them.
    await page.locator('.ant-message').getByText('上传成功').first().waitFor({ timeout: TIMEOUT_MS });
    await shot(page, 'dedupe-repick');
  });
});
