/**
 * A headless Chromium (the system's /usr/bin/chromium, driven by playwright-core) and the few
 * helpers every test needs. Tests find elements as a customer does: by role and Chinese text.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Locator, type Page, type Response } from 'playwright-core';
import { repoRoot } from './server.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const artifactsDir = join(repoRoot, 'e2e', 'artifacts');

/** `executablePath`: something that runs /usr/bin/chromium in another way (e2e/support/other-pc.ts). */
export async function launchBrowser(options: { executablePath?: string } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: apt-get update && apt-get install -y --no-install-recommends chromium fonts-noto-cjk`,
    );
  }
  return chromium.launch({
    executablePath: options.executablePath ?? CHROMIUM_PATH,
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

/**
 * A fresh context (own localStorage, so no token) and page, sized like an office screen. Its system
 * asks for reduced motion unless `motion` is set: the portal then opens dialogs without antd's zoom,
 * and a click is never lost in an animation (seen in clean-clone runs on a loaded machine). The
 * specs that keep the motion (file-detail) and the benchmarks (a customer's default) pass `motion`.
 */
export async function newPage(browser: Browser, { motion = false }: { motion?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1440, height: 900 },
    reducedMotion: motion ? 'no-preference' : 'reduce',
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

/**
 * A shop's line for the page of `cdp`: uploads at `upBitsPerS`, downloads unthrottled unless told
 * (DevTools protocol, Network.emulateNetworkConditions). Again after a reload.
 */
export async function throttleUpload(cdp: CDPSession, upBitsPerS: number, line: { latency?: number; downBitsPerS?: number } = {}): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: line.latency ?? 2,
    downloadThroughput: line.downBitsPerS === undefined ? -1 : line.downBitsPerS / 8,
    uploadThroughput: upBitsPerS / 8,
  });
}

// The callbacks below run in the page; e2e compiles without the DOM library.
interface PageDirectoryHandle {
  name: string;
}
interface PageDropEvent {
  preventDefault(): void;
  stopImmediatePropagation(): void;
  dataTransfer: { items: ArrayLike<{ getAsFileSystemHandle(): Promise<PageDirectoryHandle | null> }> } | null;
}
declare const window: {
  __pickedFolder?: PageDirectoryHandle | null;
  showDirectoryPicker?: () => Promise<PageDirectoryHandle>;
  addEventListener(type: string, listener: (e: PageDropEvent) => void, options: { capture: boolean; once: boolean }): void;
};

/** Folders of the disk (one or several at once) dragged from the desktop onto `target`, as Chromium's input layer delivers them (CDP). */
export async function dropFolder(page: Page, cdp: CDPSession, target: Locator, dir: string | string[]): Promise<void> {
  // Dragged onto the target where it is on screen: an earlier step may have scrolled the page past it.
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('the drop target is not visible');
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: typeof dir === 'string' ? [dir] : dir, dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
}

/**
 * Makes the page's directory picker (`showDirectoryPicker`, what 上传文件夹 opens in Chromium)
 * answer the folder `dir` of the disk. A headless browser cannot show the picker, so the folder's
 * directory handle is taken from a drop (DataTransferItem.getAsFileSystemHandle: the same kind of
 * handle the picker gives, its files read from the disk) that the page never sees.
 */
export async function answerDirectoryPicker(page: Page, cdp: CDPSession, target: Locator, dir: string): Promise<void> {
  await page.evaluate(() => {
    window.__pickedFolder = undefined;
    window.addEventListener('drop', (e) => {
      e.preventDefault();
      e.stopImmediatePropagation();
      const item = e.dataTransfer?.items[0];
      if (!item) window.__pickedFolder = null;
      else void item.getAsFileSystemHandle().then((handle) => (window.__pickedFolder = handle));
    }, { capture: true, once: true });
  });
  await dropFolder(page, cdp, target, dir);
  await page.waitForFunction(() => window.__pickedFolder !== undefined);
  const name = await page.evaluate(() => {
    const handle = window.__pickedFolder;
    if (handle) window.showDirectoryPicker = () => Promise.resolve(handle);
    return handle?.name ?? null;
  });
  if (name !== basename(dir)) throw new Error(`the dropped folder gave no directory handle (${String(name)})`);
}

/**
 * Starts watching the page for antd's motion (an element in the active step of a zoom's, fade's or
 * slide's appear, enter or leave; without motion antd still runs a dialog's one-frame prepare step);
 * the returned function gives the class of the first one seen since ('' for none).
 */
export async function watchMotion(page: Page): Promise<() => Promise<string>> {
  // A script string: this project has no DOM types, and the code runs in the page.
  await page.evaluate(`(() => {
    window.__motionSeen = '';
    const moving = (el) => el instanceof Element && /ant-(zoom|fade|slide|move)[\\w-]*-(appear|enter|leave)-active/.test(el.getAttribute('class') ?? '');
    const note = (el) => { if (!window.__motionSeen) window.__motionSeen = el.getAttribute('class'); };
    new MutationObserver((records) => {
      for (const r of records) {
        if (moving(r.target)) note(r.target);
        for (const n of r.addedNodes) {
          if (!(n instanceof Element)) continue;
          if (moving(n)) note(n);
          for (const m of n.querySelectorAll('[class]')) if (moving(m)) note(m);
        }
      }
    }).observe(document.body, { attributes: true, attributeFilter: ['class'], subtree: true, childList: true });
  })()`);
  return async () => String(await page.evaluate('window.__motionSeen'));
}

/**
 * An antd dialog once its opening zoom has ended. A click during the zoom (0.3 s, longer on a loaded
 * machine) was seen to do nothing: 返回 of 文件详情 left the dialog up in 1 clean-clone run of 4.
 */
export async function openedDialog(dialog: Locator): Promise<Locator> {
  await dialog.waitFor();
  const handle = await dialog.elementHandle();
  await dialog.page().waitForFunction((el) => !(el as unknown as { className: string }).className.includes('-appear'), handle);
  return dialog;
}

/** Clicks `button` of an open dialog until the dialog has gone, as a customer clicks again when nothing happened. */
export async function closeDialogWith(dialog: Locator, button: Locator): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (!(await dialog.isVisible())) return;
    await button.click({ timeout: 5_000 }).catch(() => undefined);
    if (await dialog.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false)) return;
  }
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * After a test: closes whatever it left open (dialogs, the topmost first, by their ×; an image
 * preview or a popconfirm with Esc), so a test that stopped half-way does not leave a modal over
 * the page for the tests after it.
 */
export async function closeLeftovers(page: Page): Promise<void> {
  const open = page.locator('.ant-modal-wrap:visible, .ant-image-preview-wrap:visible, .ant-image-preview:visible, .ant-popover:visible');
  for (let i = 0; i < 6; i++) {
    const before = await open.count();
    if (before === 0) return;
    const close = page.locator('.ant-modal-wrap:visible .ant-modal-close').last();
    const preview = page.locator('.ant-image-preview:visible, .ant-image-preview-wrap:visible, .ant-popover:visible');
    if ((await preview.count()) === 0 && (await close.count()) > 0) await close.click().catch(() => undefined);
    else await page.keyboard.press('Escape');
    // The closing animation ends with the layer hidden (support code: bench imports it, so no vitest here).
    for (const until = Date.now() + 2_000; Date.now() < until && (await open.count()) >= before;) await page.waitForTimeout(50);
  }
}

/** Whether an <img> has loaded and drawn a picture (a broken link loads with no width). */
export const imageDrawn = (img: Locator): Promise<boolean> =>
  img.evaluate((el) => {
    const i = el as unknown as { complete: boolean; naturalWidth: number };
    return i.complete && i.naturalWidth > 0;
  });
