/**
 * The console's pages of #22.4 and #22.5 as an operator uses them: the webhook endpoint is set and tested
 * against a receiver that verifies with the reference Standard Webhooks library, the delivery of the order
 * placed meanwhile shows in the log, and the production zip of that order downloads from the browser.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remote } from '../../apps/server/test/helpers/drill.ts';
import { photoMm, placePhotoOrders } from '../../apps/server/test/helpers/orders.ts';
import { launchBrowser, login, newPage, shot } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';

describe('console: webhooks and files for the press', () => {
  let server: RunningServer;
  let browser: Browser;
  let receiver: http.Server;
  let receiverUrl = '';
  let secret = '';
  const received: Array<{ type: string; verified: boolean }> = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => {
        const raw = Buffer.concat(parts).toString('utf8');
        let verified = true;
        try { new Webhook(secret).verify(raw, req.headers as Record<string, string>); } catch { verified = false; }
        received.push({ type: (JSON.parse(raw) as { type: string }).type, verified });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/erp`;
    server = await startServer();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    receiver?.closeAllConnections();
    receiver?.close();
  });

  it('sets and tests the endpoint, logs the order\'s delivery, and downloads the order\'s zip', async () => {
    const { context, page } = await newPage(browser);
    try {
      await login(page, server.url, 'operator', 'operator');
      await page.waitForURL('**/admin/**');
      await page.getByRole('link', { name: 'Webhook' }).click();
      await page.getByLabel('接收地址（URL）').fill(receiverUrl);
      await page.getByRole('button', { name: '保存' }).click();
      await page.getByText('已保存').waitFor();
      secret = (await page.locator('code').filter({ hasText: 'whsec_' }).innerText()).trim();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: '发送测试' }).click();
      await page.getByText(/测试成功：HTTP 200/).waitFor();
      expect(received).toEqual([{ type: 'webhook.test', verified: true }]);

      // A customer orders (through the API, as the order e2e test covers the page).
      const api = remote(server.url);
      const demo = await api.login('demo', 'demo');
      const [order] = await placePhotoOrders(api, demo, [{ name: '控制台相片', files: [{ path: '控制台相片.jpg', bytes: await photoMm(127, 89, 5) }] }]);
      const so = order!.salesOrderNumber;
      for (let i = 0; i < 50 && !received.some((r) => r.type === 'order.created'); i++) await new Promise((r) => setTimeout(r, 200));
      expect(received.find((r) => r.type === 'order.created')).toEqual({ type: 'order.created', verified: true });
      await page.reload();
      await page.getByRole('cell', { name: so }).waitFor();
      await page.getByRole('row').filter({ hasText: so }).getByText('已送达').waitFor();
      // The event in Chinese, its type beside it (it showed order.created alone).
      expect(await page.getByRole('row').filter({ hasText: so }).getByRole('cell').nth(2).innerText()).toMatch(/^新订单\s+order\.created$/);
      // The whole order number fits its cell (its last digits were cut off under the next column).
      const soCell = page.getByRole('row').filter({ hasText: so }).getByRole('cell').nth(3);
      expect(await soCell.innerText()).toBe(so);
      expect(await soCell.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      // The saved endpoint is shown again after a reload.
      await expect.poll(() => page.getByLabel('接收地址（URL）').inputValue()).toBe(receiverUrl);
      await shot(page, 'admin-webhooks');
      const shown = async () => (await page.locator('code').filter({ hasText: 'whsec_' }).innerText()).trim();
      // Saving the URL again keeps the secret the ERP has; 重新生成密钥 replaces it only once confirmed.
      await page.getByRole('button', { name: '保存' }).click();
      await page.getByText('已保存').last().waitFor();
      expect(await shown()).toBe(secret);
      await page.getByRole('button', { name: '重新生成密钥' }).click();
      await page.locator('.ant-popconfirm').getByText('ERP 须同时改用新密钥验证').waitFor();
      await page.locator('.ant-popconfirm').getByRole('button', { name: '重新生成' }).click();
      await page.getByText('已生成新密钥').waitFor();
      await expect.poll(shown).not.toBe(secret);
      secret = await shown();

      await page.getByRole('link', { name: '生产文件' }).click();
      await page.getByPlaceholder('SO…').fill(so);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: '下载' }).first().click(),
      ]);
      expect(download.suggestedFilename()).toBe(`生产文件_${so}.zip`);
      const names = await new Promise<string[]>((resolve, reject) => {
        void download.path().then((p) => readFile(p)).then((bytes) => yauzl.fromBuffer(bytes, { lazyEntries: false }, (err, zip) => {
          if (err || !zip) return reject(err);
          const out: string[] = [];
          zip.on('entry', (e: yauzl.Entry) => out.push(e.fileName));
          zip.on('end', () => resolve(out));
        }), reject);
      });
      expect(names).toEqual([`${so}_控制台相片/生产单_${so}.pdf`, `${so}_控制台相片/照片/控制台相片.jpg`, 'manifest.csv']);
      await page.getByText(`生产文件_${so}.zip（1 个订单）`).waitFor();
      // The production zip asked by the number as typed in lower case is the same order's (it was 订单不存在: console walk).
      await page.getByPlaceholder('SO…').fill(so.toLowerCase());
      const [again] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载' }).first().click()]);
      expect(again.suggestedFilename()).toBe(`生产文件_${so}.zip`);
      await shot(page, 'admin-production');

      // The shop stops sending: the endpoint goes from the console, once confirmed (there was no way but the API).
      await page.getByRole('link', { name: 'Webhook' }).click();
      await expect.poll(() => page.getByLabel('接收地址（URL）').inputValue()).toBe(receiverUrl);
      await page.getByRole('button', { name: '删除接收地址' }).click();
      await page.locator('.ant-popconfirm').getByText('之后订单的变化不再发送给 ERP').waitFor();
      await page.locator('.ant-popconfirm').getByRole('button', { name: '删除' }).click();
      await page.getByText('已删除接收地址，不再发送').waitFor();
      expect(await page.getByLabel('接收地址（URL）').inputValue()).toBe('');
      expect(await page.getByRole('button', { name: '发送测试' }).isDisabled()).toBe(true);
      await page.reload();
      await page.getByRole('button', { name: '删除接收地址' }).waitFor();
      expect(await page.getByLabel('接收地址（URL）').inputValue()).toBe('');
    } finally {
      await context.close();
    }
  }, 180_000);
});
