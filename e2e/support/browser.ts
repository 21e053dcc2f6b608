/**
 * A headless Chromium (the system's /usr/bin/chromium, driven by playwright-core) and the few
 * helpers every test needs. Tests find elements as a customer does: by role and Chinese text.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { repoRoot } from './server.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const artifactsDir = join(repoRoot, 'e2e', 'artifacts');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: apt-get update && apt-get install -y --no-install-recommends chromium fonts-noto-cjk`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A fresh context (own localStorage, so no token) and page, sized like an office screen. */
export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1440, height: 900 },
  });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Opens /login, fills 用户名 and 密码 and clicks 登录. Returns the answer of POST /api/authenticate,
 * so a test can compare what the page shows with what the server said.
 */
export async function login(page: Page, url: string, user: string, pw: string): Promise<Response> {
  await page.goto(`${url}/login`);
  await page.getByLabel('用户名').fill(user);
  await page.getByLabel('密码').fill(pw);
  const [answer] = await Promise.all([
    page.waitForResponse((res) => new URL(res.url()).pathname === '/api/authenticate'),
    page.getByRole('button', { name: '登录' }).click(),
  ]);
  return answer;
}

/** Saves a full-page screenshot to e2e/artifacts/<name>.png (git-ignored) and returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  // Finish CSS transitions first, so a shot never catches a control half-way between states.
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}
