/**
 * The batch upload page's details of issue #17 item 5, as a customer meets them: product details
 * open on the SKU marked default and forget a cancelled choice; 预览 after a photo sort shows the
 * new order without the photo left out; screen-reader text is Chinese and names photos by file
 * name, never by server path; 统一设置地址 asks before overwriting an address typed by hand.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, shot } from '../support/browser.ts';
import { afterStep, loggedIn, rowOf } from '../support/ordering.ts';
import { apiLogin, startServer, type RunningServer } from '../support/server.ts';
import { FIVE_INCH, labelledJpeg } from '../support/upload-fixtures.ts';

const addressOf = (page: Page, name: string): Locator => rowOf(page, name).locator('xpath=following-sibling::*[1]');

// page.evaluate callbacks run in the browser; e2e compiles without the DOM library.
declare const document: {
  querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null; textContent: string | null }>;
  getElementById(id: string): { textContent: string | null } | null;
  documentElement: { scrollWidth: number };
};

/** Everything a screen reader reads that is not the page's visible text: names, role descriptions, live regions, descriptions. */
async function screenReaderTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('[aria-label], [aria-roledescription], [aria-valuetext]'))) {
      for (const name of ['aria-label', 'aria-roledescription', 'aria-valuetext']) {
        const v = el.getAttribute(name);
        if (v) out.push(v);
      }
    }
    for (const el of Array.from(document.querySelectorAll('[aria-live]'))) if (el.textContent?.trim()) out.push(el.textContent.trim());
    for (const el of Array.from(document.querySelectorAll('[aria-describedby]'))) {
      for (const id of (el.getAttribute('aria-describedby') ?? '').split(/\s+/)) {
        const text = id ? document.getElementById(id)?.textContent?.trim() : undefined;
        if (text) out.push(text);
      }
    }
    return [...new Set(out)];
  });
}

/**
 * English text (words of antd's and dnd-kit's defaults, or two English words in a row; file names
 * aside) or a stored path: what a Chinese screen reader must not read out. antd's icons carry
 * their icon's name (aria-label="edit"), a single word this does not count.
 */
function foreign(texts: readonly string[]): string[] {
  const words = /\b(Select|selected|Increase|Decrease|Value|Picked|draggable|droppable|dropped|press|Row|Close|Custom|sortable)\b/;
  return texts.filter((t) => {
    const text = t.replace(/[\w.-]+\.(jpe?g|png|pdf)\b/gi, '');
    return /upload\/|unzip\//.test(t) || words.test(text) || /[A-Za-z]{3,}\s+[A-Za-z]{3,}/.test(text);
  });
}

describe('the batch upload page', () => {
  let server: RunningServer;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-batch-page-'));
    await mkdir(join(dir, '三张照片'));
    for (const [i, name] of ['a', 'b', 'c'].entries()) await writeFile(join(dir, '三张照片', `${name}.jpg`), await labelledJpeg(name.toUpperCase(), 200 + i * 50, FIVE_INCH));
    for (const [i, name] of ['收件甲', '收件乙'].entries()) await writeFile(join(dir, `${name}.jpg`), await labelledJpeg(String(i + 1), 30 + i * 90, FIVE_INCH));
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe('hub 1', () => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      ({ context, page } = await loggedIn(browser, server.url, 'demo'));
      await page.getByTestId('upload-folder-input').setInputFiles(join(dir, '三张照片'));
      await rowOf(page, '三张照片').waitFor({ timeout: 30_000 });
      await rowOf(page, '三张照片').getByRole('checkbox').check();
    });
    afterAll(async () => {
      await context?.close();
    });
    afterEach(async (test) => afterStep(test, page, 'batch-page'));

    it('product details open on the SKU marked default, and reopening forgets a cancelled choice', async () => {
      await page.getByRole('button', { name: '选择产品', exact: true }).click();
      const picker = page.getByRole('dialog', { name: '选择产品' });
      // The brochure's default SKU is its second: 骑马钉, 157g铜版纸, 覆哑膜.
      await picker.getByRole('button', { name: '企业宣传画册' }).click();
      const details = page.getByRole('dialog', { name: '商品详情' });
      // The chosen options' labels (a tile holds its label, then its remark).
      const pressed = () => details.locator('button[aria-pressed="true"] > span > span:first-child').allTextContents();
      await expect.poll(pressed).toEqual(['骑马钉', '157g铜版纸', '覆哑膜']);
      await shot(page, 'batch-page-details-default-sku');

      // Another choice, then 取消: the next opening starts from the default again.
      await details.getByRole('button', { name: /^覆亮膜/ }).click();
      await details.getByRole('button', { name: /^无线胶装/ }).click();
      await expect.poll(pressed).toEqual(['无线胶装', '157g铜版纸', '覆亮膜']);
      await details.getByRole('button', { name: '取消' }).click();
      await details.waitFor({ state: 'hidden' });
      await picker.getByRole('button', { name: '企业宣传画册' }).click();
      await expect.poll(pressed).toEqual(['骑马钉', '157g铜版纸', '覆哑膜']);
      await details.getByRole('button', { name: '取消' }).click();
      await details.waitFor({ state: 'hidden' });

      // 5寸照片冲印 opens on 光面 + 无边框, ready to confirm.
      await picker.getByRole('button', { name: '5寸照片冲印' }).click();
      await expect.poll(pressed).toEqual(['光面', '无边框']);
      await details.getByTestId('suggested-price').getByText('¥0.68').waitFor();
      await details.getByRole('button', { name: '确定' }).click();
      await details.waitFor({ state: 'hidden' });
      await rowOf(page, '三张照片').getByText('已匹配').waitFor({ timeout: 30_000 });
    });

    it('screen-reader text of the order table is Chinese', async () => {
      const row = rowOf(page, '三张照片');
      await row.getByRole('spinbutton', { name: '订购数量' }).waitFor();
      await row.getByRole('button', { name: '增加数量' }).click();
      expect(await row.getByRole('spinbutton', { name: '订购数量' }).inputValue()).toBe('2');
      await row.getByRole('button', { name: '减少数量' }).click();
      expect(await row.getByRole('spinbutton', { name: '订购数量' }).inputValue()).toBe('1');
      await page.getByRole('checkbox', { name: '全选' }).waitFor();
      await row.getByRole('checkbox', { name: '选择作品 三张照片' }).waitFor();
      const texts = await screenReaderTexts(page);
      expect(texts).toContain('订购数量');
      expect(foreign(texts)).toEqual([]);
    });

    it('on a 1280×720 screen every column of the order table is in view, 匹配状态 too (it scrolled under 操作)', async () => {
      await page.setViewportSize({ width: 1280, height: 720 });
      try {
        // Nothing to scroll sideways (the virtual table's header is as wide as its columns), and 调色 ends where 操作 starts.
        const header = page.locator('.ant-table-header').first();
        await expect.poll(() => header.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
        const toning = await page.locator('th').filter({ hasText: '调色' }).boundingBox();
        const actions = await page.locator('th').filter({ hasText: '操作' }).first().boundingBox();
        expect(toning!.x + toning!.width).toBeLessThanOrEqual(actions!.x + 1);
        // The largest 订购数量 shows whole: 1000 read as 100( when four digits filled the field (money probe, 2026-12-01).
        const quantity = rowOf(page, '三张照片').getByRole('spinbutton', { name: '订购数量' });
        await quantity.fill('99999');
        await quantity.blur();
        expect(await quantity.inputValue()).toBe('99999');
        expect(await quantity.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
        await shot(page, 'batch-1280');
        await quantity.fill('1');
        await quantity.blur();
      } finally {
        await page.setViewportSize({ width: 1440, height: 900 });
      }
    });

    it('预览 after a photo sort shows the new order, without the photo left out; the drag is announced in Chinese by file name', async () => {
      const row = rowOf(page, '三张照片');
      await page.getByRole('button', { name: '排序', exact: true }).click();
      const sorter = page.getByRole('dialog', { name: /排序/ });
      const tiles = sorter.getByTestId('sort-tile');
      await expect.poll(() => tiles.allTextContents()).toEqual(['1a.jpg', '2b.jpg', '3c.jpg']);

      // c to the front with the keyboard: space picks it up, two steps left, space drops it.
      // dnd-kit's announcements (its live region keeps only the latest) are recorded as they come.
      await page.evaluate(() => {
        const g = globalThis as unknown as { __said: string[]; MutationObserver: new (cb: () => void) => { observe(n: unknown, o: object): void }; document: typeof document & { body: unknown } };
        g.__said = [];
        new g.MutationObserver(() => {
          const t = g.document.querySelectorAll('[id^="DndLiveRegion"]')[0]?.textContent?.trim();
          if (t && g.__said.at(-1) !== t) g.__said.push(t);
        }).observe(g.document.body, { subtree: true, childList: true, characterData: true });
      });
      const said = () => page.evaluate(() => (globalThis as unknown as { __said: string[] }).__said);
      const live = async () => (await page.locator('[aria-live]').allTextContents()).join(' ');
      // dnd-kit moves a tile by the tiles' measured places: an arrow pressed while the dialog or a
      // tile is still moving (a 200 ms transition) is measured against the wrong places and is lost
      // or goes back (both seen in clean-clone runs). A customer's next key comes after the tiles
      // have settled; so do the test's.
      const settled = () => page.waitForFunction(() =>
        (globalThis as unknown as { document: { getAnimations(): { playState: string }[] } }).document.getAnimations().every((a) => a.playState !== 'running'));
      await settled();
      await tiles.nth(2).focus();
      await page.keyboard.press('Space');
      await expect.poll(live).toContain('图片 c.jpg');
      const during = await screenReaderTexts(page);
      // Picked up once dnd-kit has found the tile under it (itself: 第3张).
      await expect.poll(said).toContain('图片 c.jpg 移到第3张的位置。');
      for (const place of [2, 1]) {
        await settled();
        await page.keyboard.press('ArrowLeft');
        await expect.poll(said).toContain(`图片 c.jpg 移到第${place}张的位置。`);
      }
      await page.keyboard.press('Space');
      await expect.poll(() => tiles.allTextContents()).toEqual(['1c.jpg', '2a.jpg', '3b.jpg']);
      await expect.poll(live).toContain('图片 c.jpg 已放在第1张。');
      const texts = [...during, ...(await screenReaderTexts(page))];
      expect(texts).toContain('按空格键拿起图片，用方向键移动，再按空格键放下；按 Esc 键取消。');
      expect(foreign(texts)).toEqual([]);

      await sorter.getByRole('button', { name: '删除 b.jpg' }).click();
      await expect.poll(() => tiles.allTextContents()).toEqual(['1c.jpg', '2a.jpg']);
      await sorter.getByRole('button', { name: '保存' }).click();
      await sorter.waitFor({ state: 'hidden' });
      await row.getByText('2个文件').waitFor();

      await row.getByRole('button', { name: '预览' }).click();
      const preview = page.getByRole('dialog', { name: '预览：三张照片' });
      await preview.getByText('共2张').waitFor();
      expect(await preview.getByTestId('preview-images').getByRole('img').evaluateAll((imgs) =>
        imgs.map((i) => (i as unknown as { alt: string }).alt))).toEqual(['c.jpg', 'a.jpg']);
      await preview.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
      await preview.waitFor({ state: 'hidden' });
    });
  });

  describe('hub 2 (an address per work)', () => {
    let context: BrowserContext;
    let page: Page;
    const DEFAULT = '李娜，13900139000，浙江省杭州市西湖区 文三路 90 号东部软件园 5 号楼 402 室';

    beforeAll(async () => {
      ({ context, page } = await loggedIn(browser, server.url, 'partial'));
      await page.getByTestId('upload-files-input').setInputFiles([join(dir, '收件甲.jpg'), join(dir, '收件乙.jpg')]);
      for (const name of ['收件甲', '收件乙']) await rowOf(page, name).waitFor({ timeout: 30_000 });
    });
    afterAll(async () => {
      await context?.close();
    });
    afterEach(async (test) => afterStep(test, page, 'batch-page'));

    it('统一设置地址 asks before overwriting an address typed by hand: 只填写空白地址 keeps it, 全部覆盖 replaces it', async () => {
      const typed = addressOf(page, '收件甲');
      await typed.getByRole('button', { name: '编辑' }).click();
      await typed.getByLabel('收件人').fill('王小明');
      await typed.getByLabel('联系电话').fill('13700137000');
      await typed.getByLabel('详细地址').fill('人民路 1 号');
      await typed.getByRole('button', { name: '保存' }).click();
      await typed.getByText(/^王小明，13700137000/).waitFor();

      await page.getByRole('button', { name: '统一设置地址' }).click();
      const ask = page.getByRole('dialog', { name: '统一设置地址' });
      await ask.getByText('1个作品已填写了其他收货地址（收件甲），是否用默认地址覆盖？').waitFor();
      // The picture once the dialog has zoomed in.
      await expect.poll(() => page.locator('.ant-modal[class*="zoom"]').count()).toBe(0);
      await shot(page, 'batch-page-address-overwrite-question');
      await ask.getByRole('button', { name: '只填写空白地址' }).click();
      await ask.waitFor({ state: 'hidden' });
      await addressOf(page, '收件乙').getByText(DEFAULT).waitFor();
      expect(await typed.getByText(/^王小明，13700137000/).isVisible()).toBe(true);

      // 取消 changes nothing; 全部覆盖 replaces the typed one.
      await page.getByRole('button', { name: '统一设置地址' }).click();
      await ask.getByRole('button', { name: '取消' }).click();
      await ask.waitFor({ state: 'hidden' });
      expect(await typed.getByText(/^王小明，13700137000/).isVisible()).toBe(true);
      await page.getByRole('button', { name: '统一设置地址' }).click();
      await ask.getByRole('button', { name: '全部覆盖' }).click();
      await typed.getByText(DEFAULT).waitFor();

      // Every row holds the default now: nothing to ask.
      await Promise.all([
        page.waitForResponse((res) => new URL(res.url()).pathname === '/api/customer-locations/byCondition'),
        page.getByRole('button', { name: '统一设置地址' }).click(),
      ]);
      await expect.poll(() => page.getByRole('button', { name: '统一设置地址' }).getAttribute('class')).not.toContain('ant-btn-loading');
      expect(await ask.isVisible()).toBe(false);
      await addressOf(page, '收件乙').getByText(DEFAULT).waitFor();
    });

    it('a hub name as long as the console allows is cut in the header: the menu and 退出登录 stay in view at 1280×720 (they went off-screen)', async () => {
      await page.setViewportSize({ width: 1280, height: 720 });
      const operator = await apiLogin(server.url, 'operator');
      const rename = (name: string) => fetch(`${server.url}/api/admin/hubs/2`, { method: 'PATCH', headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      expect((await rename('分批收货客户'.repeat(16).slice(0, 100))).status).toBe(200);
      try {
        await page.reload();
        await page.getByRole('heading', { name: '批量上传下单' }).waitFor();
        await page.getByTestId('hub-name').waitFor();
        const logout = await page.getByRole('button', { name: '退出登录' }).boundingBox();
        expect(logout!.x + logout!.width).toBeLessThanOrEqual(1280);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
        for (const name of ['批量上传下单', '我的订单']) expect(await page.getByRole('menuitem', { name }).isVisible(), name).toBe(true);
        await shot(page, 'batch-1280-long-hub');
      } finally {
        await rename('分批收货客户');
        await page.setViewportSize({ width: 1440, height: 900 });
      }
    });
  });
});
