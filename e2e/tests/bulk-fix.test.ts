/**
 * 批量修复 (issue #20 item 2) as a customer uses it: photos with three kinds of failure (too small, the
 * wrong orientation, a low resolution) and one that is too small and too coarse, checked against 6寸;
 * the checked rows opened in 批量修复, each file with the fix that suits it (裁切填充, 旋转, 批量确认使用),
 * the effect looked at on samples, applied with progress, the rows 已匹配 (and the coarse one still
 * 分辨率异常), and one fix undone.
 *
 * The shop prints 6寸 here without automatic orientation (旋转 is offered only then): the server runs on
 * a PostgreSQL database of its own, whose 6寸 component the test sets so, as the shop's catalogue would.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { imageDrawn, shot } from '../support/browser.ts';
import { afterStep, leaveOrderPage, openOrderPage, rowOf, toast } from '../support/ordering.ts';
import { chooseForChecked } from '../support/picker.ts';
import type { RunningServer } from '../support/server.ts';
import { labelledJpeg } from '../support/upload-fixtures.ts';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
async function admin(sql: string, url = ADMIN_URL): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

const PHOTOS = [
  // 76×51 mm at 600 dpi: too small for 6寸 (152×102), with pixels enough for 300 dpi → 裁切填充 → 已匹配.
  { name: '偏小照片', label: 'A', width: 1800, height: 1210, dpi: 600 },
  // 102×152 mm: 6寸 standing up → 旋转 → 已匹配.
  { name: '竖放照片', label: 'B', width: 1205, height: 1800, dpi: 300 },
  // 152×102 mm at 150 dpi: the right size, a resolution warning → 批量确认使用 → 已匹配.
  { name: '低清照片', label: 'C', width: 898, height: 602, dpi: 150 },
  // 51×34 mm at 300 dpi: too small and too coarse → 裁切填充 → the right size, still 分辨率异常.
  { name: '小且低清', label: 'D', width: 600, height: 402, dpi: 300 },
];


/** A copy of one of the PHOTOS uploaded as a work of its own, the only checked row, checked against 6寸. */
async function aloneOn6(page: Page, dir: string, photo: string, name: string) {
  await copyFile(join(dir, `${photo}.jpg`), join(dir, `${name}.jpg`));
  await page.getByTestId('upload-files-input').setInputFiles(join(dir, `${name}.jpg`));
  const row = rowOf(page, name);
  await row.waitFor();
  for (const r of await page.locator('.ant-table-row').all()) if (await r.getByRole('checkbox').isChecked()) await r.getByRole('checkbox').uncheck();
  await row.getByRole('checkbox').check();
  await chooseForChecked(page, { product: '6寸照片冲印', options: ['光面', '无边框'] });
  return row;
}

describe('批量修复 of the checked rows', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;
  const dbName = `portal_e2e_fix_${process.pid}_${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-fix-'));
    for (const [i, p] of PHOTOS.entries()) await writeFile(join(dir, `${p.name}.jpg`), await labelledJpeg(p.label, i * 80, p));
    await admin(`create database ${dbName}`);
    const url = withDatabase(ADMIN_URL, dbName);
    ({ server, browser, context, page } = await openOrderPage({
      server: { env: { DATABASE_URL: url } },
      beforeLogin: () => admin(`update product_components set auto_orientation_detection = false where product_id = (select id from products where number = 'PH-6')`, url),
    }));
  });

  afterEach((ctx) => afterStep(ctx, page, 'bulk-fix'));

  afterAll(async () => {
    await leaveOrderPage({ context, browser, server }, dir);
    await admin(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
  });

  it('fixes three kinds of failure in one go, shows samples and progress, and undoes one', async () => {
    await page.getByTestId('upload-files-input').setInputFiles(PHOTOS.map((p) => join(dir, `${p.name}.jpg`)));
    for (const p of PHOTOS) await rowOf(page, p.name).waitFor();
    for (const p of PHOTOS) await rowOf(page, p.name).getByRole('checkbox').check();

    // 6寸照片冲印, 光面 without border, for the four checked rows.
    await chooseForChecked(page, { product: '6寸照片冲印', options: ['光面', '无边框'] });
    await rowOf(page, '偏小照片').getByText('异常', { exact: true }).waitFor();
    await rowOf(page, '竖放照片').getByText('异常', { exact: true }).waitFor();
    await rowOf(page, '低清照片').getByText('分辨率异常').waitFor();
    await rowOf(page, '小且低清').getByText('异常', { exact: true }).waitFor();

    await page.getByRole('button', { name: '批量修复' }).click();
    const dialog = page.getByRole('dialog', { name: '批量修复' });
    // It says what it covers: the checked rows' files.
    await dialog.getByText(/^所选4个作品中共4个文件待处理，其他作品不受影响。/).waitFor();
    // Each file comes with the fix that suits its problem.
    const chosen = async (file: string) => (await dialog.getByRole('row').filter({ hasText: file }).locator('.ant-select-content, .ant-select-selection-item').first().textContent())?.trim();
    await expect.poll(() => chosen('偏小照片.jpg')).toBe('裁切填充');
    expect(await chosen('竖放照片.jpg')).toBe('旋转');
    expect(await chosen('低清照片.jpg')).toBe('批量确认使用');
    expect(await chosen('小且低清.jpg')).toBe('裁切填充');
    expect(await dialog.getByRole('button', { name: '应用修复' }).isDisabled()).toBe(true);

    // The effect on samples first: before and after, and the share cut away.
    await dialog.getByRole('button', { name: '预览效果' }).click();
    const samples = dialog.getByLabel('修复示例');
    await samples.getByRole('img', { name: '修复后 偏小照片.jpg' }).waitFor();
    await samples.getByRole('img', { name: '修复前 偏小照片.jpg' }).waitFor();
    await samples.getByRole('img', { name: '修复后 竖放照片.jpg' }).waitFor();
    await samples.getByText(/偏小照片\.jpg · 裁切填充 · 裁切掉\d+\.\d%/).waitFor();
    await dialog.getByRole('row').filter({ hasText: '偏小照片.jpg' }).getByText(/152(\.\d)?×102(\.\d)?mm · 1795×1205px · 300dpi/).waitFor();
    await dialog.getByRole('row').filter({ hasText: '小且低清.jpg' }).getByText('分辨率仍不足').waitFor();
    // The pictures really loaded (the before is a signed preview link, the after a small JPEG).
    await expect.poll(() => samples.getByRole('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
    await shot(page, 'bulk-fix-sample');

    await dialog.getByRole('button', { name: '应用修复' }).click();
    await dialog.getByText(/正在修复 \d+\/\d+/).waitFor();
    await dialog.getByLabel('修复进度').getByRole('progressbar').waitFor();
    await toast(page, '修复完成：4个文件');
    await expect.poll(() => dialog.getByText('已修复', { exact: true }).count()).toBe(4);
    await dialog.getByRole('row').filter({ hasText: '小且低清.jpg' }).getByText('分辨率仍不足').waitFor();
    await rowOf(page, '偏小照片').getByText('已匹配').waitFor();
    await rowOf(page, '竖放照片').getByText('已匹配').waitFor();
    await rowOf(page, '低清照片').getByText('已匹配').waitFor();
    await rowOf(page, '小且低清').getByText('分辨率异常').waitFor();
    await shot(page, 'bulk-fix-done');

    // Undo one: the upright photo is back as it was, and fails again.
    await dialog.getByRole('row').filter({ hasText: '竖放照片.jpg' }).getByRole('button', { name: '撤销' }).click();
    await toast(page, '已撤销1个修复');
    await dialog.getByRole('row').filter({ hasText: '竖放照片.jpg' }).getByText('已撤销').waitFor();
    await rowOf(page, '竖放照片').getByText('异常', { exact: true }).waitFor();
    await rowOf(page, '偏小照片').getByText('已匹配').waitFor();
    await shot(page, 'bulk-fix-undone');
    await dialog.getByRole('button', { name: '完成' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await shot(page, 'bulk-fix-table');

    // 文件检查 lists the file that fails again, where it can be opened (it said （1） over a blank list: the LAN check).
    const entry = page.getByRole('list', { name: '文件检查' }).getByRole('listitem', { name: '竖放照片' });
    await entry.getByRole('button', { name: '查看详情' }).waitFor();
    expect((await entry.boundingBox())?.height ?? 0).toBeGreaterThan(20);

    // 预览 shows the pictures that will be printed: the fixed one, not the original (the LAN check).
    await rowOf(page, '偏小照片').getByRole('button', { name: '预览' }).click();
    const preview = page.getByRole('dialog', { name: '预览：偏小照片' });
    const img = preview.getByRole('img', { name: '偏小照片.jpg' });
    await expect.poll(() => img.getAttribute('src')).toMatch(/\/api\/files\/preview\/\d+\/fixes\//);
    await expect.poll(() => imageDrawn(img)).toBe(true);
    await preview.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
    await preview.waitFor({ state: 'hidden' });

    // After 完成 a fix can still be undone: in 文件详情, per file (小且低清 is still warned, so it has an entry)…
    await page.getByRole('list', { name: '文件检查' }).getByRole('listitem', { name: '小且低清' }).getByRole('button', { name: '查看详情' }).click();
    const detail = page.getByRole('dialog', { name: '文件详情' });
    await detail.getByRole('button', { name: '撤销修复' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '撤销' }).click();
    await toast(page, '已撤销修复，恢复为原文件');
    await rowOf(page, '小且低清').getByText('异常', { exact: true }).waitFor();
    await expect.poll(() => detail.getByRole('button', { name: '撤销修复' }).count()).toBe(0);
    await detail.locator('.ant-modal-footer').getByRole('button', { name: '返回' }).click();
    await detail.waitFor({ state: 'hidden' });
    // …and for checked rows with nothing left to fix, through 批量修复.
    for (const r of await page.locator('.ant-table-row').all()) if (await r.getByRole('checkbox').isChecked()) await r.getByRole('checkbox').uncheck();
    await rowOf(page, '偏小照片').getByRole('checkbox').check();
    await page.getByRole('button', { name: '批量修复' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('其中1个文件是修复后的文件').waitFor();
    await shot(page, 'bulk-fix-undo-later');
    await confirm.getByRole('button', { name: '撤销修复' }).click();
    await toast(page, '已撤销1个修复');
    await rowOf(page, '偏小照片').getByText('异常', { exact: true }).waitFor();
  });

  it('批量确认使用 alone needs no 预览效果: nothing is drawn, 应用修复 is ready as the dialog opens', async () => {
    const row = await aloneOn6(page, dir, '低清照片', '只需确认');
    await row.getByText('分辨率异常', { exact: true }).waitFor();
    await page.getByRole('button', { name: '批量修复' }).click();
    const dialog = page.getByRole('dialog', { name: '批量修复' });
    // The server's dry run came by itself: the row says what will be done, and 应用修复 is enabled.
    await dialog.getByText('所选修复不改变图片内容（批量确认使用、删除），没有示例').waitFor({ timeout: 10_000 });
    await expect.poll(() => dialog.getByRole('button', { name: '应用修复' }).isEnabled(), { timeout: 10_000 }).toBe(true);
    await dialog.getByRole('button', { name: '应用修复' }).click();
    await toast(page, '修复完成：1个文件');
    await row.getByText('已匹配').waitFor();
    await dialog.getByRole('button', { name: '完成' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Accepted, it has nothing left to fix: 批量修复 again does not list it (it did, to be accepted again).
    await page.getByRole('button', { name: '批量修复' }).click();
    await toast(page, '所选作品没有需要修复的文件（请先选择产品完成校验）');
    expect(await dialog.count()).toBe(0);
  });

  it('a fix undone after 文件检查 had emptied lists the file there again', async () => {
    // The only failing file: fixed, 文件检查 empties; undone, its entry must come back where it can be opened.
    const row = await aloneOn6(page, dir, '偏小照片', '单独一张');
    await row.getByText('异常', { exact: true }).waitFor();
    const list = page.getByRole('list', { name: '文件检查' });
    // The other entries (the first test's) go, one at a time.
    const others = list.locator('[role="listitem"]:not([aria-label="单独一张"])');
    while ((await others.count()) > 0) {
      const before = await others.count();
      await others.first().getByRole('button', { name: '删除', exact: true }).click();
      await expect.poll(() => others.count()).toBeLessThan(before);
    }
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);

    await page.getByRole('button', { name: '批量修复' }).click();
    const dialog = page.getByRole('dialog', { name: '批量修复' });
    await dialog.getByRole('button', { name: '预览效果' }).click();
    await dialog.getByRole('button', { name: '应用修复' }).click();
    await toast(page, '修复完成：1个文件');
    await row.getByText('已匹配').waitFor();
    await list.waitFor({ state: 'detached', timeout: 10_000 });
    await dialog.getByRole('button', { name: '撤销', exact: true }).click();
    await toast(page, '已撤销1个修复');
    await row.getByText('异常', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: '完成' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const entry = list.getByRole('listitem', { name: '单独一张' });
    await entry.getByRole('button', { name: '查看详情' }).waitFor({ timeout: 10_000 });
    expect((await entry.boundingBox())?.height ?? 0).toBeGreaterThan(20);
    await shot(page, 'bulk-fix-undone-alone');
  });
});
