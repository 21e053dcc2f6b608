/**
 * 文件详情 and 调整尺寸 telling the truth (issue #17 items 2, 4 and 5): the crop dialog predicts whether
 * the box passes and reports the re-checked result, 重新上传 takes .png/.jpg/.jpeg and refreshes the row
 * and its messages, 添加文件 works on a work holding a PDF, a cancelled delete says nothing, and the
 * pages of a PDF are listed by component.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDialogWith, openedDialog, shot, watchMotion } from '../support/browser.ts';
import { afterStep, leaveOrderPage, openOrderPage, rowOf, toast } from '../support/ordering.ts';
import { chooseForRow } from '../support/picker.ts';
import type { RunningServer } from '../support/server.ts';
import { labelledImage } from '../support/upload-fixtures.ts';

/** 127×89 mm at 300 dpi: a 5寸 print. */
const PASSING = { width: 1500, height: 1051 };
/** 152.4×102 mm at 300 dpi: too big for 5寸 (±2 mm). */
const FAILING = { width: 1800, height: 1205 };
const MM = 72 / 25.4;

/** A PDF with one page per [width, height] in mm. */
async function pdf(pages: Array<[number, number]>): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const [w, h] of pages) doc.addPage([w * MM, h * MM]).drawText(`${w}x${h}`, { x: 20, y: 20, size: 24 });
  return Buffer.from(await doc.save());
}

/** A name as long as a customer's camera folder gives: the 文件名称 column at its widest. */
const LONG_NAME = '二〇二四年春节全家福合影与旅行照片精选第一批竖拍原片';

const entryOf = (page: Page, name: string): Locator =>
  page.getByRole('list', { name: '文件检查' }).locator(`[role="listitem"][aria-label="${name}"]:not([data-status="success"])`);

const toasts = (page: Page, text: string | RegExp): Locator => page.locator('.ant-message-notice').filter({ hasText: text });

/** Uploads files, chooses a product for the first work and opens its 文件详情 from the failing entry. */
async function failingDetail(page: Page, work: string, keyword: string, product: string, options: string[]): Promise<Locator> {
  await rowOf(page, work).waitFor();
  await chooseForRow(page, rowOf(page, work), { keyword, product, options });
  await rowOf(page, work).getByText('异常', { exact: true }).waitFor();
  const moved = await watchMotion(page);
  await entryOf(page, work).getByRole('button', { name: '查看详情' }).click();
  const detail = await openedDialog(page.getByRole('dialog', { name: '文件详情' }));
  // This page keeps the motion a customer's system has by default: the dialog and its mask moved in.
  expect(await moved()).toMatch(/ant-(zoom|fade)/);
  return detail;
}

async function closeDetail(detail: Locator): Promise<void> {
  await closeDialogWith(detail, detail.getByRole('button', { name: '返回' }));
}

describe('文件详情 and 调整尺寸', () => {
  let server: RunningServer;
  let browser: Browser;
  let dir: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-detail-'));
    await writeFile(join(dir, '小图.jpg'), await labelledImage('S', 30, { width: 100, height: 100, dpi: 72 }));
    await writeFile(join(dir, '偏大照片.jpg'), await labelledImage('BIG', 10, FAILING));
    await writeFile(join(dir, '宽幅照片.jpg'), await labelledImage('WIDE', 90, FAILING));
    await writeFile(join(dir, '横幅照片.jpg'), await labelledImage('PNG', 150, FAILING));
    await writeFile(join(dir, '合格照片.jpg'), await labelledImage('OK', 120, PASSING));
    await writeFile(join(dir, `${LONG_NAME}.jpg`), await labelledImage('LONG', 60, FAILING));
    await writeFile(join(dir, '合格照片.png'), await labelledImage('PNG', 200, PASSING, 'png'));
    await writeFile(join(dir, '单页.pdf'), await pdf([[210, 297], [148, 210]]));
    await mkdir(join(dir, '混合作品'));
    await writeFile(join(dir, '混合作品', '1.pdf'), await pdf([[210, 297], [148, 210]]));
    await writeFile(join(dir, '混合作品', '2.jpg'), await labelledImage('2', 250, PASSING));
    await writeFile(join(dir, '画册.pdf'), await pdf(Array.from({ length: 24 }, (_, i): [number, number] => (i === 9 ? [210, 297] : [210, 285]))));
    // With antd's motion, as most customers' systems have it: the dialogs' zoom is waited out (openedDialog).
    ({ server, browser, context, page } = await openOrderPage({ motion: true }));
  });

  afterEach((ctx) => afterStep(ctx, page, 'detail'));

  afterAll(() => leaveOrderPage({ context, browser, server }, dir));

  it('cancelling a delete says nothing', async () => {
    await page.getByTestId('upload-files-input').setInputFiles(join(dir, '小图.jpg'));
    const row = rowOf(page, '小图');
    await row.waitFor();
    await row.getByRole('button', { name: '删除' }).click();
    const confirm = page.locator('.ant-popconfirm').filter({ hasText: '确定删除当前文件？' });
    await confirm.getByRole('button', { name: '取消' }).click();
    await confirm.waitFor({ state: 'hidden' });
    // A toast that comes after: anything the cancel said is on screen before it.
    await page.getByRole('button', { name: '选择产品' }).click();
    await toast(page, '请选择订单');
    expect(await toasts(page, '删除失败').count()).toBe(0);
    await row.waitFor();
  });

  it('调整尺寸 on an image with few pixels makes it the component\'s size at a low dpi, warned before confirming and after', async () => {
    const detail = await failingDetail(page, '小图', '5寸', '5寸照片冲印', ['光面', '无边框']);
    await detail.getByRole('button', { name: '调整尺寸' }).click();
    const crop = await openedDialog(page.getByRole('dialog', { name: /调整尺寸/ }));
    await crop.getByTestId('crop-loading').waitFor({ state: 'hidden' });
    // Any box becomes 127×89 mm; 100 px over 127 mm are 20 dpi, which the prediction warns of.
    await crop.getByTestId('crop-prediction').getByText(/尺寸符合/).waitFor();
    await crop.getByTestId('crop-prediction').getByText(/分辨率 20 dpi：不符合要求/).waitFor();
    // The whole image is shown, at a zoom that fills the viewport: not a dot.
    // (Polled: the dialog opens with a zoom animation.)
    const img = crop.getByRole('img', { name: '小图.jpg' });
    await expect.poll(async () => (await img.boundingBox())?.width ?? 0).toBeGreaterThan(400);
    // The box has the component's proportions (127:89) and stays inside the 100×100 px image.
    const size = await crop.getByTestId('crop-size').innerText();
    expect(size).toMatch(/100×70 px/);
    await shot(page, 'detail-crop-small');
    await crop.getByRole('button', { name: '确定' }).click();
    await crop.waitFor({ state: 'hidden' });
    // A crop never hides a resolution problem: the file is the size, and warned.
    await toast(page, /裁切成功，但分辨率不符合要求/);
    await closeDetail(detail);
  });

  it('shows a long-named row whole on a 1440×900 screen, every column in view (删除 was cut off at the table\'s edge; 状态 hid under 操作)', async () => {
    await page.getByTestId('upload-files-input').setInputFiles(join(dir, `${LONG_NAME}.jpg`));
    const detail = await failingDetail(page, LONG_NAME, '5寸', '5寸照片冲印', ['光面', '无边框']);
    const body = detail.locator('.ant-table-body');
    const table = await body.boundingBox();
    for (const name of ['重新上传', '调整尺寸', '删除']) {
      const button = await detail.getByRole('button', { name }).boundingBox();
      expect(button!.x + button!.width, name).toBeLessThanOrEqual(table!.x + table!.width);
    }
    // Nothing to scroll sideways: the table fits the dialog.
    expect(await body.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    // The name's end stays in view when the rest is cut (folders of camera names differ only there: LAN walk).
    const name = detail.getByTestId('detail-name').first();
    await expect.poll(() => name.innerText()).toMatch(/(…|\.\.\.)一批竖拍原片\.jpg$/);
    // Shown, not clipped by CSS (a clipped line keeps its whole text in the page).
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight)).toBe(true);
    const status = await detail.locator('th').filter({ hasText: '状态' }).boundingBox();
    const actions = await detail.locator('th').filter({ hasText: '操作' }).boundingBox();
    expect(status!.x + status!.width).toBeLessThanOrEqual(actions!.x + 1);
    await shot(page, 'detail-long-name');
    await closeDetail(detail);
  });

  it('调整尺寸 on a photo that can pass predicts the pass and reports the re-checked result', async () => {
    await page.getByTestId('upload-files-input').setInputFiles(join(dir, '偏大照片.jpg'));
    const detail = await failingDetail(page, '偏大照片', '5寸', '5寸照片冲印', ['光面', '无边框']);
    await detail.getByRole('button', { name: '调整尺寸' }).click();
    const crop = await openedDialog(page.getByRole('dialog', { name: /调整尺寸/ }));
    await crop.getByTestId('crop-loading').waitFor({ state: 'hidden' });
    await crop.getByTestId('crop-size').getByText(/1715×1202 px/).waitFor();
    await crop.getByTestId('crop-prediction').getByText(/尺寸符合/).waitFor();
    await shot(page, 'detail-crop-normal');
    await crop.getByRole('button', { name: '确定' }).click();
    await crop.waitFor({ state: 'hidden' });
    await toast(page, '裁切成功，文件校验通过');
    await detail.getByText('127×89 mm', { exact: true }).waitFor();
    await detail.getByRole('img', { name: '通过' }).waitFor();
    // Its drawing says nothing is cut (it read 裁切填充裁掉 0.0%).
    await detail.getByTestId('fit-drawing').getByText('无需裁切').waitFor();
    // Checked again on the server: the work is matched without 重新校验.
    await rowOf(page, '偏大照片').getByText('已匹配').waitFor();
    await closeDetail(detail);
  });

  it('after 重新上传 the row and its red messages show the new file', async () => {
    await page.getByTestId('upload-files-input').setInputFiles(join(dir, '宽幅照片.jpg'));
    const detail = await failingDetail(page, '宽幅照片', '5寸', '5寸照片冲印', ['光面', '无边框']);
    await detail.getByRole('list', { name: '校验错误' }).getByText(/尺寸不符/).waitFor();
    const thumb = detail.locator('tbody').getByRole('img', { name: '宽幅照片.jpg' });
    const before = await thumb.getAttribute('src');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), detail.getByRole('button', { name: '重新上传' }).click()]);
    await chooser.setFiles(join(dir, '合格照片.jpg'));
    await toast(page, '上传成功');
    await detail.getByText('127×89 mm', { exact: true }).waitFor();
    await detail.getByRole('img', { name: '通过' }).waitFor();
    await detail.getByRole('list', { name: '校验错误' }).waitFor({ state: 'hidden' });
    await rowOf(page, '宽幅照片').getByText('已匹配').waitFor();
    // The thumbnail is the new picture's, not the cached old one.
    expect(await thumb.getAttribute('src')).not.toBe(before);
    type Img = { complete: boolean; naturalWidth: number };
    await expect.poll(() => thumb.evaluate((i) => (i as unknown as Img).complete && (i as unknown as Img).naturalWidth > 0)).toBe(true);
    await shot(page, 'detail-reuploaded');
    await closeDetail(detail);
  });

  it('重新上传 on a .jpg row takes a .png', async () => {
    await page.getByTestId('upload-files-input').setInputFiles(join(dir, '横幅照片.jpg'));
    const detail = await failingDetail(page, '横幅照片', '5寸', '5寸照片冲印', ['光面', '无边框']);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), detail.getByRole('button', { name: '重新上传' }).click()]);
    expect((await chooser.element().getAttribute('accept'))?.split(',').sort()).toEqual(['.jpeg', '.jpg', '.png']);
    await chooser.setFiles(join(dir, '合格照片.png'));
    await toast(page, '上传成功');
    await detail.locator('tbody').getByText('横幅照片.png', { exact: true }).waitFor();
    await detail.getByText('127×89 mm', { exact: true }).waitFor();
    await detail.getByRole('img', { name: '通过' }).waitFor();
    await rowOf(page, '横幅照片').getByText('已匹配').waitFor();
    expect(await toasts(page, /上传失败/).count()).toBe(0);
    await closeDetail(detail);
  });

  it('文件详情 lists the pages of a PDF by component', async () => {
    await page.getByTestId('upload-files-input').setInputFiles(join(dir, '单页.pdf'));
    const detail = await failingDetail(page, '单页', '单页', 'A4宣传单页', ['157g铜版纸', '单面']);
    await detail.getByTestId('file-detail-pages').getByText('第1–2页 → 单页', { exact: true }).waitFor();
    // Each page's row says which page it is, in full: after the file's name an ellipsis cut it (LAN walk).
    await expect.poll(() => detail.getByTestId('detail-page').allInnerTexts()).toEqual(['第1页', '第2页']);
    await closeDetail(detail);

    await page.getByTestId('upload-files-input').setInputFiles(join(dir, '画册.pdf'));
    const brochure = await failingDetail(page, '画册', '画册', '企业宣传画册', ['骑马钉', '157g铜版纸', '覆亮膜']);
    await brochure.getByTestId('file-detail-pages').getByText(/^第1–.*页 → 封面/).waitFor();
    // Over 20 rows: the count and the pages are in view as the dialog opens, not under its fold (LAN walk, 2026-11-30).
    const pager = brochure.locator('.ant-pagination');
    await pager.getByText('共24项', { exact: true }).waitFor();
    const box = (await pager.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    expect(await brochure.locator('.ant-table-row').count()).toBe(20);
    await pager.getByTitle('2', { exact: true }).click();
    await expect.poll(() => brochure.locator('.ant-table-row').count()).toBe(4);
    await shot(page, 'detail-pdf-pages');
    await closeDetail(brochure);
  });

  it('添加文件 on a work holding a PDF adds the picture', async () => {
    await page.getByTestId('upload-folder-input').setInputFiles(join(dir, '混合作品'));
    const detail = await failingDetail(page, '混合作品', '单页', 'A4宣传单页', ['157g铜版纸', '单面']);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), detail.getByRole('button', { name: '添加文件' }).click()]);
    await chooser.setFiles(join(dir, '合格照片.jpg'));
    await detail.getByText('合格照片.jpg', { exact: true }).waitFor();
    await rowOf(page, '混合作品').getByText('3个文件').waitFor();
    expect(await toasts(page, 'PDF文件不支持排序操作').count()).toBe(0);
    await shot(page, 'detail-added-to-pdf-work');

    // 重新上传 of its .jpg with a .png: the .png takes the .jpg's place in the work.
    const jpgRow = detail.getByRole('row').filter({ hasText: '2.jpg' });
    const [replacement] = await Promise.all([page.waitForEvent('filechooser'), jpgRow.getByRole('button', { name: '重新上传' }).click()]);
    await replacement.setFiles(join(dir, '合格照片.png'));
    await detail.locator('tbody').getByText('2.png', { exact: true }).waitFor();
    await expect.poll(() => detail.locator('tbody').getByText('2.jpg', { exact: true }).count()).toBe(0);
    await rowOf(page, '混合作品').getByText('3个文件').waitFor();
    expect(await toasts(page, /PDF文件不支持排序操作|无法添加文件/).count()).toBe(0);
    await closeDetail(detail);
  });
});
