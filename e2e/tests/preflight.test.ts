/**
 * Issue #21 item 1: the browser measures picked images and PDFs as they are picked (Web Workers running
 * @portal/measure, and @portal/measure/pdf on @cantoo/pdf-lib for a PDF's page tree) and the order
 * table shows their sizes and pages at once, while the bytes are still on their way (the upload
 * throttled with the DevTools protocol); the server's row replaces it when the item's parse answers.
 * While the 预检 rows are looked at, the chunk requests are also held where they are routed (holdChunks):
 * on a loaded machine a small file sent in a few seconds had its server row replace its 预检 row before
 * the test could choose its product.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { degrees, PDFDocument } from '@cantoo/pdf-lib';
import { measureImage, bytesSource } from '@portal/measure';
import { launchBrowser, login, newPage, shot } from '../support/browser.ts';
import { repoRoot, startServer, type RunningServer } from '../support/server.ts';
import { FIVE_INCH, labelledJpeg } from '../support/upload-fixtures.ts';
import { chooseProduct } from '../support/picker.ts';

const CAMERA_PHOTO = join(repoRoot, 'apps/server/test/fixtures/camera/Canon_PowerShot_S40.jpg');

/** Holds every chunk request until the answer's release() (then they go on, and the route is removed). */
async function holdChunks(page: Page): Promise<{ release: () => Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const handler = async (route: Route) => {
    await gate;
    await route.continue().catch(() => undefined);
  };
  await page.route('**/api/files/updateFile', handler);
  return {
    release: async () => {
      open();
      await page.unroute('**/api/files/updateFile', handler);
    },
  };
}

describe('preflight in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    [server, browser, dir] = await Promise.all([startServer(), launchBrowser(), mkdtemp(join(tmpdir(), 'portal-preflight-'))]);
    ({ context, page } = await newPage(browser));
    await login(page, server.url, 'demo', 'demo');
    await page.getByRole('heading', { name: '批量上传下单' }).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a picked folder shows its sizes and pages before its upload finishes, its 预检 verdict once a product is chosen, then the server row replaces it', async () => {
    const folder = join(dir, '预检相册');
    const camera = join(dir, '相机照片');
    await mkdir(folder);
    await mkdir(camera);
    for (let i = 1; i <= 6; i++) await writeFile(join(folder, `${i}.jpg`), await labelledJpeg(`预${i}`, i * 50, FIVE_INCH));
    await copyFile(CAMERA_PHOTO, join(camera, 'canon.jpg'));
    const measured = await measureImage(bytesSource(await readFile(CAMERA_PHOTO)));
    expect(measured).not.toBeNull();
    const c = measured!;

    const rowIn = (testId: string, name: string) => page.locator('.ant-table-row').filter({ has: page.getByTestId(testId).getByText(name, { exact: true }) });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // About 32 KB/s up: the folders' 7 files take many seconds to send.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 32 * 1024 });
    const held = await holdChunks(page);
    try {
      await page.getByTestId('upload-folder-input').setInputFiles(folder);
      await page.getByTestId('upload-folder-input').setInputFiles(camera);
      const album = rowIn('preflight-name', '预检相册');
      const photo = rowIn('preflight-name', '相机照片');
      await album.waitFor({ timeout: 30_000 });
      await photo.waitFor({ timeout: 30_000 });
      // 1500×1051 px at 300 dpi is 127×89 mm, six times; the camera photo at its EXIF density.
      await expect.poll(() => album.getByTestId('preflight-size').innerText(), { timeout: 30_000 }).toMatch(/127×89mm ×6\s+1500×1051px 300dpi/);
      const mm = (px: number) => Math.round((px / c.dpi) * 25.4 * 10) / 10;
      await expect.poll(() => photo.getByTestId('preflight-size').innerText(), { timeout: 30_000 })
        .toMatch(new RegExp(`${mm(c.width)}×${mm(c.height)}mm\\s+${c.width}×${c.height}px ${c.dpi}dpi`));
      expect(await album.getByTestId('preflight-state').innerText()).toBe('预检');
      expect(await album.locator('.ant-table-cell').nth(6).innerText()).toBe('6');

      // 选择产品 on each row still uploading: 5寸照片冲印 (光面, 无边框).
      for (const row of [album, photo]) {
        await chooseProduct(page, row.getByRole('button', { name: '选择产品' }), { product: '5寸照片冲印', options: ['光面', '无边框'] });
      }
      await expect.poll(() => album.getByTestId('preflight-state').innerText()).toBe('预检：已匹配');
      expect(await album.locator('.ant-table-cell').nth(3).innerText()).toBe('5寸照片冲印');
      // The camera photo is far smaller than a 5寸 print: the rules say so before a byte of it has arrived.
      await expect.poll(() => photo.getByTestId('preflight-state').innerText()).toBe('预检：异常');
      expect(await photo.getByTestId('preflight-state').getAttribute('title')).toContain('尺寸不符');

      // Still uploading: the server has made neither work yet.
      expect(await rowIn('work-name', '预检相册').count()).toBe(0);
      expect(await rowIn('work-name', '相机照片').count()).toBe(0);
      const bar = page.getByRole('listitem', { name: '预检相册' }).getByRole('progressbar').first();
      expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
      await shot(page, 'preflight-while-uploading');
    } finally {
      await held.release();
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    }

    // The server's parse and check answer: its rows take the place of the preflight's, with the SKU chosen on them.
    const albumWork = rowIn('work-name', '预检相册');
    const photoWork = rowIn('work-name', '相机照片');
    await albumWork.waitFor({ timeout: 60_000 });
    await photoWork.waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('preflight-name').count(), { timeout: 10_000 }).toBe(0);
    expect(await albumWork.locator('.ant-table-cell').nth(6).innerText()).toBe('6');
    await expect.poll(() => albumWork.getByTestId('work-state').innerText(), { timeout: 30_000 }).toBe('已匹配');
    await expect.poll(() => photoWork.getByTestId('work-state').innerText(), { timeout: 30_000 }).toBe('异常');
    expect(await albumWork.locator('.ant-table-cell').nth(3).innerText()).toBe('5寸照片冲印');
    await shot(page, 'preflight-replaced');
  });

  it('a picked PDF shows its pages and page sizes (after /Rotate) in its 预检 row before the server row replaces it', async () => {
    // Three A4 pages, the third stored landscape and turned by /Rotate 90; an attachment of 200 KB
    // makes its upload take seconds at the throttled rate.
    const doc = await PDFDocument.create();
    doc.addPage([595.28, 841.89]);
    doc.addPage([595.28, 841.89]);
    doc.addPage([841.89, 595.28]).setRotation(degrees(90));
    await doc.attach(Buffer.alloc(200_000, 7), 'padding.bin', { mimeType: 'application/octet-stream' });
    const file = join(dir, '预检手册.pdf');
    await writeFile(file, await doc.save({ useObjectStreams: false }));

    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 32 * 1024 });
    const row = page.locator('.ant-table-row').filter({ has: page.getByTestId('preflight-name').getByText('预检手册', { exact: true }) });
    const held = await holdChunks(page);
    try {
      await page.getByTestId('upload-files-input').setInputFiles(file);
      await row.waitFor({ timeout: 30_000 });
      await expect.poll(() => row.getByTestId('preflight-size').innerText(), { timeout: 30_000 }).toMatch(/^210×297mm ×3\s+PDF 3页$/);
      expect(await row.getByTestId('preflight-pages').innerText()).toBe('3');
      // Still uploading: the server has not made the work yet.
      expect(await page.getByTestId('work-name').getByText('预检手册', { exact: true }).count()).toBe(0);
      await shot(page, 'preflight-pdf-while-uploading');
    } finally {
      await held.release();
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    }

    const work = page.locator('.ant-table-row').filter({ has: page.getByTestId('work-name').getByText('预检手册', { exact: true }) });
    await work.waitFor({ timeout: 60_000 });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    // The server's reader counts the same pages, and 文件尺寸 still says what was measured: no product is
    // chosen yet (it said "—" until one was: the LAN check of 2026-11-29).
    expect(await work.locator('.ant-table-cell').nth(6).innerText()).toBe('3');
    expect(await work.getByTestId('measured-size').innerText()).toMatch(/^210×297mm\s+PDF 3页$/);
  });

  it('a file the server refuses leaves no 预检 row behind: its failure in 文件检查 takes the row\'s place', async () => {
    // Text named .jpg (found from another PC on 2026-11-28: its 预检 row stayed, offering 选择产品).
    const file = join(dir, '伪装图片.jpg');
    await writeFile(file, 'this is text, not a JPEG\n');
    await page.getByTestId('upload-files-input').setInputFiles(file);
    const entry = page.getByRole('listitem', { name: '伪装图片' });
    // Refused for its content: the reason is the message, and 重试 is not offered (it cannot help).
    await expect.poll(() => entry.innerText(), { timeout: 30_000 }).toContain('只能上传.zip,.pdf,.png,.jpg（文件内容与扩展名不符）');
    expect(await entry.innerText()).not.toContain('请重试');
    expect(await entry.getByRole('button', { name: '重试' }).count()).toBe(0);
    await page.locator('.ant-message').getByText('有文件无法上传，原因见文件检查').first().waitFor();
    await expect.poll(() => page.getByTestId('preflight-name').getByText('伪装图片', { exact: true }).count(), { timeout: 10_000 }).toBe(0);

    // Nothing of it was stored: its 删除 asks the server to delete nothing (it did, and got 404s).
    const deletes: string[] = [];
    const onRequest = (req: { url(): string }) => {
      if (new URL(req.url()).pathname === '/api/files/deleteFile') deletes.push(req.url());
    };
    page.on('request', onRequest);
    await entry.getByRole('button', { name: '删除', exact: true }).click();
    await entry.waitFor({ state: 'detached' });
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
    page.off('request', onRequest);
    expect(deletes).toEqual([]);
  });
});
