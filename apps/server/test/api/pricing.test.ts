import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PDFDocument } from '@cantoo/pdf-lib';
import { and, eq, inArray } from 'drizzle-orm';
import type { CheckFileAnswer, SalesOrder } from '@portal/contract';
import { priceLines, salesOrders } from '../../src/db/schema/index.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { uploadFile } from '../helpers/upload.ts';

/** A JPEG of w×h mm at the dpi (pixels rounded). */
const photoMm = (w: number, h: number, dpi = 300) =>
  sharp({ create: { width: Math.round((w / 25.4) * dpi), height: Math.round((h / 25.4) * dpi), channels: 3, background: '#3377aa' } })
    .jpeg().withMetadata({ density: dpi }).toBuffer();

type Work = { uuid: string; articleName: string; filePath: string };
type Sku = Awaited<ReturnType<typeof findSku>>;
type Line = { uuid: string; amount: number | null; unitPrice: number | null; addPageNum: number; priceBasis: string; pricing: { text: string; basis: string; units: number; extraPages: number } | null; problem: string | null };
type Placed = { orders: Array<{ salesOrderNumber: string; articleName: string; amount: number; basisText: string }>; totalAmount: number };

/**
 * Issue #17 item 1: a work is priced by what its product counts (../shared/spec/decisions.md §6), on the demo catalogue:
 * photos per print, brochures and cards per copy (with extra pages), KT boards per m²; quantity breaks at
 * the counted units; the quote, the placed order and the order list carry the basis text.
 */
describe.each(DB_KINDS)('prices by what is printed on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let photo5: Sku;
  let brochure: Sku;
  let card: Sku;
  let board: Sku;
  const checked: Record<string, Work> = {};

  /** Uploads the files of one item, parses it and checks it against the SKU; the check must pass. */
  const work = async (files: Array<[string, Buffer]>, sku: Sku) => {
    const folderId = randomUUID();
    for (const [p, b] of files) expect((await uploadFile(t, demo, b, p, { folderId })).done).toBeDefined();
    const item = files[0]![0].split('/')[0]!;
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${item}`)}`, { token: demo });
    const w = ((await res.json()) as { message: { works: Work[] } }).message.works[0]!;
    const check = await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: w.filePath } });
    const answer = (await check.json()) as CheckFileAnswer;
    expect(answer.state, JSON.stringify(answer.state === 400 ? answer.message.messages : '')).toBe(200);
    return { work: w, answer };
  };
  const lineOf = (w: Work, sku: Sku, quantity: number) =>
    ({ uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity, productId: sku.productId, propertyConfigId: sku.propertyConfigId, toning: 'None' });
  const quote = async (works: Array<ReturnType<typeof lineOf>>) => {
    const res = await t.call('POST', '/api/sales_order/quote', { token: demo, body: { works } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { message: { lines: Line[]; totalAmount: number; problem: string | null } }).message;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    [photo5, brochure, card, board] = await Promise.all([
      findSku(t, demo, 'PH-5', 'PH5-GL-NB'), findSku(t, demo, 'BR-A4', 'BR-SS-C157-GL'), findSku(t, demo, 'BC-90', 'BC-D-C300'), findSku(t, demo, 'KT-6090', 'KT-6090-KT5'),
    ]);
    const photo = await photoMm(127, 89);
    const page = await photoMm(210, 285);
    const side = await photoMm(90, 54);
    const [photos, book, cards, kt] = await Promise.all([
      work(Array.from({ length: 10 }, (_, i): [string, Buffer] => [`十张照片/${i + 1}.jpg`, photo]), photo5),
      work([...Array.from({ length: 4 }, (_, i): [string, Buffer] => [`画册/封面/0${i + 1}.jpg`, page]), ...Array.from({ length: 20 }, (_, i): [string, Buffer] => [`画册/内页/${i + 1}.jpg`, page])], brochure),
      work([['名片/正面/a.jpg', side], ['名片/背面/b.jpg', side]], card),
      work([['展板.jpg', await photoMm(600, 900, 100)]], board),
    ]);
    // The check still counts pages above the base, and says what the price counts (the page shows 加页数 only for copies).
    expect(photos.answer.message).toMatchObject({ pageCount: 10, addPageNum: 9, priceBasis: 'print' });
    expect(book.answer.message).toMatchObject({ pageCount: 24, addPageNum: 4, priceBasis: 'copy' });
    expect(kt.answer.message).toMatchObject({ priceBasis: 'area' });
    Object.assign(checked, { photos: photos.work, book: book.work, cards: cards.work, kt: kt.work });
  }, 180_000);
  afterAll(async () => t?.close());

  it('prices a folder of 10 photos as 10 prints, with the break at 100 prints', async () => {
    const q = await quote([lineOf(checked.photos!, photo5, 1)]);
    expect(q.lines[0]!.amount).toBe(6.8);
    expect(q.lines[0]).toMatchObject({ priceBasis: 'print', unitPrice: 0.68, pricing: { text: '10张 × ¥0.68', basis: 'print', units: 10, extraPages: 0 }, problem: null });
    const ten = await quote([lineOf(checked.photos!, photo5, 10)]);
    expect(ten.lines[0]).toMatchObject({ amount: 60, unitPrice: 0.6, pricing: { text: '100张 × ¥0.60', units: 100 } });
    expect(ten.totalAmount).toBe(60);
  });

  it('prices a brochure per copy with its extra pages, and business cards per box', async () => {
    const q = await quote([lineOf(checked.book!, brochure, 20), lineOf(checked.cards!, card, 3)]);
    expect(q.lines.map((l) => [l.amount, l.pricing?.text])).toEqual([
      [500, '20本 × ¥23.80 + 加页 4页 × ¥0.30 × 20本'],
      [63.75, '3盒 × ¥21.25'],
    ]);
    expect(q.totalAmount).toBe(563.75);
    const fifty = await quote([lineOf(checked.book!, brochure, 50)]);
    expect(fifty.lines[0]).toMatchObject({ amount: 1121, pricing: { text: '50本 × ¥21.42 + 加页 4页 × ¥0.25 × 50本', extraPages: 4 } });
  });

  it('prices a KT board by its area × copies, rounded up to 0.01 m², with the break at 10 m²', async () => {
    const q = await quote([lineOf(checked.kt!, board, 2)]);
    expect(q.lines[0]).toMatchObject({ amount: 48.6, priceBasis: 'area', pricing: { text: '1.08㎡ × ¥45.00', units: 1.08 } });
    const many = await quote([lineOf(checked.kt!, board, 20)]);
    expect(many.lines[0]).toMatchObject({ amount: 432, pricing: { text: '10.80㎡ × ¥40.00' } });
  });

  it('places the order with the server\'s prices and shows the basis in the answer and in 我的订单; older orders keep their amount', async () => {
    const body = {
      idempotencyKey: randomUUID(), deliveryMethod: 'Unified',
      works: [lineOf(checked.photos!, photo5, 1), lineOf(checked.book!, brochure, 20), lineOf(checked.cards!, card, 3), lineOf(checked.kt!, board, 2)],
    };
    const res = await t.call('POST', '/api/sales_order/batch', { token: demo, body });
    expect(res.status).toBe(200);
    const placed = ((await res.json()) as { message: Placed }).message;
    expect(placed.orders.map((o) => [o.articleName, o.amount, o.basisText])).toEqual([
      ['十张照片', 6.8, '10张 × ¥0.68'],
      ['画册', 500, '20本 × ¥23.80 + 加页 4页 × ¥0.30 × 20本'],
      ['名片', 63.75, '3盒 × ¥21.25'],
      ['展板', 48.6, '1.08㎡ × ¥45.00'],
    ]);
    expect(placed.totalAmount).toBe(619.15);

    const list = (await (await t.call('GET', '/api/sales_order?page=0&size=10', { token: demo })).json()) as SalesOrder[];
    const byName = new Map(list.map((o) => [o.articleName, o]));
    expect(byName.get('画册')).toMatchObject({
      amount: 500, unitPrice: 23.8, addPageNum: 4, basisText: '20本 × ¥23.80 + 加页 4页 × ¥0.30 × 20本',
      pricing: { basis: 'copy', unitName: '本', units: 20, unitPrice: 23.8, copies: 20, extraPages: 4, extraPagePrice: 0.3, amount: 500 },
    });
    expect(byName.get('展板')).toMatchObject({ amount: 48.6, basisText: '1.08㎡ × ¥45.00', pricing: { basis: 'area', units: 1.08 } });

    // An order placed before prices had a basis: no pricing stored. It keeps its amount and reads 数量 × 单价.
    const old = byName.get('十张照片')!;
    await t.db.db.update(salesOrders).set({ pricing: null, amount: '0.68' }).where(eq(salesOrders.salesOrderNumber, old.salesOrderNumber));
    const again = (await (await t.call('GET', '/api/sales_order?page=0&size=10', { token: demo })).json()) as SalesOrder[];
    expect(again.find((o) => o.salesOrderNumber === old.salesOrderNumber)).toMatchObject({ amount: 0.68, pricing: null, basisText: '1 × ¥0.68' });

    // The same key answers the first answer.
    expect(((await (await t.call('POST', '/api/sales_order/batch', { token: demo, body })).json()) as { message: Placed }).message).toEqual(placed);
  });

  it('answers the price of a counted unit, and of an extra page, with the product\'s basis', async () => {
    const price = async (sku: Sku) => (await (await t.call('GET', `/api/price-lines/getByPriceTypeAndIdAndPropertyConfigId?entityId=1&priceType=customer&productId=${sku.productId}&propertyConfigId=${sku.propertyConfigId}&quantity=1`, { token: demo })).json()) as Record<string, unknown>;
    expect(await price(photo5)).toMatchObject({ amount: 0.68, priceBasis: 'print', priceUnit: '张', extraPageAmount: null });
    expect(await price(brochure)).toMatchObject({ amount: 23.8, priceBasis: 'copy', priceUnit: '本', extraPageAmount: 0.3 });
    expect(await price(board)).toMatchObject({ amount: 45, priceBasis: 'area', priceUnit: '㎡' });
    expect(board.product).toMatchObject({ priceBasis: 'area', priceUnit: '㎡' });
    expect(card.product).toMatchObject({ priceBasis: 'copy', priceUnit: '盒', pageCount: 2 });
  });
  it('refuses a line, then a batch, whose amount the order books cannot hold: in the quote, and when placed', async () => {
    // Prices as high as a shop can set them (numeric(12, 2)): the bounds decide, not the demo catalogue.
    const setUnitPrice = (sku: Sku, amount: string) =>
      t.db.db.update(priceLines).set({ amount }).where(and(eq(priceLines.propertyConfigId, sku.propertyConfigId), eq(priceLines.kind, 'unit')));
    const ids = [photo5.propertyConfigId, board.propertyConfigId];
    const saved = await t.db.db.select({ id: priceLines.id, amount: priceLines.amount }).from(priceLines).where(inArray(priceLines.propertyConfigId, ids));
    const place = async (works: Array<ReturnType<typeof lineOf>>) => {
      const res = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: randomUUID(), deliveryMethod: 'Unified', works } });
      return [res.status, ((await res.json()) as { message: unknown }).message];
    };
    try {
      // 10,000,000 boards of 0.53985 m² (2362×3543 px at 100 dpi) at ¥9,999,999,999.99: one line over ¥999,999,999,999.99.
      await setUnitPrice(board, '9999999999.99');
      const huge = [lineOf(checked.kt!, board, 10_000_000)];
      expect((await quote(huge)).lines[0]).toMatchObject({ problem: '展板：订单金额超出上限，请减少订购数量' });
      expect(await place(huge)).toEqual([400, '展板：订单金额超出上限，请减少订购数量']);

      // Each line within the bound (539,850 m² and 600,000 prints at ¥1,000,000.00), the two together over it.
      await setUnitPrice(board, '1000000.00');
      await setUnitPrice(photo5, '1000000.00');
      const two = [lineOf(checked.kt!, board, 1_000_000), lineOf(checked.photos!, photo5, 60_000)];
      const q = await quote(two);
      expect(q.lines.map((l) => [l.amount, l.problem])).toEqual([[539_850_000_000, null], [600_000_000_000, null]]);
      expect(q.totalAmount).toBe(1_139_850_000_000);
      // The quote says so before 提交订单 (it said nothing, and the order was refused: API probe).
      expect(q.problem).toBe('本批订单的总金额超出上限，请分批下单');
      expect(await place(two)).toEqual([400, '本批订单的总金额超出上限，请分批下单']);
      // Just under it, the batch is placed with the exact amount.
      await setUnitPrice(photo5, '766916.66');
      const placed = await place(two);
      expect((await quote(two)).problem).toBeNull();
      expect(placed[0]).toBe(200);
      expect((placed[1] as Placed).totalAmount).toBe(999_999_996_000);
    } finally {
      for (const line of saved) await t.db.db.update(priceLines).set({ amount: line.amount }).where(eq(priceLines.id, line.id));
    }
  });

  it('quotes a work whose page is too large for any price: its check failed, never a 500 (API probe)', async () => {
    // A page of 1e15 pt a side: 3.5e14 mm, an area of 1.2e23 m²; at the board's ¥45 a m² its amount passed 1e21 fen,
    // which the amount's text could not hold, and the whole quote was a 500 (报价失败 for every work of the batch).
    const doc = await PDFDocument.create();
    doc.addPage([1e15, 1e15]);
    const folderId = randomUUID();
    expect((await uploadFile(t, demo, Buffer.from(await doc.save()), '巨幅.pdf', { folderId })).done).toBeDefined();
    const parsed = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/巨幅.pdf`)}`, { token: demo });
    const w = ((await parsed.json()) as { message: { works: Work[] } }).message.works[0]!;
    const check = await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: board.productId, propertyConfigId: board.propertyConfigId, filePath: w.filePath } });
    expect(((await check.json()) as CheckFileAnswer).state).toBe(400);
    const q = await quote([lineOf(w, board, 1), lineOf(checked.kt!, board, 1)]);
    expect(q.lines[0]!.problem).toContain('的文件校验失败');
    expect(q.lines[1]).toMatchObject({ problem: null, amount: 24.3 });
    const res = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: randomUUID(), deliveryMethod: 'Unified', works: [lineOf(w, board, 1)] } });
    expect(res.status).toBe(400);
  });
});
