import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { SalesOrder } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import { customerLocations, priceLines, propertyConfigs } from '../../src/db/schema/index.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { uploadFile } from '../helpers/upload.ts';

const photoMm = (w: number, h: number, dpi = 300) =>
  sharp({ create: { width: Math.round((w / 25.4) * dpi), height: Math.round((h / 25.4) * dpi), channels: 3, background: '#4488cc' } })
    .jpeg().withMetadata({ density: dpi }).toBuffer();

type Work = { uuid: string; articleName: string; filePath: string; fileName: string };
type Sku = Awaited<ReturnType<typeof findSku>>;
const ADDRESS = { contact: '王小明', phone: '13800138000', province: '浙江省', city: '杭州市', district: '西湖区', address: '文三路100号' };

describe.each(DB_KINDS)('batch orders on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;
  let photo5: Sku;

  const work = async (token: string, name: string, bytes: Buffer) => {
    const folderId = randomUUID();
    const r = await uploadFile(t, token, bytes, name, { folderId });
    expect(r.done).toBeDefined();
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${name}`)}`, { token });
    return ((await res.json()) as { message: { works: Work[] } }).message.works[0]!;
  };
  const checked = async (token: string, name: string, bytes: Buffer, sku: Sku) => {
    const w = await work(token, name, bytes);
    await t.call('POST', '/api/sales_order/checkFile', { token, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: w.filePath } });
    return w;
  };
  const line = (w: Work, sku: Sku, extra: Record<string, unknown> = {}) =>
    ({ uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity: 2, productId: sku.productId, propertyConfigId: sku.propertyConfigId, toning: 'None', ...extra });
  const order = async (token: string, body: Record<string, unknown>) => {
    const res = await t.call('POST', '/api/sales_order/batch', { token, body: { idempotencyKey: randomUUID(), ...body } });
    return { status: res.status, body: (await res.json()) as { message: unknown } & Record<string, unknown> };
  };
  const price = async (token: string, customerId: number, sku: Sku) => {
    const res = await t.call('GET', `/api/price-lines/getByPriceTypeAndIdAndPropertyConfigId?entityId=${customerId}&priceType=customer&productId=${sku.productId}&propertyConfigId=${sku.propertyConfigId}&quantity=1`, { token });
    return ((await res.json()) as { amount: number }).amount;
  };

  const ordersOfDemo = async () => Number((await t.call('GET', '/api/sales_order?page=0&size=1', { token: demo })).headers.get('x-total-count'));

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    photo5 = await findSku(t, demo, 'PH-5', 'PH5-GL-NB');
  });
  afterAll(async () => t?.close());

  it('places one order per work with server prices, once per idempotency key, and lists them newest first', async () => {
    const a = await checked(demo, '订单A.jpg', await photoMm(127, 89), photo5);
    const b = await checked(demo, '订单B.jpg', await photoMm(89, 127), photo5);
    const key = randomUUID();
    const body = { idempotencyKey: key, deliveryMethod: 'Unified', works: [line(a, photo5), line(b, photo5, { quantity: 3 })] };
    const res = await t.call('POST', '/api/sales_order/batch', { token: demo, body });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { state: number; message: { orders: Array<{ salesOrderNumber: string; articleName: string; quantity: number; amount: number }>; totalAmount: number } };
    const unit = await price(demo, 1, photo5);
    expect(answer.state).toBe(200);
    expect(answer.message.orders.map((o) => [o.articleName, o.quantity, o.amount])).toEqual([['订单A', 2, unit * 2], ['订单B', 3, unit * 3]]);
    expect(answer.message.totalAmount).toBeCloseTo(unit * 5, 2);
    expect(new Set(answer.message.orders.map((o) => o.salesOrderNumber)).size).toBe(2);

    const again = await t.call('POST', '/api/sales_order/batch', { token: demo, body });
    expect(await again.json()).toEqual(answer);
    // The same key with another batch (other copies, another work, a confirmed total beside it) places nothing and
    // says so, rather than answering the first batch's orders as if the second had been placed.
    for (const other of [
      { ...body, works: [line(a, photo5, { quantity: 7 }), line(b, photo5, { quantity: 3 })] },
      { ...body, works: [line(b, photo5, { quantity: 3 })] },
    ]) {
      const reused = await t.call('POST', '/api/sales_order/batch', { token: demo, body: other });
      expect(reused.status).toBe(409);
      expect(await reused.json()).toMatchObject({ code: 'idempotency-conflict', message: '这次提交的编号已用于另一批订单，未重复下单：请刷新页面查看已提交的订单' });
    }
    // The confirmed total is not part of the batch: the same batch confirmed at a total answers its orders.
    expect(await (await t.call('POST', '/api/sales_order/batch', { token: demo, body: { ...body, expectedTotalAmount: answer.message.totalAmount } })).json()).toEqual(answer);
    const list = await t.call('GET', '/api/sales_order?page=0&size=10', { token: demo });
    expect(list.headers.get('x-total-count')).toBe('2');
    const orders = (await list.json()) as SalesOrder[];
    expect(orders.map((o) => o.articleName).sort()).toEqual(['订单A', '订单B']);
    expect(orders[0]).toMatchObject({ deliveryMethod: 'Unified', productName: '5寸照片冲印', orderLocations: [expect.objectContaining({ province: '广东省' })] });
    expect(orders[0]!.files[0]!.fileName).toMatch(/订单[AB]\.jpg/);
    // Each file's thumbnail, for the customer's 我的订单 as for the console's order page: a signed link an <img> follows
    // without a token (the page named the files only). Altered, it names nothing.
    const thumb = await fetch(t.url + orders[0]!.files[0]!.thumbnailUrl);
    expect([thumb.status, thumb.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBeGreaterThan(0);
    expect((await fetch(t.url + orders[0]!.files[0]!.thumbnailUrl.replace(/订单|%E8%AE%A2%E5%8D%95/, '%E5%8F%A6'))).status).toBe(403);

    expect((await t.call('GET', '/api/sales_order', { token: partial })).headers.get('x-total-count')).toBe('0');
    const del = await t.call('POST', '/api/files/deleteFile', { token: demo, body: { filePath: a.filePath } });
    expect(del.status).toBe(409);
    expect(((await del.json()) as { message: string }).message).toBe('该文件已下单，不能删除');
  });

  it('refuses, naming the first work that fails: unchecked or failing files, not saleable, no price, empty name, quantity', async () => {
    const bad = await checked(demo, '尺寸错.jpg', await photoMm(152, 102), photo5);
    let r = await order(demo, { deliveryMethod: 'Unified', works: [line(bad, photo5)] });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^尺寸错的文件校验失败：尺寸错\.jpg：尺寸不符/);

    const unsaleable = await findSku(t, demo, 'PH-6', 'PH6-PL-NB');
    const six = await checked(demo, '六寸.jpg', await photoMm(152, 102), unsaleable);
    r = await order(demo, { deliveryMethod: 'Unified', works: [line(six, unsaleable)] });
    expect(r.body.message).toBe('六寸：暂不销售，无法下单');

    const noPrice = await findSku(t, demo, 'PO-A2', 'PO-A2-PP');
    const poster = await checked(demo, '海报.jpg', await photoMm(420, 594, 150), noPrice);
    r = await order(demo, { deliveryMethod: 'Unified', works: [line(poster, noPrice)] });
    expect(r.body.message).toBe('海报：该商品暂无价格，无法下单');

    const ok = await checked(demo, '好的.jpg', await photoMm(127, 89), photo5);
    expect((await order(demo, { deliveryMethod: 'Unified', works: [line(ok, photo5, { articleName: ' ' })] })).body.message).toBe('作品名称不能为空');
    expect((await order(demo, { deliveryMethod: 'Unified', works: [line(ok, photo5, { quantity: 0 })] })).body.message).toBe('好的：文件的订购数量必须大于0');
    // The hub's way of delivery in words a customer reads, and what to do (it said 统一收货（Unified）: screenshot review).
    expect(await order(demo, { deliveryMethod: 'Partial', works: [line(ok, photo5)] }))
      .toMatchObject({ status: 400, body: { message: '该客户统一收货，不能为作品分别填写地址，请返回修改后重新提交' } });
    // An address per work where the hub's batch goes to one address is refused, not dropped (the press would ship elsewhere).
    const perWork = await order(demo, { deliveryMethod: 'Unified', works: [line(ok, photo5, { orderLocations: [ADDRESS] })] });
    expect([perWork.status, perWork.body.message]).toEqual([400, '该客户统一收货，不能为作品分别填写地址']);
    const badPhone = await order(demo, { deliveryMethod: 'Unified', location: { ...ADDRESS, phone: 'abc' }, works: [line(ok, photo5)] });
    expect([badPhone.status, badPhone.body.message]).toEqual([400, '收货地址的联系电话格式不正确']);

    const quote = await t.call('POST', '/api/sales_order/quote', { token: demo, body: { works: [line(ok, photo5), line(bad, photo5)] } });
    const q = (await quote.json()) as { message: { lines: Array<{ problem: string | null; unitPrice: number }> } };
    expect(q.message.lines[0]).toMatchObject({ problem: null, unitPrice: await price(demo, 1, photo5) });
    expect(q.message.lines[1]!.problem).toMatch(/文件校验失败/);
    expect((await t.call('GET', '/api/sales_order', { token: demo })).headers.get('x-total-count')).toBe('2');
  });

  it('refuses another hub\'s work and malformed bodies with 4xx', async () => {
    const mine = await checked(demo, '我的.jpg', await photoMm(127, 89), photo5);
    const r = await order(partial, { deliveryMethod: 'Partial', works: [line(mine, photo5, { orderLocations: [ADDRESS] })] });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/^我的：/);
    expect((await order(demo, { deliveryMethod: 'Unified', works: [] })).status).toBe(400);
    expect((await t.call('POST', '/api/sales_order/batch', { token: demo, body: { deliveryMethod: 'Unified' } })).status).toBe(400);
    expect((await t.call('POST', '/api/sales_order/batch', { token: demo, body: 'x'.repeat(9 * 1024 * 1024), headers: { 'content-type': 'application/json' } })).status).toBe(413);
  });

  it('asks each work of a Partial hub for its address, with the spec\'s messages', async () => {
    const w = await checked(partial, '分批.jpg', await photoMm(127, 89), photo5);
    const with_ = (l: Record<string, string>) => order(partial, { deliveryMethod: 'Partial', works: [line(w, photo5, { orderLocations: [{ ...ADDRESS, ...l }] })] });
    expect((await order(partial, { deliveryMethod: 'Partial', works: [line(w, photo5)] })).body.message).toBe('分批的收货地址不正确');
    expect((await with_({ contact: '' })).body.message).toBe('分批的收件人不能为空');
    expect((await with_({ phone: ' ' })).body.message).toBe('分批的联系电话不能为空');
    // Issue #17 item 5: a mainland mobile number or a landline with its area code.
    for (const phone of ['abc', '12345', '1380013800', '88886666']) {
      const r = await with_({ phone });
      expect([r.status, r.body.message]).toEqual([400, '分批的联系电话格式不正确']);
    }
    expect((await with_({ district: '' })).body.message).toBe('分批的收货地址不正确');
    expect((await order(partial, { deliveryMethod: 'Unified', works: [line(w, photo5)] })).status).toBe(400);
    const ok = await with_({ phone: '0571-88886666' });
    expect(ok.status).toBe(200);
    const orders = (await (await t.call('GET', '/api/sales_order', { token: partial })).json()) as SalesOrder[];
    expect(orders[0]).toMatchObject({ deliveryMethod: 'Partial', orderLocations: [expect.objectContaining({ contact: '王小明', city: '杭州市' })] });
    const amount = (ok.body.message as { orders: Array<{ amount: number }> }).orders[0]!.amount;
    expect(amount).toBeCloseTo((await price(partial, 2, photo5)) * 2, 2);
  });

  it('reports duplicated names and names already ordered in the hub', async () => {
    const res = await t.call('POST', '/api/sales_order/repeatFileNameCheck', { token: demo, body: { customerHubId: 1, files: ['x.jpg', 'x.jpg', '订单A.jpg', 'new.jpg'] } });
    const rows = (await res.json()) as Array<{ fileName: string; duplicated: boolean; salesOrderNumber: string | null }>;
    expect(rows[0]).toEqual({ fileName: 'x.jpg', duplicated: true, salesOrderNumber: null });
    expect(rows[2]).toMatchObject({ fileName: '订单A.jpg', duplicated: false, salesOrderNumber: expect.stringMatching(/^SO\d{8}/) });
    expect(rows[3]).toEqual({ fileName: 'new.jpg', duplicated: false, salesOrderNumber: null });
    expect((await t.call('POST', '/api/sales_order/repeatFileNameCheck', { token: partial, body: { files: ['订单A.jpg'] } }).then((r) => r.json()))).toEqual([{ fileName: '订单A.jpg', duplicated: false, salesOrderNumber: null }]);
    expect((await t.call('POST', '/api/sales_order/repeatFileNameCheck', { token: demo, body: { customerHubId: 2, files: [] } })).status).toBe(403);
  });

  it('checks as many names as the contract allows, each as long as it allows (a probe got 413 at a third of them)', async () => {
    const files = Array.from({ length: 10_000 }, (_, i) => `${String(i).padStart(5, '0')}${'长'.repeat(291)}.jpg`);
    const res = await t.call('POST', '/api/sales_order/repeatFileNameCheck', { token: demo, body: { customerHubId: 1, files } });
    expect(res.status).toBe(200);
    const rows = (await res.json()) as Array<{ fileName: string; duplicated: boolean }>;
    expect(rows.length).toBe(10_000);
    expect(rows.every((r) => !r.duplicated)).toBe(true);
  });

  it('bounds a line\'s copies in the quote and the order alike, in Chinese (2147483648 was a 500)', async () => {
    const w = await checked(demo, '上限.jpg', await photoMm(127, 89), photo5);
    for (const quantity of [10_000_001, 2_147_483_648]) {
      const r = await order(demo, { deliveryMethod: 'Unified', works: [line(w, photo5, { quantity })] });
      expect([r.status, r.body.message]).toEqual([400, '上限：文件的订购数量不能超过10000000']);
      const q = await t.call('POST', '/api/sales_order/quote', { token: demo, body: { works: [line(w, photo5, { quantity })] } });
      expect(q.status).toBe(200);
      expect(((await q.json()) as { message: { lines: unknown[] } }).message.lines[0]).toMatchObject({ problem: '上限：文件的订购数量不能超过10000000', amount: null });
    }
    const most = await order(demo, { deliveryMethod: 'Unified', works: [line(w, photo5, { quantity: 10_000_000 })] });
    expect(most.status).toBe(200);
  });

  it('gives each order its own copies at the address: the Unified batch\'s one, or a Partial line\'s addresses that add up to it', async () => {
    const a = await checked(demo, '份数A.jpg', await photoMm(127, 89), photo5);
    const b = await checked(demo, '份数B.jpg', await photoMm(127, 89), photo5);
    const unified = await order(demo, { deliveryMethod: 'Unified', location: { ...ADDRESS, quantity: 5 }, works: [line(a, photo5, { quantity: 1 }), line(b, photo5, { quantity: 4 })] });
    expect(unified.status).toBe(200);
    const listed = (await (await t.call('GET', '/api/sales_order?page=0&size=2', { token: demo })).json()) as SalesOrder[];
    expect(listed.map((o) => [o.articleName, o.orderLocations?.map((l) => l.quantity)]).sort()).toEqual([['份数A', [1]], ['份数B', [4]]]);

    const w = await checked(partial, '分两处.jpg', await photoMm(127, 89), photo5);
    const split = (quantities: number[], quantity: number) =>
      order(partial, { deliveryMethod: 'Partial', works: [line(w, photo5, { quantity, orderLocations: quantities.map((n, i) => ({ ...ADDRESS, address: `文三路${i + 1}号`, quantity: n })) })] });
    for (const [quantities, quantity, sum] of [[[50, 70], 2, 120], [[1], 2, 1], [[3, 1], 5, 4]] as const) {
      const r = await split([...quantities], quantity);
      expect([r.status, r.body.message]).toEqual([400, `分两处：各收货地址的数量之和（${sum}）与订购数量（${quantity}）不一致`]);
    }
    expect((await split([3, 2], 5)).status).toBe(200);
    const [placed] = (await (await t.call('GET', '/api/sales_order?page=0&size=1', { token: partial })).json()) as SalesOrder[];
    expect(placed!.orderLocations?.map((l) => [l.address, l.quantity])).toEqual([['文三路1号', 3], ['文三路2号', 2]]);
  });

  it('takes an address by its id only from the hub\'s own addresses', async () => {
    const rows = await t.db.db.select({ id: customerLocations.id, hubId: customerLocations.hubId }).from(customerLocations);
    const demoHub = (await (await t.call('GET', '/api/account', { token: demo })).json()) as { customerHubId: number };
    const foreign = rows.find((r) => r.hubId !== demoHub.customerHubId)!.id;
    const own = rows.find((r) => r.hubId === demoHub.customerHubId)!.id;
    const w = await checked(demo, '地址.jpg', await photoMm(127, 89), photo5);
    const theirs = await order(demo, { deliveryMethod: 'Unified', location: { ...ADDRESS, addressId: foreign }, works: [line(w, photo5)] });
    expect([theirs.status, theirs.body.message]).toEqual([404, '收货地址不存在']);
    const v = await checked(partial, '地址B.jpg', await photoMm(127, 89), photo5);
    const partialForeign = await order(partial, { deliveryMethod: 'Partial', works: [line(v, photo5, { orderLocations: [{ ...ADDRESS, addressId: own }] })] });
    expect(partialForeign.status).toBe(404);
    expect((await order(demo, { deliveryMethod: 'Unified', location: { ...ADDRESS, addressId: own }, works: [line(w, photo5)] })).status).toBe(200);
  });

  it('refuses an order whose total is no longer the one the customer confirmed (the shop changed a price meanwhile), with both totals', async () => {
    const w = await checked(demo, '改价.jpg', await photoMm(127, 89), photo5);
    const works = [line(w, photo5, { quantity: 3 })];
    const quote = async () => ((await (await t.call('POST', '/api/sales_order/quote', { token: demo, body: { works } })).json()) as { message: { totalAmount: number } }).message.totalAmount;
    const confirmed = await quote();
    const lines = and(eq(priceLines.priceType, 'customer'), eq(priceLines.entityId, 1), eq(priceLines.propertyConfigId, photo5.propertyConfigId), eq(priceLines.kind, 'unit'));
    const before = await t.db.db.select({ id: priceLines.id, amount: priceLines.amount }).from(priceLines).where(lines);
    try {
      // The operator raises the price by 0.01 a print while /payment1 is open.
      for (const r of before) await t.db.db.update(priceLines).set({ amount: (Number(r.amount) + 0.01).toFixed(2) }).where(eq(priceLines.id, r.id));
      const now = await quote();
      expect(Math.round((now - confirmed) * 100)).toBe(3);
      const key = randomUUID();
      const ordersBefore = await ordersOfDemo();
      const refused = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: key, deliveryMethod: 'Unified', expectedTotalAmount: confirmed, works } });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ code: 'price-changed', message: `价格已变动：确认时合计¥${confirmed.toFixed(2)}，现在合计¥${now.toFixed(2)}，请核对新的金额后再提交` });
      expect(await ordersOfDemo(), 'nothing placed').toBe(ordersBefore);
      // A confirmed total that is not a whole number of fen is refused in words, not rounded to whichever total is due.
      const odd = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: key, deliveryMethod: 'Unified', expectedTotalAmount: now + 0.005, works } });
      expect(odd.status).toBe(400);
      expect(await odd.json()).toMatchObject({ message: '确认的合计金额最多两位小数' });
      expect(await ordersOfDemo(), 'nothing placed').toBe(ordersBefore);
      // Confirmed again at the new total, the same key places it.
      const placed = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: key, deliveryMethod: 'Unified', expectedTotalAmount: now, works } });
      expect(placed.status).toBe(200);
      expect(((await placed.json()) as { message: { totalAmount: number } }).message.totalAmount).toBe(now);
      // A client that sends no confirmed total (older clients, simple integrations) is priced as before.
      const other = await checked(demo, '改价二.jpg', await photoMm(127, 89), photo5);
      expect((await order(demo, { deliveryMethod: 'Unified', works: [line(other, photo5)] })).status).toBe(200);
    } finally {
      for (const r of before) await t.db.db.update(priceLines).set({ amount: r.amount }).where(eq(priceLines.id, r.id));
    }
  });

  it('refuses an order where a line\'s amount is no longer the one confirmed, though the total is (one price up, another down)', async () => {
    const matte = await findSku(t, demo, 'PH-5', 'PH5-MT-NB');
    const a = await checked(demo, '改价光面.jpg', await photoMm(127, 89), photo5);
    const b = await checked(demo, '改价亚面.jpg', await photoMm(127, 89), matte);
    const works = [line(a, photo5, { quantity: 3 }), line(b, matte, { quantity: 3 })];
    type Quote = { message: { totalAmount: number; lines: Array<{ uuid: string; amount: number }> } };
    const quote = async () => ((await (await t.call('POST', '/api/sales_order/quote', { token: demo, body: { works } })).json()) as Quote).message;
    const confirmed = await quote();
    const amountOf = (q: Quote['message'], w: Work) => q.lines.find((l) => l.uuid === w.uuid)!.amount;
    const unitLines = (sku: Sku) => and(eq(priceLines.priceType, 'customer'), eq(priceLines.entityId, 1), eq(priceLines.propertyConfigId, sku.propertyConfigId), eq(priceLines.kind, 'unit'));
    const before = [
      ...(await t.db.db.select({ id: priceLines.id, amount: priceLines.amount }).from(priceLines).where(unitLines(photo5))).map((r) => ({ ...r, by: 0.01 })),
      ...(await t.db.db.select({ id: priceLines.id, amount: priceLines.amount }).from(priceLines).where(unitLines(matte))).map((r) => ({ ...r, by: -0.01 })),
    ];
    try {
      // The operator raises the glossy print by 0.01 and lowers the matte one by 0.01 while /payment1 is open.
      for (const r of before) await t.db.db.update(priceLines).set({ amount: (Number(r.amount) + r.by).toFixed(2) }).where(eq(priceLines.id, r.id));
      const now = await quote();
      expect(now.totalAmount, 'the same total').toBe(confirmed.totalAmount);
      expect(Math.round((amountOf(now, a) - amountOf(confirmed, a)) * 100)).toBe(3);
      const ordersBefore = await ordersOfDemo();
      const withAmounts = (q: Quote['message']) => works.map((w) => ({ ...w, expectedAmount: q.lines.find((l) => l.uuid === w.uuid)!.amount }));
      const key = randomUUID();
      const refused = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: key, deliveryMethod: 'Unified', expectedTotalAmount: confirmed.totalAmount, works: withAmounts(confirmed) } });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({
        code: 'price-changed',
        message: `价格已变动：「改价光面」确认时¥${amountOf(confirmed, a).toFixed(2)}，现在¥${amountOf(now, a).toFixed(2)}，请核对新的金额后再提交`,
      });
      expect(await ordersOfDemo(), 'nothing placed').toBe(ordersBefore);
      // A confirmed amount that is not a whole number of fen is refused in words.
      const odd = withAmounts(now).map((w, i) => (i === 0 ? { ...w, expectedAmount: w.expectedAmount + 0.005 } : w));
      const oddly = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: key, deliveryMethod: 'Unified', works: odd } });
      expect([oddly.status, ((await oddly.json()) as { message: string }).message]).toEqual([400, '改价光面：确认金额最多两位小数']);
      // Confirmed again at the new prices, the same key places both lines at them.
      const placed = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: key, deliveryMethod: 'Unified', expectedTotalAmount: now.totalAmount, works: withAmounts(now) } });
      expect(placed.status).toBe(200);
      const answer = (await placed.json()) as { message: { orders: Array<{ articleName: string; amount: number }> } };
      expect(answer.message.orders.map((o) => [o.articleName, o.amount])).toEqual([['改价光面', amountOf(now, a)], ['改价亚面', amountOf(now, b)]]);
    } finally {
      for (const r of before) await t.db.db.update(priceLines).set({ amount: r.amount }).where(eq(priceLines.id, r.id));
    }
  });

  it('keeps a card\'s files in the catalogue\'s order of its components (正面 before 背面), whatever order they were picked in', async () => {
    const card = await findSku(t, demo, 'BC-90', 'BC-D-C300');
    const side = await photoMm(90, 54);
    const folderId = randomUUID();
    for (const p of ['名片/背面/b.jpg', '名片/正面/a.jpg']) expect((await uploadFile(t, demo, side, p, { folderId })).done).toBeDefined();
    const parsed = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/名片`)}`, { token: demo });
    const w = ((await parsed.json()) as { message: { works: Work[] } }).message.works[0]!;
    await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: card.productId, propertyConfigId: card.propertyConfigId, filePath: w.filePath } });
    const placed = await order(demo, { deliveryMethod: 'Unified', works: [line(w, card, { quantity: 1 })] });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const so = (placed.body.message as { orders: Array<{ salesOrderNumber: string }> }).orders[0]!.salesOrderNumber;
    const mine = ((await (await t.call('GET', '/api/sales_order?page=0&size=100', { token: demo })).json()) as SalesOrder[]).find((o) => o.salesOrderNumber === so)!;
    expect(mine.files.map((f) => [f.component, f.fileName])).toEqual([['正面', 'a.jpg'], ['背面', 'b.jpg']]);
    const operator = await t.login('operator', 'operator');
    const row = ((await (await t.call('GET', `/api/admin/orders?q=${so}`, { token: operator })).json()) as Array<{ id: number; salesOrderNumber: string }>).find((o) => o.salesOrderNumber === so)!;
    const detail = (await (await t.call('GET', `/api/admin/orders/${row.id}`, { token: operator })).json()) as { files: Array<{ component: string | null }>; check: { rows: Array<{ component: string | null }> } };
    expect(detail.files.map((f) => f.component)).toEqual(['正面', '背面']);
    expect(detail.check.rows.map((r) => r.component)).toEqual(['正面', '背面']);
  });

  it('says in words what is wrong with a copies number an integration sends (2.5 read 无效输入：期望 int，实际接收 数字)', async () => {
    const w = await checked(demo, '小数.jpg', await photoMm(127, 89), photo5);
    const half = await order(demo, { deliveryMethod: 'Unified', works: [line(w, photo5, { quantity: 2.5 })] });
    expect([half.status, half.body.message]).toEqual([400, '请求参数不正确：第1个作品的数量：订购数量必须是整数']);
    const v = await checked(partial, '小数B.jpg', await photoMm(127, 89), photo5);
    const none = await order(partial, { deliveryMethod: 'Partial', works: [line(v, photo5, { orderLocations: [{ ...ADDRESS, quantity: 0 }, { ...ADDRESS, quantity: 2 }] })] });
    expect([none.status, none.body.message]).toEqual([400, '请求参数不正确：第1个作品的第1个收货地址的数量：该地址的数量必须大于0']);
  });

  it('refuses what a money probe got placed: an unchecked work, an address without its copies or outside the region tables, a fixed toning switched (API probe)', async () => {
    // Parsed, never checked (../shared/spec/decisions.md §7 lists "unchecked"); or checked against another SKU.
    const never = await work(demo, '未校验.jpg', await photoMm(127, 89));
    const notChecked = '未校验的文件校验失败：尚未按所选产品校验，请重新选择产品并校验';
    expect(await order(demo, { deliveryMethod: 'Unified', works: [line(never, photo5)] })).toMatchObject({ status: 400, body: { message: notChecked } });
    const other = await findSku(t, demo, 'PH-5', 'PH5-MT-NB');
    await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: other.productId, propertyConfigId: other.propertyConfigId, filePath: never.filePath } });
    expect((await order(demo, { deliveryMethod: 'Unified', works: [line(never, photo5)] })).body.message).toBe(notChecked);
    expect((await order(demo, { deliveryMethod: 'Unified', works: [line(never, other)] })).status).toBe(200);

    // Two addresses, the second without its number: it was stored, and ticketed, without 份数.
    const w = await checked(partial, '两处.jpg', await photoMm(127, 89), photo5);
    const to = (locations: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) =>
      order(partial, { deliveryMethod: 'Partial', ...extra, works: [line(w, photo5, { quantity: 3, orderLocations: locations })] });
    expect(await to([{ ...ADDRESS, quantity: 3 }, { ...ADDRESS, address: '另一个地址2号' }]))
      .toMatchObject({ status: 400, body: { message: '两处：有多个收货地址时，每个地址都要填写数量' } });
    // A batch address for a hub whose works each have their own was dropped without a word.
    expect(await to([ADDRESS], { location: ADDRESS })).toMatchObject({ status: 400, body: { message: '该客户需为每个作品分别填写收货地址，不能统一填写' } });
    expect(await order(partial, { deliveryMethod: 'Unified', location: ADDRESS, works: [line(w, photo5)] }))
      .toMatchObject({ status: 400, body: { message: '该客户需为每个作品分别填写收货地址，请返回修改后重新提交' } });
    // Regions that are not in the tables: 火星, or 深圳市 under 浙江省.
    for (const l of [{ province: '火星' }, { city: '深圳市' }, { district: '南山区' }]) {
      expect(await to([{ ...ADDRESS, ...l }])).toMatchObject({ status: 400, body: { message: '两处的收货地址不正确' } });
    }
    expect(await order(demo, { deliveryMethod: 'Unified', location: { ...ADDRESS, province: '火星' }, works: [line(never, other)] }))
      .toMatchObject({ status: 400, body: { message: '收货地址不正确' } });
    expect((await to([{ ...ADDRESS, province: ' 浙江省 ' }])).status).toBe(200);

    // A SKU whose toning the customer may not switch (customToning false) is ordered with its own.
    const fixed = await checked(demo, '不调色.jpg', await photoMm(127, 89), photo5);
    await t.db.db.update(propertyConfigs).set({ customToning: false }).where(eq(propertyConfigs.id, photo5.propertyConfigId));
    try {
      expect(await order(demo, { deliveryMethod: 'Unified', works: [line(fixed, photo5, { toning: 'Manual', customToning: '偏暖一点' })] }))
        .toMatchObject({ status: 400, body: { message: '不调色：该商品的调色方式不能更改（不调色）' } });
    } finally {
      await t.db.db.update(propertyConfigs).set({ customToning: true }).where(eq(propertyConfigs.id, photo5.propertyConfigId));
    }
  });

  it('quotes the other works of a batch when one work\'s SKU left the catalogue, and names it (the quote was a 404)', async () => {
    const a = await checked(demo, '还在.jpg', await photoMm(127, 89), photo5);
    const gone = await findSku(t, demo, 'PH-5', 'PH5-GL-WB');
    const b = await checked(demo, '已下架.jpg', await photoMm(127, 89), gone);
    await t.db.db.update(propertyConfigs).set({ cancelled: true }).where(eq(propertyConfigs.id, gone.propertyConfigId));
    try {
      const res = await t.call('POST', '/api/sales_order/quote', { token: demo, body: { works: [line(a, photo5), line(b, gone)] } });
      expect(res.status).toBe(200);
      const q = (await res.json()) as { message: { lines: Array<{ problem: string | null; amount: number | null; priceBasis: string | null }>; totalAmount: number } };
      expect(q.message.lines[0]).toMatchObject({ problem: null, priceBasis: 'print' });
      expect(q.message.lines[1]).toEqual(expect.objectContaining({ problem: '已下架：商品配置不存在，请重新选择产品', amount: null, priceBasis: null }));
      expect(q.message.totalAmount).toBe(q.message.lines[0]!.amount);
      expect(await order(demo, { deliveryMethod: 'Unified', works: [line(a, photo5), line(b, gone)] }))
        .toMatchObject({ status: 400, body: { message: '已下架：商品配置不存在，请重新选择产品' } });
    } finally {
      await t.db.db.update(propertyConfigs).set({ cancelled: false }).where(eq(propertyConfigs.id, gone.propertyConfigId));
    }
  });
});
