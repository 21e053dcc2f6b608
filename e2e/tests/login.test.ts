import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, login, newPage, shot } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const COLUMNS = ['作品名称', '订购数量', '产品名称', '产品详情', '文件尺寸', '页数', '加页数', '匹配状态', '调色', '操作'];

describe('login and the batch upload page', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // On an empty data directory, as `npm ci && npm start` on a new machine: the other files copy one.
    server = await startServer({ fresh: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('demo/demo lands on 批量上传下单 with the order table, without 统一设置地址', async () => {
    const { context, page } = await newPage(browser);
    try {
      const answer = await login(page, server.url, 'demo', 'demo');
      expect(answer.status()).toBe(200);
      await page.waitForURL('**/batch-upload');
      await page.getByRole('heading', { name: '批量上传下单' }).waitFor();
      for (const name of COLUMNS) {
        await page.getByRole('columnheader', { name, exact: true }).first().waitFor();
      }
      // The toolbar is drawn once the hub is known, so 选择产品 being there means the flag was read.
      await page.getByRole('button', { name: '选择产品' }).waitFor();
      expect(await page.getByRole('button', { name: '统一设置地址' }).count()).toBe(0);
      for (const name of ['重置', '批量下单']) {
        expect(await page.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
      }
      expect(await page.getByText('demo', { exact: true }).first().isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: '退出登录' }).isVisible()).toBe(true);
      expect(await page.title()).toContain('批量上传下单');
      await shot(page, 'batch-upload-demo');
    } finally {
      await context.close();
    }
  });

  it('a wrong password shows the server message and stays on /login', async () => {
    const { context, page } = await newPage(browser);
    try {
      const answer = await login(page, server.url, 'demo', 'not-the-password');
      expect(answer.status()).toBe(401);
      const { message } = (await answer.json()) as { message: string };
      expect(message).toBeTruthy();
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
      await shot(page, 'login-wrong-password');
    } finally {
      await context.close();
    }
  });

  it('a login disabled while its page is open lands on /login saying why', async () => {
    const api = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
      const res = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      expect(res.status, path).toBe(200);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const op = (await api('/api/authenticate', { method: 'POST', body: { username: 'operator', password: 'operator' } })).id_token as string;
    const added = await api('/api/admin/hubs/1/logins', { method: 'POST', token: op, body: { login: 'dave', password: 'dave1' } });
    const { context, page } = await newPage(browser);
    try {
      await login(page, server.url, 'dave', 'dave1');
      await page.waitForURL('**/batch-upload');
      // A toast of the batch page (请选择订单); the login is disabled, and the next call is refused: the page says
      // why on /login (it went there without a word), and the batch page's toasts are gone (they stayed over the
      // login form). The page's own next call (a draft save) may come first: then it is already there.
      await page.getByRole('button', { name: '批量修复' }).click();
      await page.locator('.ant-message-notice').getByText('请选择订单').waitFor();
      await api(`/api/admin/logins/${String(added.id)}/disabled`, { method: 'POST', token: op, body: { disabled: true } });
      if (new URL(page.url()).pathname !== '/login') await page.getByRole('link', { name: '我的订单' }).click().catch(() => undefined);
      await page.waitForURL('**/login');
      await page.getByTestId('login-reason').getByText('该账号已停用，请联系印刷厂').waitFor();
      expect(await page.locator('.ant-message-notice').getByText('请选择订单').count()).toBe(0);
      await shot(page, 'login-disabled-reason');
    } finally {
      await context.close();
    }
  });

  it('/batch-upload without a token lands on /login', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.url}/batch-upload`);
      await page.waitForURL('**/login');
      await page.getByRole('button', { name: '登录' }).waitFor();
      expect(await page.getByLabel('用户名').isVisible()).toBe(true);
      expect(await page.getByLabel('密码').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('partial/partial sees 统一设置地址', async () => {
    const { context, page } = await newPage(browser);
    try {
      const answer = await login(page, server.url, 'partial', 'partial');
      expect(answer.status()).toBe(200);
      await page.waitForURL('**/batch-upload');
      await page.getByRole('heading', { name: '批量上传下单' }).waitFor();
      await page.getByRole('button', { name: '统一设置地址' }).waitFor();
      await shot(page, 'batch-upload-partial');
    } finally {
      await context.close();
    }
  });

  it('退出登录 forgets the token, and an unknown address shows 404 with a way back', async () => {
    const { context, page } = await newPage(browser);
    try {
      await login(page, server.url, 'demo', 'demo');
      await page.getByRole('heading', { name: '批量上传下单' }).waitFor();
      await page.getByRole('button', { name: '退出登录' }).click();
      await page.waitForURL('**/login');
      await page.goto(`${server.url}/batch-upload`);
      await page.waitForURL('**/login');

      await page.goto(`${server.url}/no-such-page`);
      await page.getByText('404', { exact: true }).waitFor();
      expect(await page.getByRole('link', { name: '返回批量上传下单' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
