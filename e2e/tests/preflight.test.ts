/**
 * Issue #21 item 1: the browser measures picked images as they are picked (a Web Worker running
 * @portal/measure) and the order table shows their sizes and pages at once, while the bytes are still
 * on their way (the upload throttled with the DevTools protocol); the server's row replaces it when
 * the item's parse answers.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureImage, bytesSource } from '@portal/measure';
import { launchBrowser, login, newPage, shot } from '../support/browser.ts';
import { repoRoot, startServer, type RunningServer } from '../support/server.ts';
import { FIVE_INCH, labelledJpeg } from '../support/upload-fixtures.ts';

const CAMERA_PHOTO = join(repoRoot, 'apps/server/test/fixtures/camera/Canon_PowerShot_S40.jpg');

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

  it('a picked folder shows its sizes and pages before its upload finishes, then the server row replaces it', async () => {
    const folder = join(dir, '预检相册');
    await mkdir(folder);
    for (let i = 1; i <= 6; i++) await writeFile(join(folder, `${i}.jpg`), await labelledJpeg(`预${i}`, i * 50, FIVE_INCH));
    await copyFile(CAMERA_PHOTO, join(folder, '7.jpg'));
    const camera = await measureImage(bytesSource(await readFile(CAMERA_PHOTO)));
    expect(camera).not.toBeNull();

    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // About 64 KB/s up: the folder's 7 files take many seconds to send.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    const workRow = page.locator('.ant-table-row').filter({ has: page.getByTestId('work-name').getByText('预检相册', { exact: true }) });
    const preflightRow = page.locator('.ant-table-row').filter({ has: page.getByTestId('preflight-name').getByText('预检相册', { exact: true }) });
    try {
      await page.getByTestId('upload-folder-input').setInputFiles(folder);
      await preflightRow.waitFor({ timeout: 30_000 });
      const size = preflightRow.getByTestId('preflight-size');
      // 1500×1051 px at 300 dpi is 127×89 mm, six times; the camera photo at its EXIF density.
      await expect.poll(() => size.innerText(), { timeout: 30_000 }).toMatch(/127×89mm ×6\s+1500×1051px 300dpi/);
      const c = camera!;
      const mm = (px: number) => Math.round((px / c.dpi) * 25.4 * 10) / 10;
      expect(await size.innerText()).toMatch(new RegExp(`${mm(c.width)}×${mm(c.height)}mm\\s+${c.width}×${c.height}px ${c.dpi}dpi`));
      expect(await preflightRow.getByTestId('preflight-state').innerText()).toBe('预检');
      expect(await preflightRow.locator('.ant-table-cell').nth(6).innerText()).toBe('7');
      // Still uploading: the server has not made the work yet, and its upload entry is under way.
      expect(await workRow.count()).toBe(0);
      const bar = page.getByRole('listitem', { name: '预检相册' }).getByRole('progressbar').first();
      expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
      await shot(page, 'preflight-while-uploading');
    } finally {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    }

    // The server's parse answers: its row takes the place of the preflight's.
    await workRow.waitFor({ timeout: 60_000 });
    await expect.poll(() => preflightRow.count(), { timeout: 10_000 }).toBe(0);
    expect(await workRow.locator('.ant-table-cell').nth(6).innerText()).toBe('7');
    expect(await workRow.getByTestId('work-state').innerText()).toBe('未匹配');
  });
});
