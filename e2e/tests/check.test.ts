/**
 * Choosing products and checking files, as a customer does it: upload photos, pick 5寸照片冲印 in the
 * picker (by category and by keyword), choose options, see the check's outcome on the rows and the
 * entries, fix the failing photo in 文件详情 with 调整尺寸 (checked again at once), and sort a folder's photos.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initialRect, initialZoom, requestRect, resizeRect, rotateLeft, degreesOf } from '../../apps/web/src/features/crop/lib/geometry.ts';
import { passOf, quantitySummary, withNewFile } from '../../apps/web/src/features/file-check/lib/detail.ts';
import { configOf, isValueAvailable, pageCountLines, toggleOption } from '../../apps/web/src/features/product-picker/lib/options.ts';
import { closeDialogWith, openedDialog, shot, watchMotion } from '../support/browser.ts';
import { afterStep, leaveOrderPage, openOrderPage, rowOf, toast, upload } from '../support/ordering.ts';
import { chooseForRow, chooseOption as choose } from '../support/picker.ts';
import type { RunningServer } from '../support/server.ts';
import { labelledJpeg } from '../support/upload-fixtures.ts';

/** 127×89 mm at 150 dpi: the right size, below the 300 dpi the print asks for. */
const LOW_DPI = { width: 750, height: 526, dpi: 150 };
/** 127×89 mm at 300 dpi: a 5寸 print. */
const PASSING = { width: 1500, height: 1051 };
/** 152.4×102 mm at 300 dpi: a 6寸 photo, too big for 5寸 (±2 mm). */
const FAILING = { width: 1800, height: 1205 };

/** A file-check entry of the preview area, by its work's name (the upload's own success entry, which leaves by itself, aside). */
const entryOf = (page: Page, name: string): Locator =>
  page.getByRole('list', { name: '文件检查' }).locator(`[role="listitem"][aria-label="${name}"]:not([data-status="success"])`);

// The browser's pure rules, on the demo shop's shapes (no server needed).
describe('option, crop and detail rules', () => {
  const product = {
    id: 1, pageCount: 20, minNumberOfPages: 8, maxNumberOfPages: 100,
    components: [{ name: '封面', cancelled: false, objectPapers: [{ paper: '250g铜版纸', minPageCount: 4, maxPageCount: 4 }] }],
    objectItems: [
      { item: { id: 1, name: '相纸' }, itemValues: [{ id: 1 }, { id: 2 }, { id: 3 }] },
      { item: { id: 2, name: '边框' }, itemValues: [{ id: 4 }, { id: 5 }] },
    ],
    propertyConfigs: [[1, 4], [1, 5], [2, 4], [2, 5], [3, 4]].map(([a, b], i) => ({ id: i + 1, optionValueIds: [a, b], cancelled: false, jhiDefault: i === 0, minPageCount: null, maxPageCount: null })),
  } as unknown as Parameters<typeof configOf>[0];

  it('toggles, disables what no SKU holds, and finds the SKU of a full choice', () => {
    let sel = toggleOption({}, 1, 3);
    expect(isValueAvailable(product, sel, 2, 5)).toBe(false);
    expect(isValueAvailable(product, sel, 2, 4)).toBe(true);
    // Another value of the same item replaces the chosen one; the chosen one again deselects it.
    expect(toggleOption(sel, 1, 2)).toEqual({ 1: 2 });
    expect(toggleOption(sel, 1, 3)).toEqual({});
    expect(configOf(product, sel)).toBeUndefined();
    sel = toggleOption(sel, 2, 4);
    expect(configOf(product, sel)?.id).toBe(5);
    expect(pageCountLines(product, undefined)).toEqual(['默认20页，最少8页，最多100页', '封面（250g铜版纸）：固定4页']);
    // A card's two sides: it read 默认2页，2页.
    expect(pageCountLines({ ...product, pageCount: 2, minNumberOfPages: 2, maxNumberOfPages: 2, components: [] }, undefined)).toEqual(['默认2页，固定2页']);
  });

  it('starts the crop at the component size, centred, and sends it at the displayed scale', () => {
    const image = { width: 1800, height: 1205 };
    const print5 = { width: 127, height: 89, error: 2, errorType: 'mm' as const, autoOrientationDetection: true, resolutionThreshold: 300, resolutionLimit: 1200 };
    // The whole image fits the 840×600 boundary (issue #17: not the spec's fixed 0.2).
    expect(initialZoom(image)).toBeCloseTo(840 / 1800);
    // The largest box of 5寸's proportions, at a whole dpi (343: 127×89 mm exactly), centred.
    const rect = initialRect(image, print5, initialZoom(image));
    expect(rect).toEqual({ x: 43, y: 2, width: 1715, height: 1202 });
    expect(requestRect(rect, 0.2)).toMatchObject({ width: 343, scale: 20 });
    // A portrait image turns the rectangle with it when either orientation is allowed.
    expect(initialRect({ width: 1205, height: 1800 }, print5, 0.2)).toMatchObject({ width: 1202, height: 1715 });
    // Resizing keeps the proportions and the rectangle inside the image.
    const bigger = resizeRect(rect, 'se', 500, 0, image, rect.width / rect.height);
    expect(bigger.x + bigger.width).toBeLessThanOrEqual(image.width);
    expect(bigger.y + bigger.height).toBeLessThanOrEqual(image.height);
    // -90° a click: 0 → 270 → 180 → 90 → 0.
    const codes = [1];
    for (let i = 0; i < 4; i++) codes.push(rotateLeft(codes[codes.length - 1] as number));
    expect(codes.map(degreesOf)).toEqual([0, 270, 180, 90, 0]);
  });

  it('recomputes pass with the shared rules after a file changes', () => {
    const component = { componentId: 1, componentName: '照片', width: 127, height: 89, error: 2, errorType: 'mm' as const, errorText: '±2mm', autoOrientationDetection: true };
    const row = {
      filename: 'x.jpg', itemPath: 'upload/f/x.jpg', type: 'image' as const, page: null, width: 152.4, height: 102, component,
      resolutionDetect: 300, dpiStated: true, resolutionThreshold: 300, resolutionLimit: 1200, resolutionWarning: false, effectiveDpi: 360,
      pass: false, reason: '尺寸不符', previewUrl: '/p', previewRelativeUrl: '/p',
    };
    const cropped = withNewFile(row, { widthPx: 1500, heightPx: 1051, dpi: 300, previewUrl: '/q' });
    expect(cropped).toMatchObject({ width: 127, height: 89, pass: true, reason: null, previewUrl: '/q', effectiveDpi: 300 });
    expect(passOf({ ...row, width: 89, height: 127 })).toBe(true);
    expect(withNewFile(row, { widthPx: 750, heightPx: 526, dpi: 150, previewUrl: '/r' }).resolutionWarning).toBe(true);
    expect(quantitySummary([row, row, { ...row, component: null }])).toBe('照片：2；未定义：1');
    expect(quantitySummary([{ ...row, component: null }])).toBe('共1个文件');
  });
});

describe('choosing products and checking files', () => {
  let server: RunningServer;
  let browser: Browser;
  let dir: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-check-'));
    await writeFile(join(dir, '合格照片.jpg'), await labelledJpeg('OK', 120, PASSING));
    await writeFile(join(dir, '偏大照片.jpg'), await labelledJpeg('BIG', 10, FAILING));
    await writeFile(join(dir, '低分辨率.jpg'), await labelledJpeg('LOW', 60, LOW_DPI));
    await mkdir(join(dir, '三张照片'));
    for (const [i, name] of ['a', 'b', 'c'].entries()) {
      await writeFile(join(dir, '三张照片', `${name}.jpg`), await labelledJpeg(name.toUpperCase(), 200 + i * 50, PASSING));
    }
    ({ server, browser, context, page } = await openOrderPage());
  });

  // A failing step leaves a picture of the page behind.
  afterEach((ctx) => afterStep(ctx, page, 'check'));

  afterAll(() => leaveOrderPage({ context, browser, server }, dir));

  it('选择产品 without a checked row says 请选择订单', async () => {
    await page.getByRole('button', { name: '选择产品' }).click();
    await toast(page, '请选择订单');
  });

  it('picks 5寸照片冲印 by category and keyword, with options, price and 暂不销售', async () => {
    await page.getByTestId('upload-files-input').setInputFiles([join(dir, '合格照片.jpg'), join(dir, '偏大照片.jpg')]);
    await rowOf(page, '合格照片').waitFor();
    await rowOf(page, '偏大照片').waitFor();
    await rowOf(page, '合格照片').getByRole('checkbox').check();
    await rowOf(page, '偏大照片').getByRole('checkbox').check();
    await page.getByRole('button', { name: '选择产品' }).click();

    const picker = page.getByRole('dialog', { name: '选择产品' });
    // The title says which rows the choice is for.
    await page.getByRole('dialog', { name: '选择产品（已勾选2个作品）' }).waitFor();
    await picker.getByRole('button', { name: 'A3海报' }).waitFor();
    // By category: 照片冲印 holds the two photo products and nothing else.
    await picker.getByRole('tree').getByText('照片冲印', { exact: true }).click();
    await picker.getByRole('button', { name: '6寸照片冲印' }).waitFor();
    await expect.poll(() => picker.getByRole('button', { name: 'A3海报' }).count()).toBe(0);
    await shot(page, 'check-picker-category');

    // The table picker lists SKUs: name, details, number.
    await picker.getByText('列表', { exact: true }).click();
    for (const column of ['名称', '详情', '编号']) await picker.getByRole('columnheader', { name: column, exact: true }).waitFor();
    await picker.getByRole('cell', { name: 'PH5-GL-NB', exact: true }).waitFor();
    await picker.getByText('10 条/页').waitFor();
    await shot(page, 'check-picker-table');
    await picker.getByText('卡片', { exact: true }).click();

    // 6寸 with 珠光 + 无边框 is not for sale.
    await picker.getByRole('button', { name: '6寸照片冲印' }).click();
    const details = page.getByRole('dialog', { name: '商品详情' });
    await choose(details, /^珠光/);
    await choose(details, /^无边框/);
    await details.getByTestId('suggested-price').getByText('暂不销售，无法下单').waitFor();
    await details.getByRole('button', { name: '确定' }).click();
    await toast(page, '暂不销售，无法下单');
    await details.getByRole('button', { name: '取消' }).click();
    await details.waitFor({ state: 'hidden' });

    // A2 海报 in PP背胶 has no price for this customer; the brochure shows its page limits.
    await picker.getByRole('tree').getByText('宣传品', { exact: true }).click();
    await picker.getByRole('button', { name: 'A2海报' }).click();
    await choose(details, /^PP背胶/);
    await details.getByTestId('suggested-price').getByText('暂无').waitFor();
    await details.getByRole('button', { name: '取消' }).click();
    await details.waitFor({ state: 'hidden' });
    await picker.getByRole('button', { name: '企业宣传画册' }).click();
    // It opens on its default SKU (骑马钉), whose own page limits replace the product's.
    await details.getByText('默认20页，最少8页，最多48页').waitFor();
    await details.getByText('封面（250g铜版纸）：固定4页').waitFor();
    await shot(page, 'check-details-brochure');
    // Each component's template downloads under its own name.
    const [download] = await Promise.all([page.waitForEvent('download'), details.getByRole('button', { name: '下载模板' }).first().click()]);
    expect(download.suggestedFilename()).toBe('画册_封面_模板.pdf');
    await details.getByRole('button', { name: '取消' }).click();
    await details.waitFor({ state: 'hidden' });

    // By keyword, over every category.
    await picker.getByRole('tree').getByText('全部产品', { exact: true }).click();
    await picker.getByLabel('搜索产品').fill('5寸');
    await picker.getByRole('button', { name: '搜索' }).click();
    await expect.poll(() => picker.getByRole('button', { name: '6寸照片冲印' }).count()).toBe(0);
    await picker.getByRole('button', { name: '5寸照片冲印' }).click();

    await details.getByText('127×89 mm（±2mm）').waitFor();
    await details.getByRole('button', { name: /^珠光/ }).click();
    // No SKU has 珠光 with 留白边.
    expect(await details.getByRole('button', { name: /^留白边/ }).isDisabled()).toBe(true);
    await shot(page, 'check-details-inconsistent');
    // Clicking the chosen option again deselects it, and 留白边 is offered again.
    await details.getByRole('button', { name: /^珠光/ }).click();
    expect(await details.getByRole('button', { name: /^留白边/ }).isDisabled()).toBe(false);
    await choose(details, /^光面/);
    await choose(details, /^无边框/);
    await details.getByTestId('suggested-price').getByText('¥0.68').waitFor();
    // What a batch of hundreds costs a print (the catalogue's quantity breaks).
    await details.getByTestId('price-breaks').getByText('数量优惠：100张起 ¥0.60/张，500张起 ¥0.52/张', { exact: true }).waitFor();
    await shot(page, 'check-details-price');
    await details.getByRole('button', { name: '确定' }).click();

    await toast(page, /文件校验异常/);
    await rowOf(page, '合格照片').getByText('已匹配').waitFor();
    await rowOf(page, '偏大照片').getByText('异常', { exact: true }).waitFor();
    const entry = entryOf(page, '偏大照片');
    await entry.getByRole('button', { name: '查看详情' }).waitFor();
    await entry.getByRole('button', { name: '重新校验' }).waitFor();
    await shot(page, 'check-outcome');
  });

  it('文件详情 shows the failing photo, 调整尺寸 crops it to size, and the work checked again passes', async () => {
    // This page's system asks for reduced motion (newPage): the dialog opens without antd's zoom.
    const moved = await watchMotion(page);
    await entryOf(page, '偏大照片').getByRole('button', { name: '查看详情' }).click();
    const detail = await openedDialog(page.getByRole('dialog', { name: '文件详情' }));
    expect(await moved()).toBe('');
    for (const column of ['文件名称', '实际尺寸', '标准尺寸', '实际DPI', '标准DPI', '状态', '操作']) {
      await detail.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    await detail.getByText('152.4×102 mm').waitFor();
    await detail.getByText('127×89 mm ±2mm').waitFor();
    await detail.getByText('300-1200').waitFor();
    await detail.getByTestId('file-detail-quantity').getByText('照片：1').waitFor();
    await detail.getByRole('img', { name: '不通过' }).waitFor();
    await detail.getByRole('list', { name: '校验错误' }).waitFor();
    await shot(page, 'check-file-detail');

    await detail.getByRole('button', { name: '调整尺寸' }).click();
    const crop = await openedDialog(page.getByRole('dialog', { name: /调整尺寸/ }));
    await crop.getByTestId('crop-loading').waitFor({ state: 'hidden' });
    // The rectangle starts as the largest box of the component's proportions, centred: the whole photo trimmed
    // to 5寸, printed at the dpi that makes it 127×89 mm.
    await crop.getByTestId('crop-size').getByText(/1715×1202 px.*裁切后 343 dpi/).waitFor();
    await crop.getByTestId('crop-prediction').getByText(/尺寸符合/).waitFor();
    // Drag it a little: it stays inside the photo and keeps its size.
    const rect = crop.getByTestId('crop-rect');
    const box = await rect.boundingBox();
    if (!box) throw new Error('no crop rectangle');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 15, box.y + box.height / 2 + 10, { steps: 5 });
    await page.mouse.up();
    await crop.getByTestId('crop-size').getByText(/1715×1202 px/).waitFor();
    await shot(page, 'check-crop');
    await crop.getByRole('button', { name: '确定' }).click();
    // The crop reports the work checked again on the server.
    await toast(page, '裁切成功，文件校验通过');
    await crop.waitFor({ state: 'hidden' });
    await detail.getByText('127×89 mm', { exact: true }).waitFor();
    await detail.getByRole('img', { name: '通过' }).waitFor();
    await shot(page, 'check-file-detail-cropped');
    await closeDialogWith(detail, detail.getByRole('button', { name: '返回' }));
    await rowOf(page, '偏大照片').getByText('已匹配').waitFor();
    await expect.poll(() => entryOf(page, '偏大照片').count()).toBe(0);
  });

  it('sorts the photos of a folder work by dragging', async () => {
    await page.getByTestId('upload-folder-input').setInputFiles(join(dir, '三张照片'));
    const row = rowOf(page, '三张照片');
    await row.waitFor();
    for (const name of ['合格照片', '偏大照片']) await rowOf(page, name).getByRole('checkbox').uncheck();
    await row.getByRole('checkbox').check();
    // 排序 is for a matched work only.
    expect(await page.getByRole('button', { name: '排序', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: '选择产品' }).click();
    const picker = page.getByRole('dialog', { name: '选择产品' });
    await picker.getByRole('button', { name: '5寸照片冲印' }).click();
    const details = page.getByRole('dialog', { name: '商品详情' });
    await details.getByRole('button', { name: /^绒面/ }).click();
    await details.getByRole('button', { name: /^留白边/ }).click();
    await details.getByRole('button', { name: '确定' }).click();
    await row.getByText('已匹配').waitFor();

    await page.getByRole('button', { name: '排序', exact: true }).click();
    const sorter = page.getByRole('dialog', { name: /排序/ });
    const tiles = sorter.getByTestId('sort-tile');
    await expect.poll(() => tiles.allTextContents()).toEqual(['1a.jpg', '2b.jpg', '3c.jpg']);
    // Every thumbnail has loaded (naturalWidth > 0) before the screenshot.
    type Img = { complete: boolean; naturalWidth: number };
    await expect.poll(() => sorter.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as unknown as Img).complete && (i as unknown as Img).naturalWidth > 0))).toBe(true);
    await shot(page, 'check-sort-before');

    // Drag c in front of a.
    const from = await tiles.nth(2).boundingBox();
    const to = await tiles.nth(0).boundingBox();
    if (!from || !to) throw new Error('no tiles');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 - 10, from.y + from.height / 2, { steps: 3 });
    await page.mouse.move(to.x + to.width / 3, to.y + to.height / 2, { steps: 12 });
    await page.mouse.up();
    await expect.poll(() => tiles.allTextContents()).toEqual(['1c.jpg', '2a.jpg', '3b.jpg']);
    await shot(page, 'check-sort-after');

    const [answer] = await Promise.all([
      page.waitForResponse((res) => new URL(res.url()).pathname === '/api/files/sortWorkFiles'),
      sorter.getByRole('button', { name: '保存' }).click(),
    ]);
    expect(answer.status()).toBe(200);
    const body = (await answer.json()) as { message: { files: Array<{ fileName: string }> } };
    expect(body.message.files.map((f) => f.fileName)).toEqual(['c.jpg', 'a.jpg', 'b.jpg']);
    await sorter.waitFor({ state: 'hidden' });
    await row.getByText('已匹配').waitFor();
    await shot(page, 'check-final');
  });

  it('添加文件 adds a photo to a folder work, which is checked again', async () => {
    const row = rowOf(page, '三张照片');
    await chooseForRow(page, row, { keyword: '6寸', product: '6寸照片冲印', options: ['光面', '无边框'] });
    await row.getByText('异常', { exact: true }).waitFor();

    await entryOf(page, '三张照片').getByRole('button', { name: '查看详情' }).click();
    const detail = await openedDialog(page.getByRole('dialog', { name: '文件详情' }));
    await detail.getByTestId('file-detail-quantity').getByText('照片：3').waitFor();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), detail.getByRole('button', { name: '添加文件' }).click()]);
    await chooser.setFiles(join(dir, '合格照片.jpg'));
    await detail.getByTestId('file-detail-quantity').getByText('照片：4').waitFor();
    await detail.getByText('合格照片.jpg', { exact: true }).waitFor();
    await row.getByText('4个文件').waitFor();
    await shot(page, 'check-file-detail-added');

    // The same name again is added beside it under a free name, and the customer is told so (it was silent: LAN walk).
    const [again] = await Promise.all([page.waitForEvent('filechooser'), detail.getByRole('button', { name: '添加文件' }).click()]);
    await again.setFiles(join(dir, '合格照片.jpg'));
    await toast(page, '作品中已有同名文件「合格照片.jpg」，新文件已添加为「合格照片-2.jpg」；要替换原文件，请在该文件行点“重新上传”');
    await detail.getByTestId('file-detail-quantity').getByText('照片：5').waitFor();
    await shot(page, 'check-file-detail-added-same-name');
    await detail.getByRole('row').filter({ hasText: '合格照片-2.jpg' }).getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popconfirm').getByText('确定删除当前文件？').waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '确定' }).click();
    await toast(page, '删除成功');
    await detail.getByTestId('file-detail-quantity').getByText('照片：4').waitFor();

    // 重新上传 replaces c.jpg with a 6寸 photo: its size, dpi and preview change, and it passes.
    const cRow = detail.getByRole('row').filter({ hasText: 'c.jpg' });
    const [replacement] = await Promise.all([page.waitForEvent('filechooser'), cRow.getByRole('button', { name: '重新上传' }).click()]);
    await replacement.setFiles(join(dir, '偏大照片.jpg'));
    await toast(page, '上传成功');
    await cRow.getByText('152.4×102 mm').waitFor();
    await cRow.getByRole('img', { name: '通过' }).waitFor();
    expect(await entryOf(page, '三张照片').getAttribute('data-status')).toBe('error');

    // 删除 takes the added photo out of the work again.
    const addedRow = detail.getByRole('row').filter({ hasText: '合格照片.jpg' });
    await addedRow.getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popconfirm').getByText('确定删除当前文件？').waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '确定' }).click();
    await toast(page, '删除成功');
    await detail.getByTestId('file-detail-quantity').getByText('照片：3').waitFor();
    await row.getByText('3个文件').waitFor();
    // The work is checked again at once, as after 添加文件 and 重新上传: it stayed 未匹配 with 照片 152×102mm ×4, and its
    // entry still named the deleted photo, until 重新校验 (screenshot review, 2026-12-01).
    await row.getByText('异常', { exact: true }).waitFor();
    await row.getByText('照片 152×102mm ×3').waitFor();
    await expect.poll(() => entryOf(page, '三张照片').textContent()).not.toContain('合格照片.jpg');
    await closeDialogWith(detail, detail.getByRole('button', { name: '返回' }));
  });

  it('重选产品 to a product that does not fit, then deleting the entry reverts the work to 未匹配', async () => {
    const row = rowOf(page, '合格照片');
    await chooseForRow(page, row, { keyword: 'A3', product: 'A3海报', options: ['157g铜版纸'] });
    await toast(page, '文件校验异常');
    await row.getByText('异常', { exact: true }).waitFor();

    const entry = entryOf(page, '合格照片');
    await entry.getByRole('button', { name: '删除' }).click();
    await toast(page, /请重新选择产品/);
    await row.getByText('未匹配').waitFor();
    await expect.poll(() => entry.count()).toBe(0);
  });

  it('a photo below the resolution is 分辨率异常 until 确认使用', async () => {
    // Settled before 重选产品 (its parse ended, nothing uploading): under a full parallel run the click on a row
    // still being replaced opened nothing once (CI-like run, 2026-11-30).
    await upload(page, [join(dir, '低分辨率.jpg')], ['低分辨率']);
    await page.getByTestId('upload-overall').waitFor({ state: 'hidden' });
    const row = rowOf(page, '低分辨率');
    await chooseForRow(page, row, { keyword: '5寸', product: '5寸照片冲印', options: ['光面', '无边框'] });
    await toast(page, '文件校验成功');
    await row.getByText('分辨率异常').waitFor();
    const entry = entryOf(page, '低分辨率');
    expect(await entry.getAttribute('data-status')).toBe('dpiAbnormal');
    await entry.getByRole('button', { name: '重新校验' }).waitFor();
    await shot(page, 'check-dpi-abnormal');
    // 文件问题汇总 names it under 分辨率不足 until 确认使用, then no more (it stayed: LAN walk, 2026-11-30).
    const lowRes = page.getByTestId('triage').getByTestId('triage-sample').filter({ hasText: '低分辨率' });
    await lowRes.first().waitFor();
    await entry.getByRole('button', { name: '确认使用' }).click();
    await row.getByText('已匹配').waitFor();
    await expect.poll(() => entry.count()).toBe(0);
    await expect.poll(() => lowRes.count()).toBe(0);
  });
});
