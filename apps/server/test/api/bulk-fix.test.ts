/**
 * Fixing files in bulk (issue #20 item 2): 裁切填充, 留白适配, 旋转, 批量确认使用 and 删除 through the API, on
 * real uploads, a real server and both databases: what the customer gets (pixel sizes at the target dpi,
 * orientation, white padding, the work's state after the server's re-check), the originals kept and served,
 * undo, and the refusals.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import type { BulkFixPreviewAnswer, BulkFixResult, BulkFixTaskAnswer, BulkFixUndoAnswer, CheckFileAnswer } from '@portal/contract';
import { productComponents, products, salesOrders, storedFiles, works } from '../../src/db/schema/index.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { corpusFile } from '../helpers/corpus.ts';
import { uploadFile } from '../helpers/upload.ts';

/** A JPEG of w×h px at the dpi: a coloured field with a darker block in its middle. */
const photo = (w: number, h: number, dpi = 300, colour = '#cc3322') =>
  sharp({ create: { width: w, height: h, channels: 3, background: colour } }).jpeg({ quality: 90 }).withMetadata({ density: dpi }).toBuffer();

/** A JPEG of w×h px at the dpi with texture everywhere (blurred noise), as a photo: a lossy copy made on the way shows. */
const textured = async (w: number, h: number, dpi = 300) =>
  sharp({ create: { width: Math.round(w / 5), height: Math.round(h / 5), channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .resize(w, h).jpeg({ quality: 90 }).withMetadata({ density: dpi }).toBuffer();
/** Mean absolute difference of two pictures' decoded samples (0-255). */
const difference = async (a: Buffer, b: Buffer) => {
  const [x, y] = await Promise.all([sharp(a).raw().toBuffer(), sharp(b).raw().toBuffer()]);
  expect(x.length).toBe(y.length);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
};

type Work = { uuid: string; articleName: string; filePath: string; files: Array<{ fileName: string; filePath: string }> };
type Item = { workUuid: string; filePath: string; kind: string };

describe.each(DB_KINDS)('bulk fixes on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;
  let photo5: Awaited<ReturnType<typeof findSku>>;
  let photo6: Awaited<ReturnType<typeof findSku>>;

  const work = async (files: Array<[string, Buffer]>, item = files[0]![0].split('/')[0]!): Promise<Work> => {
    const folderId = randomUUID();
    for (const [p, b] of files) expect((await uploadFile(t, demo, b, p, { folderId })).done).toBeDefined();
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${item}`)}&customerHubId=1`, { token: demo });
    return ((await res.json()) as { message: { works: Work[] } }).message.works[0]!;
  };
  const check = async (w: Work, sku: { productId: number; propertyConfigId: number }) => {
    const res = await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { ...sku, customerHubId: 1, filePath: w.filePath, workUuid: w.uuid, makeWay: 'File', checkNumberOfPages: true } });
    return (await res.json()) as CheckFileAnswer;
  };
  const stored = async (uuid: string) => (await t.db.db.select().from(works).where(eq(works.uuid, uuid)))[0]!;
  const preview = async (items: Item[], position = 'centre', token = demo) =>
    t.call('POST', '/api/bulk-fix/preview', { token, body: { items, position } });
  /** Applies fixes and waits for the task; answers its last status (progress and result). */
  const apply = async (items: Item[], position = 'centre') => {
    const res = await t.call('POST', '/api/bulk-fix/apply', { token: demo, body: { items, position } });
    expect(res.status).toBe(200);
    const { message: { taskId } } = (await res.json()) as { message: { taskId: string } };
    for (let i = 0; i < 300; i++) {
      const s = (await (await t.call('GET', `/api/bulk-fix/tasks/${taskId}`, { token: demo })).json()) as BulkFixTaskAnswer;
      if (s.message.status !== 'running') return { taskId, ...s.message, result: s.message.result as BulkFixResult };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the bulk fix did not end');
  };
  const undo = async (body: { fixIds?: string[]; taskId?: string }, token = demo) => t.call('POST', '/api/bulk-fix/undo', { token, body });
  const raw = (p: string, token = demo) => t.call('GET', `/api/files/raw/1/${p.split('/').map(encodeURIComponent).join('/')}`, { token });
  const pixels = async (p: string) => sharp(Buffer.from(await (await raw(p)).arrayBuffer())).metadata();

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    photo5 = await findSku(t, demo, 'PH-5');
    photo6 = await findSku(t, demo, 'PH-6');
    // The shop's 6寸 prints here without automatic orientation (as a framed print would be): 旋转 is offered for it.
    const [p6] = await t.db.db.select({ id: products.id }).from(products).where(eq(products.number, 'PH-6'));
    await t.db.db.update(productComponents).set({ autoOrientationDetection: false }).where(eq(productComponents.productId, p6!.id));
  });
  afterAll(async () => t?.close());

  it('裁切填充 gives the 5寸 size at 300 dpi, keeps and serves the original, and undo restores it and checks again', async () => {
    const original = await photo(1800, 1205);
    const w = await work([['六寸照.jpg', original]]);
    expect((await check(w, photo5)).state).toBe(400);
    const path = w.files[0]!.filePath;
    const items = [{ workUuid: w.uuid, filePath: path, kind: 'fill' as const }];

    const p = (await (await preview(items)).json()) as BulkFixPreviewAnswer;
    expect(p.message.rows[0]).toMatchObject({ ok: true, fileName: '六寸照.jpg', before: { widthPx: 1800, heightPx: 1205, dpi: 300 }, after: { widthPx: 1500, heightPx: 1051, dpi: 300, widthMm: 127, heightMm: 89 }, stillWarned: false });
    // The 5寸 proportions keep the full height and 1205 × 127/89 px of the width.
    expect(p.message.rows[0]!.cutShare).toBeCloseTo(1 - (1205 * 127) / 89 / 1800, 3);
    const sample = p.message.samples[0]!;
    expect(sample.afterUrl).toMatch(/^data:image\/jpeg;base64,/);
    expect((await sharp(Buffer.from(sample.afterUrl.split(',')[1]!, 'base64')).metadata()).width).toBe(360);
    expect((await fetch(t.url + sample.beforeUrl)).status).toBe(200);
    expect((await stored(w.uuid)).files[0]!.filePath).toBe(path); // a preview changes nothing

    const done = await apply(items);
    expect(done.status).toBe('finished');
    expect(done.progress.done).toBe(done.progress.total);
    const fixed = done.result.items[0]!;
    expect(fixed).toMatchObject({ ok: true, kind: 'fill' });
    expect(fixed.newPath).toMatch(/^fixes\//);
    expect(done.result.works).toEqual([{ uuid: w.uuid, state: 'match', checked: true, files: [expect.objectContaining({ filePath: fixed.newPath })] }]);
    expect(await pixels(fixed.newPath!)).toMatchObject({ width: 1500, height: 1051, density: 300 });
    expect((await stored(w.uuid))).toMatchObject({ state: 'match', files: [expect.objectContaining({ fileName: '六寸照.jpg', filePath: fixed.newPath })] });
    // The original stays stored and served as it was uploaded.
    expect(Buffer.from(await (await raw(path)).arrayBuffer()).equals(original)).toBe(true);

    // The task run again with its fixes recorded (a server killed while it checked the works again): the same fixes
    // come back, nothing is made twice (planned again, the work's file was 文件不在作品中 and the task failed: crash probe).
    const again = await t.app.services.bulkFix.runJob({ items, position: 'centre' }, { taskId: done.taskId, hubId: 1, progress: () => {}, signal: new AbortController().signal, attempt: 2 });
    expect(again.items).toEqual([expect.objectContaining({ ok: true, fixId: fixed.fixId, newPath: fixed.newPath, articleName: fixed.articleName })]);
    expect(again.works).toEqual([expect.objectContaining({ uuid: w.uuid, state: 'match', checked: true })]);

    const u = (await (await undo({ fixIds: [fixed.fixId!] })).json()) as BulkFixUndoAnswer;
    expect(u.message.undone).toEqual([{ fixId: fixed.fixId, workUuid: w.uuid, filePath: path }]);
    expect(u.message.works).toEqual([{ uuid: w.uuid, state: 'abnormal', checked: true, files: [expect.objectContaining({ filePath: path })] }]);
    expect((await stored(w.uuid)).files[0]!.filePath).toBe(path);
    expect((await raw(fixed.newPath!)).status).toBe(404);
    expect((await undo({ fixIds: [fixed.fixId!] })).status).toBe(404);
  });

  it('裁切填充 of many files of one work in one task: each fixed file is stored as its own bytes read (PNG, EXIF-turned, low resolution)', async () => {
    const png = await sharp({ create: { width: 1800, height: 1205, channels: 3, background: '#2255aa' } }).png().withMetadata({ density: 300 }).toBuffer();
    // Stored 1205×1800 and turned by EXIF orientation 6: shown 1800×1205.
    const turned = await sharp({ create: { width: 1205, height: 1800, channels: 3, background: '#33aa55' } }).jpeg({ quality: 90 }).withMetadata({ density: 300, orientation: 6 }).toBuffer();
    const files: Array<[string, Buffer]> = [['一批/a.jpg', await photo(1800, 1205)], ['一批/b.png', png], ['一批/c.jpg', turned], ['一批/d.jpg', await photo(1100, 700, 200)]];
    for (let i = 0; i < 4; i++) files.push([`一批/e${i}.jpg`, await photo(2400, 1700, 300, '#aa8833')]);
    const w = await work(files);
    expect((await check(w, photo5)).state).toBe(400);
    const done = await apply(w.files.map((f) => ({ workUuid: w.uuid, filePath: f.filePath, kind: 'fill' })));
    expect(done.status).toBe('finished');
    expect(done.progress.done).toBe(done.progress.total);
    expect(done.result.items.every((i) => i.ok && i.newPath)).toBe(true);
    // One work, checked once after all its files: 分辨率异常 for the 200 dpi photo, which a fill does not hide.
    // The answer carries the work's files as they are now: the page's row takes them.
    expect(done.result.works).toEqual([{ uuid: w.uuid, state: 'dpiAbnormal', checked: true, files: expect.any(Array) }]);
    const after = await stored(w.uuid);
    expect(after.files.map((f) => f.filePath)).toEqual(done.result.items.map((i) => i.newPath));
    expect(done.result.works[0]!.files).toEqual(after.files);
    // 预览 of the work shows the fixed pictures, in the work's order (it listed the folder's originals).
    const previewed = async () => ((await (await t.call('GET', `/api/sales_order/getPreviewImg?filePath=${encodeURIComponent(w.filePath)}`, { token: demo })).json()) as Array<{ relativeUrl: string }>)
      .map((p) => decodeURIComponent(p.relativeUrl.split('?')[0]!.replace(/^\/api\/files\/preview\/1\//, '')));
    expect(await previewed()).toEqual(done.result.items.map((i) => i.newPath));
    for (const item of done.result.items) {
      const bytes = Buffer.from(await (await raw(item.newPath!)).arrayBuffer());
      const m = await sharp(bytes).metadata();
      expect(m.format).toBe(item.filePath.endsWith('.png') ? 'png' : 'jpeg');
      expect([m.width, m.height, m.density, m.orientation ?? 1]).toEqual([item.after!.widthPx, item.after!.heightPx, item.after!.dpi, 1]);
      // What the server keeps of the fixed file is what its bytes say: the next check and the order read it.
      const [row] = await t.db.db.select().from(storedFiles).where(and(eq(storedFiles.hubId, 1), eq(storedFiles.path, item.newPath!)));
      expect(row).toMatchObject({ kind: 'image', size: bytes.length });
      expect(row!.meta).toMatchObject({ width: m.width, height: m.height, dpi: m.density, dpiStated: true, intact: true });
      expect(after.files.find((f) => f.filePath === item.newPath)).toMatchObject({ width: m.width, height: m.height, dpi: m.density });
    }
    const byName = (n: string) => done.result.items.find((i) => i.fileName === n)!;
    for (const n of ['a.jpg', 'b.png', 'c.jpg', 'e0.jpg']) expect(byName(n)).toMatchObject({ stillWarned: false, after: { widthPx: 1500, heightPx: 1051, dpi: 300 } });
    // 1100×700 px at 200 dpi (too wide) covers 127×89 mm at 199 dpi at most: the 200 dpi frame is 701 px high.
    expect(byName('d.jpg')).toMatchObject({ stillWarned: true, after: { widthPx: 995, heightPx: 697, dpi: 199 } });
    // Undo of the whole task points the work back to every original.
    const u = (await (await undo({ taskId: done.taskId })).json()) as BulkFixUndoAnswer;
    expect(u.message.undone).toHaveLength(files.length);
    expect((await stored(w.uuid)).files.map((f) => f.filePath)).toEqual(w.files.map((f) => f.filePath));
    expect(u.message.works[0]!.files.map((f) => f.filePath)).toEqual(w.files.map((f) => f.filePath));
    expect(await previewed()).toEqual(w.files.map((f) => f.filePath));
  });

  it('a low-resolution file stays warned after 裁切填充: its pixels are never scaled up', async () => {
    // 600×420 px: 50.8×35.6 mm at 300 dpi, far below 5寸; filled to 127×89 mm it gives 120 dpi (the 120 dpi frame is
    // 600×420 px, 88.9 mm high: no pixel is scaled up or cut).
    const w = await work([['小图.jpg', await photo(600, 420)]]);
    // Without a SKU there is no size to fix to.
    const none = await apply([{ workUuid: w.uuid, filePath: w.files[0]!.filePath, kind: 'fill' }]);
    expect(none.result.items[0]).toMatchObject({ ok: false, reason: '请先选择产品并校验，再修复文件', fixId: null });
    expect(none.result.works[0]).toMatchObject({ state: 'unmatch', checked: false });
    const w2 = await work([['小图2.jpg', await photo(600, 420)]]);
    expect((await check(w2, photo5)).state).toBe(400);
    const again = await apply([{ workUuid: w2.uuid, filePath: w2.files[0]!.filePath, kind: 'fill' }], 'attention');
    expect(again.result.items[0]).toMatchObject({ ok: true, stillWarned: true, after: { dpi: 120, widthPx: 600, heightPx: 420 } });
    // Checked again by the server: the right size now, and still 分辨率异常.
    expect(again.result.works[0]!.state).toBe('dpiAbnormal');
    expect(await pixels(again.result.items[0]!.newPath!)).toMatchObject({ width: 600, height: 420, density: 120 });
    const c = await check(w2, photo5);
    expect(c).toMatchObject({ state: 200, message: { resolutionWarning: true } });
  });

  it('留白适配 fits the picture inside the size at 300 dpi and pads it with white', async () => {
    const w = await work([['方图.jpg', await photo(1600, 1600)]]);
    await check(w, photo5);
    const done = await apply([{ workUuid: w.uuid, filePath: w.files[0]!.filePath, kind: 'fit' }]);
    const item = done.result.items[0]!;
    expect(item).toMatchObject({ ok: true, after: { widthPx: 1500, heightPx: 1051, dpi: 300 } });
    expect(item.padShare).toBeCloseTo(1 - 1051 / 1500, 2);
    expect(done.result.works[0]!.state).toBe('match');
    const { data, info } = await sharp(Buffer.from(await (await raw(item.newPath!)).arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect([info.width, info.height]).toEqual([1500, 1051]);
    for (const c of at(5, 5)) expect(c).toBeGreaterThan(250); // white padding on the left
    for (const c of at(1494, 1045)) expect(c).toBeGreaterThan(250);
    const [r, g, b] = at(750, 525);
    expect(r).toBeGreaterThan(180);
    expect(g!).toBeLessThan(80);
    expect(b!).toBeLessThan(80);
  });

  it('留白适配 of a 300 dpi photo a little short of 6寸 adds white around it, keeping every pixel at 300 dpi (LAN walk: shrunk to 298 dpi, 分辨率异常)', async () => {
    const picture = await textured(1700, 1200);
    const w = await work([['略小的照片.jpg', picture]]);
    // 143.9×101.6 mm against 152×102: too narrow.
    expect((await check(w, photo6)).state).not.toBe(200);
    const done = await apply([{ workUuid: w.uuid, filePath: w.files[0]!.filePath, kind: 'fit' }]);
    const item = done.result.items[0]!;
    expect(item).toMatchObject({ ok: true, after: { widthPx: 1795, heightPx: 1205, dpi: 300 } });
    expect(done.result.works[0]!.state).toBe('match');
    const fixed = Buffer.from(await (await raw(item.newPath!)).arrayBuffer());
    expect(await pixels(item.newPath!)).toMatchObject({ width: 1795, height: 1205, density: 300 });
    // The picture itself is cut back out of the white where it was put, as it was (only the JPEG's second pass differs).
    const inner = await sharp(fixed).extract({ left: 47, top: 2, width: 1700, height: 1200 }).png().toBuffer();
    expect(await difference(await sharp(picture).png().toBuffer(), inner)).toBeLessThan(3);
  });

  it('旋转 turns a photo whose only problem is its orientation, and only that', async () => {
    const original = await textured(1205, 1800);
    const w = await work([['竖放.jpg', original]]);
    expect((await check(w, photo6)).state).toBe(400);
    const small = await work([['小.jpg', await photo(600, 400)]]);
    await check(small, photo6);
    const five = await work([['五寸竖.jpg', await photo(1051, 1500)]]);
    await check(five, photo5);
    const p = (await (await preview([
      { workUuid: w.uuid, filePath: w.files[0]!.filePath, kind: 'rotate' },
      { workUuid: small.uuid, filePath: small.files[0]!.filePath, kind: 'rotate' },
      { workUuid: five.uuid, filePath: five.files[0]!.filePath, kind: 'rotate' },
    ])).json()) as BulkFixPreviewAnswer;
    expect(p.message.rows.map((r) => [r.ok, r.reason])).toEqual([[true, null], [false, '不是仅方向不符，旋转不能修复'], [false, '该部件允许横竖互换，方向无需旋转']]);
    const done = await apply([{ workUuid: w.uuid, filePath: w.files[0]!.filePath, kind: 'rotate' }]);
    expect(done.result.works[0]!.state).toBe('match');
    expect(await pixels(done.result.items[0]!.newPath!)).toMatchObject({ width: 1800, height: 1205, density: 300 });
    // The original turned and written once (JPEG at quality 95): no lossy copy of it made on the way.
    const turned = Buffer.from(await (await raw(done.result.items[0]!.newPath!)).arrayBuffer());
    expect(await difference(turned, await sharp(original).rotate(90).png().toBuffer())).toBeLessThan(3);
  });

  it('批量确认使用 accepts resolution warnings, keeps them with the work and its order, and undo withdraws them', async () => {
    // 127×89 mm at 150 dpi: the right size, half the resolution the print asks for.
    const w = await work([['低清.jpg', await photo(750, 526, 150)]]);
    expect(await check(w, photo5)).toMatchObject({ state: 200, message: { resolutionWarning: true } });
    expect((await stored(w.uuid)).state).toBe('dpiAbnormal');
    const done = await apply([{ workUuid: w.uuid, filePath: w.files[0]!.filePath, kind: 'accept' }]);
    expect(done.result.works[0]!.state).toBe('match');
    expect((await stored(w.uuid)).resolutionAccepted).toEqual([expect.objectContaining({ filePath: w.files[0]!.filePath, dpi: 150, threshold: 300 })]);
    // The check still names the warning; it says it was accepted, so the page shows 已匹配.
    expect(await check(w, photo5)).toMatchObject({ state: 200, message: { resolutionWarning: true, resolutionAccepted: true } });
    expect((await stored(w.uuid)).state).toBe('match');
    // Its row says so too, as a failing work's rows do (the triage reads them: LAN walk).
    const answered = await check(w, photo5);
    expect(answered.state === 200 && answered.message.fileCheckResult[0]).toMatchObject({ resolutionWarning: true, resolutionAccepted: true });

    const res = await t.call('POST', '/api/sales_order/batch', { token: demo, body: {
      idempotencyKey: randomUUID(), deliveryMethod: 'Unified',
      works: [{ uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity: 1, productId: photo5.productId, propertyConfigId: photo5.propertyConfigId, toning: 'None' }],
    } });
    expect(res.status).toBe(200);
    const [order] = await t.db.db.select().from(salesOrders).where(and(eq(salesOrders.hubId, 1), eq(salesOrders.workUuid, w.uuid)));
    expect(order!.resolutionAccepted).toEqual([expect.objectContaining({ filePath: w.files[0]!.filePath, dpi: 150 })]);

    const u = (await (await undo({ taskId: done.taskId })).json()) as BulkFixUndoAnswer;
    expect(u.message.works[0]!.state).toBe('dpiAbnormal');
    expect((await stored(w.uuid)).resolutionAccepted).toBeNull();
  });

  it('删除 takes files out of their works, and undo puts them back in their place', async () => {
    const img = await photo(1500, 1051);
    const w = await work([['相册/a.jpg', img], ['相册/b.jpg', img], ['相册/c.jpg', img]]);
    const solo = await work([['单张.jpg', img]]);
    const b = w.files.find((f) => f.fileName === 'b.jpg')!;
    const done = await apply([{ workUuid: w.uuid, filePath: b.filePath, kind: 'delete' }, { workUuid: solo.uuid, filePath: solo.files[0]!.filePath, kind: 'delete' }]);
    expect(done.result.items.map((i) => [i.ok, i.reason])).toEqual([[true, null], [false, '作品只剩这一个文件，请在订单列表中删除整个作品']]);
    expect((await stored(w.uuid)).files.map((f) => f.fileName)).toEqual(['a.jpg', 'c.jpg']);
    expect((await raw(b.filePath)).status).toBe(200);
    await undo({ taskId: done.taskId });
    expect((await stored(w.uuid)).files.map((f) => f.fileName)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
  });

  it('another hub\'s works, tasks and fixes are not found; hostile input gets a Chinese 4xx', async () => {
    const w = await work([['别人的.jpg', await photo(1800, 1205)]]);
    await check(w, photo5);
    const item = { workUuid: w.uuid, filePath: w.files[0]!.filePath, kind: 'fill' };
    const other = await preview([item], 'centre', partial);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { message: string }).message).toBe('作品不存在，请重新上传');
    expect((await t.call('POST', '/api/bulk-fix/apply', { token: partial, body: { items: [item] } })).status).toBe(404);
    const done = await apply([item]);
    expect((await t.call('GET', `/api/bulk-fix/tasks/${done.taskId}`, { token: partial })).status).toBe(404);
    expect((await undo({ taskId: done.taskId }, partial)).status).toBe(404);
    expect((await undo({ fixIds: [done.result.items[0]!.fixId!] }, partial)).status).toBe(404);
    expect((await stored(w.uuid)).files[0]!.filePath).toBe(done.result.items[0]!.newPath);

    const refusals: Array<[unknown, RegExp]> = [
      [{ items: [{ ...item, filePath: '../../etc/passwd' }] }, /文件路径不合法/],
      [{ items: [{ ...item, filePath: 'upload/x/其他.jpg' }] }, /文件不在作品中/],
      [{ items: [{ ...item, kind: 'burn' }] }, /请求参数不正确/],
      [{ items: [item, { ...item, kind: 'fit' }] }, /同一个文件只能选择一种修复/],
      [{ items: [] }, /请求参数不正确/],
      [{ items: [{ ...item, workUuid: 'not-a-uuid' }] }, /请求参数不正确/],
      [{ items: [item], position: 'left' }, /请求参数不正确/],
      ['{"items": [', /./],
    ];
    for (const [body, message] of refusals) {
      for (const route of ['preview', 'apply']) {
        const res = await t.call('POST', `/api/bulk-fix/${route}`, { token: demo, body });
        expect(res.status, `${route} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(((await res.json()) as { message: string }).message).toMatch(message);
      }
    }
    // A damaged photo is left as it is, with the reason.
    const broken = await work([['破损.jpg', corpusFile('damaged/pillow_truncated_jpeg.jpg')]]);
    await check(broken, photo5);
    const b = (await (await preview([{ workUuid: broken.uuid, filePath: broken.files[0]!.filePath, kind: 'fill' }])).json()) as BulkFixPreviewAnswer;
    expect(b.message.rows[0]).toMatchObject({ ok: false, reason: '文件破损，无法调整' });
    expect(b.message.samples).toEqual([]);

    const empty = await undo({});
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toMatch(/请指定要撤销的修复/);
    expect((await t.call('GET', '/api/bulk-fix/tasks/not-a-task', { token: demo })).status).toBe(400);
    expect((await t.call('POST', '/api/bulk-fix/preview', { body: { items: [item] } })).status).toBe(401);
  });
});
