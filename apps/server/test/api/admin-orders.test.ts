import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import type { AdminOrderDetail, AdminOrderRow, SalesOrder } from '@portal/contract';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { uploadFile } from '../helpers/upload.ts';

const photoMm = (w: number, h: number, dpi = 300) =>
  sharp({ create: { width: Math.round((w / 25.4) * dpi), height: Math.round((h / 25.4) * dpi), channels: 3, background: '#4488cc' } })
    .jpeg().withMetadata({ density: dpi }).toBuffer();
const json = async <T>(res: Response) => (await res.json()) as T;

type Work = { uuid: string; articleName: string; filePath: string };
type Sku = Awaited<ReturnType<typeof findSku>>;

describe.each(DB_KINDS)('operator order intake and lifecycle on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;
  let op: string;
  let photo5: Sku;
  /** SO number → id, as the operator's list gives them. */
  const ids = new Map<string, number>();

  const placeOne = async (token: string, name: string, bytes: Buffer, sku: Sku, extra: Record<string, unknown> = {}) => {
    const folderId = randomUUID();
    expect((await uploadFile(t, token, bytes, name, { folderId })).done).toBeDefined();
    const parsed = await json<{ message: { works: Work[] } }>(await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${name}`)}`, { token }));
    const w = parsed.message.works[0]!;
    await t.call('POST', '/api/sales_order/checkFile', { token, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: w.filePath } });
    const res = await t.call('POST', '/api/sales_order/batch', { token, body: {
      idempotencyKey: randomUUID(), deliveryMethod: 'orderLocations' in extra ? 'Partial' : 'Unified',
      works: [{ uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity: 2, productId: sku.productId, propertyConfigId: sku.propertyConfigId, toning: 'None', ...extra }],
    } });
    expect(res.status).toBe(200);
    return (await json<{ message: { orders: Array<{ salesOrderNumber: string }> } }>(res)).message.orders[0]!.salesOrderNumber;
  };
  const idOf = async (so: string) => {
    if (!ids.has(so)) {
      const rows = await json<AdminOrderRow[]>(await t.call('GET', `/api/admin/orders?q=${so}`, { token: op }));
      ids.set(so, rows[0]!.id);
    }
    return ids.get(so)!;
  };
  const move = (id: number, body: Record<string, unknown>, token = op) => t.call('POST', `/api/admin/orders/${id}/status`, { token, body });

  let lowRes: string;
  let sharp5: string;
  let other: string;

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    op = await t.login('operator', 'operator');
    photo5 = await findSku(t, demo, 'PH-5', 'PH5-GL-NB');
    // 126×88 mm at 300 dpi: within 5寸's ±2 mm; stretched to 127×89 mm it would print at 297 dpi.
    sharp5 = await placeOne(demo, '清晰照片.jpg', await photoMm(126, 88), photo5);
    lowRes = await placeOne(demo, '低分辨率.jpg', await photoMm(127, 89, 200), photo5);
    other = await placeOne(partial, '分批客户照片.jpg', await photoMm(127, 89), photo5, {
      orderLocations: [{ contact: '李四', phone: '13900139000', province: '浙江省', city: '杭州市', district: '西湖区', address: '文三路1号' }],
    });
  }, 120_000);
  afterAll(async () => t?.close());

  it('lists every hub\'s orders newest first, paged, filtered by status, hub, product, date and SO number', async () => {
    const all = await t.call('GET', '/api/admin/orders?page=0&size=2', { token: op });
    expect(all.status).toBe(200);
    expect(all.headers.get('x-total-count')).toBe('3');
    const page0 = await json<AdminOrderRow[]>(all);
    expect(page0.map((o) => o.salesOrderNumber)).toEqual([other, lowRes]);
    expect(page0[0]).toMatchObject({ hubId: 2, hubName: '分批收货客户', status: 'pending', statusText: '待处理', productName: '5寸照片冲印', quantity: 2 });
    // The batch number the production zips take (it was shown nowhere: the operator check from another PC).
    expect(page0.map((o) => o.batchId)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(new Set(page0.map((o) => o.batchId)).size).toBe(2);
    const page1 = await json<AdminOrderRow[]>(await t.call('GET', '/api/admin/orders?page=1&size=2', { token: op }));
    expect(page1.map((o) => o.salesOrderNumber)).toEqual([sharp5]);

    const hub1 = await t.call('GET', '/api/admin/orders?hubId=1', { token: op });
    expect(hub1.headers.get('x-total-count')).toBe('2');
    expect((await json<AdminOrderRow[]>(await t.call('GET', `/api/admin/orders?q=${lowRes.slice(-8)}`, { token: op }))).map((o) => o.salesOrderNumber)).toEqual([lowRes]);
    // Staff look for an order by what they know of it: the work's name, the hub's or the customer's, in part, any case
    // (console walk: only SO numbers matched, and 暂无订单 said nothing more).
    const search = async (q: string) => {
      const res = await t.call('GET', `/api/admin/orders?q=${encodeURIComponent(q)}`, { token: op });
      return { total: res.headers.get('x-total-count'), numbers: (await json<AdminOrderRow[]>(res)).map((o) => o.salesOrderNumber) };
    };
    expect(await search('低分辨')).toEqual({ total: '1', numbers: [lowRes] });
    expect(await search('分批收货')).toEqual({ total: '1', numbers: [other] });
    expect(await search('演示客户')).toEqual({ total: '2', numbers: [lowRes, sharp5] });
    expect(await search(lowRes.toLowerCase())).toEqual({ total: '1', numbers: [lowRes] });
    expect(await search('100%_')).toEqual({ total: '0', numbers: [] });
    // An SO number typed in full-width finds it too.
    expect(await search(lowRes.replace(/[A-Z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)))).toEqual({ total: '1', numbers: [lowRes] });
    expect((await t.call('GET', `/api/admin/orders?productId=${photo5.productId}`, { token: op })).headers.get('x-total-count')).toBe('3');
    expect((await t.call('GET', `/api/admin/orders?productId=${photo5.productId + 1000}`, { token: op })).headers.get('x-total-count')).toBe('0');
    expect((await t.call('GET', '/api/admin/orders?status=shipped', { token: op })).headers.get('x-total-count')).toBe('0');
    // Today in the shop's days (UTC+8) holds them all; a day long gone holds none.
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect((await t.call('GET', `/api/admin/orders?from=${today}&to=${today}`, { token: op })).headers.get('x-total-count')).toBe('3');
    expect((await t.call('GET', '/api/admin/orders?from=2020-01-01&to=2020-01-31', { token: op })).headers.get('x-total-count')).toBe('0');
    const bad = await t.call('GET', '/api/admin/orders?from=25.11.2026', { token: op });
    expect(bad.status).toBe(400);
    expect((await json<{ message: string }>(bad)).message).toMatch(/日期格式应为 YYYY-MM-DD/);
    // Days that do not exist: a 400 naming it, not a 500 (13-45, found from another PC) nor a roll-over (02-30).
    for (const day of ['2026-13-45', '2026-02-30', '2026-00-10']) {
      const none = await t.call('GET', `/api/admin/orders?from=${day}`, { token: op });
      expect(none.status, day).toBe(400);
      expect((await json<{ message: string }>(none)).message).toContain('日期不存在');
    }
    expect((await t.call('GET', '/api/admin/orders?to=2028-02-29', { token: op })).status).toBe(200);
    const products = await json<Array<{ id: number; name: string }>>(await t.call('GET', '/api/admin/products', { token: op }));
    expect(products).toEqual([{ id: photo5.productId, name: '5寸照片冲印' }]);
  });

  it('shows an order\'s files with working thumbnails, the check per file, the accepted warnings, the address and the price basis', async () => {
    const res = await t.call('GET', `/api/admin/orders/${await idOf(lowRes)}`, { token: op });
    expect(res.status).toBe(200);
    const d = await json<AdminOrderDetail>(res);
    expect(d).toMatchObject({ salesOrderNumber: lowRes, articleName: '低分辨率', hubName: '演示门店客户', customerName: '演示客户', deliveryMethod: 'Unified', nextStatuses: ['in_production', 'cancelled'] });
    expect(d.addresses[0]).toMatchObject({ province: '广东省' });
    expect(d.pricing).toMatchObject({ basis: 'print', copies: 2 });
    expect(d.basisText).toBe(d.pricing!.text);
    expect(d.amount).toBe(d.pricing!.amount);
    expect(d.check!.resolutionWarning).toBe(true);
    expect(d.check!.warnings).toEqual(['分辨率低于要求：1 个文件（低分辨率.jpg）']);
    expect(d.check!.rows).toEqual([expect.objectContaining({ fileName: '低分辨率.jpg', component: '照片', pass: true, resolutionWarning: true, resolutionThreshold: 300, standardWidth: 127, standardHeight: 89 })]);
    expect(d.check!.rows[0]!.dpi).toBeCloseTo(200, 0);
    // The links are signed: they work without a token, as in an <img>.
    const thumb = await fetch(t.url + d.files[0]!.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).format).toBe('jpeg');
    const file = await fetch(t.url + d.files[0]!.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment/);

    const clean = await json<AdminOrderDetail>(await t.call('GET', `/api/admin/orders/${await idOf(sharp5)}`, { token: op }));
    expect(clean.check).toMatchObject({ resolutionWarning: false, warnings: [] });
    // 分辨率 is the file's own dpi, which the threshold was held against (it said 297dpi（要求≥300）beside 通过).
    expect(clean.check!.rows[0]).toMatchObject({ dpi: 300, resolutionThreshold: 300, pass: true });
    expect((await t.call('GET', '/api/admin/orders/999999', { token: op })).status).toBe(404);
  });

  it('moves an order 待处理 → 生产中 → 已发货 (carrier and tracking required) → 已完成, refusing illegal moves, and records each change', async () => {
    const id = await idOf(sharp5);
    const early = await move(id, { to: 'shipped', carrier: '顺丰', trackingNumber: 'SF100' });
    expect(early.status).toBe(409);
    expect((await json<{ message: string }>(early)).message).toBe('订单当前为待处理，不能改为已发货');
    expect((await move(id, { to: 'in_production', note: '已排版' })).status).toBe(200);
    const noTracking = await move(id, { to: 'shipped', carrier: '顺丰' });
    expect(noTracking.status).toBe(422);
    expect((await json<{ message: string }>(noTracking)).message).toBe('发货需要填写快递公司和快递单号');
    // A field refused by its schema is named in words, not as trackingNumber (console walk).
    const long = await move(id, { to: 'shipped', carrier: '顺丰', trackingNumber: 'S'.repeat(65) });
    expect([long.status, (await json<{ message: string }>(long)).message]).toEqual([400, '请求参数不正确：快递单号：不能超过64个字符']);
    // `to` is the new status here, not the list's 结束日期 (LAN check).
    const unknown = await move(id, { to: 'producing' });
    expect((await json<{ message: string }>(unknown)).message).toMatch(/^请求参数不正确：新状态：/);
    // The customer cannot cancel once production started.
    const late = await t.call('POST', `/api/sales_order/${sharp5}/cancel`, { token: demo, body: {} });
    expect(late.status).toBe(409);
    expect((await json<{ message: string }>(late)).message).toBe('订单已开始生产，不能取消，请联系印刷厂');
    // Typed with a Chinese input method in full-width mode, with a space: stored as a courier's site finds it (console probe).
    const shipped = await move(id, { to: 'shipped', carrier: '顺丰　', trackingNumber: 'ＳＦ１２３４ ５６７８９０' });
    expect(shipped.status).toBe(200);
    expect(await shipped.json()).toEqual({ salesOrderNumber: sharp5, from: 'in_production', to: 'shipped', statusText: '已发货' });
    const cancelShipped = await move(id, { to: 'cancelled' });
    expect(cancelShipped.status).toBe(409);
    expect((await json<{ message: string }>(cancelShipped)).message).toBe('订单当前为已发货，不能改为已取消');
    const bad = await move(id, { to: 'lost' });
    expect(bad.status).toBe(400);

    const d = await json<AdminOrderDetail>(await t.call('GET', `/api/admin/orders/${id}`, { token: op }));
    expect(d).toMatchObject({ status: 'shipped', carrier: '顺丰', trackingNumber: 'SF1234567890', nextStatuses: ['completed'] });
    expect(d.timeline.map((h) => [h.from, h.to, h.role, h.by, h.note])).toEqual([
      [null, 'pending', 'customer', 'demo', null],
      ['pending', 'in_production', 'operator', 'operator', '已排版'],
      ['in_production', 'shipped', 'operator', 'operator', null],
    ]);
    expect(d.timeline[2]).toMatchObject({ carrier: '顺丰', trackingNumber: 'SF1234567890' });

    // The customer sees the status, the tracking number and the timeline in 我的订单.
    const mine = await json<SalesOrder[]>(await t.call('GET', '/api/sales_order?page=0&size=10', { token: demo }));
    const o = mine.find((x) => x.salesOrderNumber === sharp5)!;
    expect(o).toMatchObject({ status: 'shipped', statusText: '已发货', carrier: '顺丰', trackingNumber: 'SF1234567890' });
    expect(o.timeline.map((h) => [h.toText, h.by])).toEqual([['待处理', '您'], ['生产中', '印刷厂'], ['已发货', '印刷厂']]);

    // A mistyped tracking number is corrected after shipping (the only move left was 完成: console walk); the customer
    // sees the new number and the correction in the timeline, and the ERP hears of it.
    const track = (body: Record<string, unknown>, token = op) => t.call('POST', `/api/admin/orders/${id}/tracking`, { token, body });
    expect((await track({ carrier: '中通', trackingNumber: 'ZT987' }, demo)).status).toBe(403);
    const empty = await track({ carrier: '中通', trackingNumber: ' ' });
    expect([empty.status, (await json<{ message: string }>(empty)).message]).toEqual([422, '发货需要填写快递公司和快递单号']);
    const fixed = await track({ carrier: ' 中通 ', trackingNumber: 'ZT9876543210', note: '单号录错' });
    expect(fixed.status, await fixed.clone().text()).toBe(200);
    const after = await json<AdminOrderDetail>(await t.call('GET', `/api/admin/orders/${id}`, { token: op }));
    expect(after).toMatchObject({ status: 'shipped', carrier: '中通', trackingNumber: 'ZT9876543210' });
    expect(after.timeline.at(-1)).toMatchObject({ from: 'shipped', to: 'shipped', note: '单号录错', carrier: '中通', trackingNumber: 'ZT9876543210' });
    const mineAfter = (await json<SalesOrder[]>(await t.call('GET', '/api/sales_order?page=0&size=10', { token: demo }))).find((x) => x.salesOrderNumber === sharp5)!;
    expect(mineAfter).toMatchObject({ carrier: '中通', trackingNumber: 'ZT9876543210' });
    expect(mineAfter.timeline.at(-1)).toMatchObject({ toText: '已发货', by: '印刷厂', note: '单号录错', trackingNumber: 'ZT9876543210' });

    expect((await move(id, { to: 'completed' })).status).toBe(200);
    expect((await json<AdminOrderRow[]>(await t.call('GET', '/api/admin/orders?status=completed', { token: op }))).map((r) => r.salesOrderNumber)).toEqual([sharp5]);
    // An order not shipped has no tracking number to correct.
    const waiting = await t.call('POST', `/api/admin/orders/${await idOf(other)}/tracking`, { token: op, body: { carrier: '顺丰', trackingNumber: 'SF1' } });
    expect([waiting.status, (await json<{ message: string }>(waiting)).message]).toEqual([409, '订单当前为待处理，还没有快递单号可以更正']);
  });

  it('lets the customer cancel a waiting order of its own hub only; the operator cancels until it ships', async () => {
    // Another hub's order is not found, and changes nothing.
    const foreign = await t.call('POST', `/api/sales_order/${other}/cancel`, { token: demo, body: {} });
    expect(foreign.status).toBe(404);
    const cancelled = await t.call('POST', `/api/sales_order/${lowRes}/cancel`, { token: demo, body: { note: '文件发错了' } });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ from: 'pending', to: 'cancelled', statusText: '已取消' });
    const twice = await t.call('POST', `/api/sales_order/${lowRes}/cancel`, { token: demo });
    expect(twice.status).toBe(409);
    expect((await json<{ message: string }>(twice)).message).toBe('订单已是已取消状态');
    const revive = await move(await idOf(lowRes), { to: 'in_production' });
    expect(revive.status).toBe(409);

    const id = await idOf(other);
    expect((await move(id, { to: 'in_production' })).status).toBe(200);
    expect((await move(id, { to: 'cancelled', note: '客户来电取消' })).status).toBe(200);
    const mine = await json<SalesOrder[]>(await t.call('GET', '/api/sales_order', { token: partial }));
    expect(mine[0]).toMatchObject({ status: 'cancelled', statusText: '已取消' });
    expect(mine[0]!.timeline.at(-1)).toMatchObject({ by: '印刷厂', note: '客户来电取消' });
  });

  it('writes one order event per placing and change, in order, for the webhooks', async () => {
    const rows = await t.db.db.execute<{ type: string; so: string; to: string | null }>(sql`
      select e.type, o.sales_order_number as so, e.payload->>'to' as to from order_events e join sales_orders o on o.id = e.order_id order by e.id`);
    const events = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as Array<{ type: string; so: string; to: string | null }>;
    const of = (so: string) => events.filter((e) => e.so === so).map((e) => (e.type === 'order.status_changed' ? `${e.type}:${e.to}` : e.type));
    expect(of(sharp5)).toEqual(['order.created', 'order.status_changed:in_production', 'order.status_changed:shipped', 'order.tracking_changed', 'order.status_changed:completed']);
    expect(of(lowRes)).toEqual(['order.created', 'order.status_changed:cancelled', 'order.cancelled']);
  });

  it('serves an unsigned file link only to its hub\'s active customer: not to an operator, not once the login is disabled', async () => {
    const d = await json<AdminOrderDetail>(await t.call('GET', `/api/admin/orders/${await idOf(sharp5)}`, { token: op }));
    const unsigned = `/api/files/raw/1/${d.files[0]!.filePath.split('/').map(encodeURIComponent).join('/')}`;
    expect((await t.call('GET', unsigned, { token: demo })).status).toBe(200);
    expect((await t.call('GET', unsigned, { token: op })).status).toBe(403);
    const logins = await json<Array<{ id: number; login: string }>>(await t.call('GET', '/api/admin/hubs/1/logins', { token: op }));
    const demoId = logins.find((l) => l.login === 'demo')!.id;
    expect((await t.call('POST', `/api/admin/logins/${demoId}/disabled`, { token: op, body: { disabled: true } })).status).toBe(200);
    try {
      expect((await t.call('GET', unsigned, { token: demo })).status).toBe(403);
      expect((await t.call('GET', '/api/sales_order', { token: demo })).status).toBe(401);
    } finally {
      await t.call('POST', `/api/admin/logins/${demoId}/disabled`, { token: op, body: { disabled: false } });
    }
    expect((await t.call('GET', unsigned, { token: demo })).status).toBe(200);
  });
});
