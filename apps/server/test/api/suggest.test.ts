import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import type { SuggestProductsAnswer } from '@portal/contract';
import { hubProducts, products, propertyConfigs } from '../../src/db/schema/index.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { uploadFile } from '../helpers/upload.ts';

/** A real JPEG of w×h px stating `dpi` (a photo's own pixels: a gradient, not a flat colour). */
const jpeg = (w: number, h: number, dpi = 300) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#7799bb' } })
    .composite([{ input: Buffer.from(`<svg width="${w}" height="${h}"><circle cx="${w / 2}" cy="${h / 2}" r="${Math.min(w, h) / 3}" fill="#dd6633"/></svg>`) }])
    .jpeg({ quality: 80 }).withMetadata({ density: dpi }).toBuffer();

type Work = { uuid: string; articleName: string; filePath: string; files: Array<{ filePath: string }> };

describe.each(DB_KINDS)('推荐产品 on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;

  /** Uploads files into one batch and parses one top-level item of it. */
  const upload = async (token: string, files: Array<[string, Buffer]>, item: string) => {
    const folderId = randomUUID();
    for (const [p, b] of files) expect((await uploadFile(t, token, b, p, { folderId })).done).toBeDefined();
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${item}`)}`, { token });
    return ((await res.json()) as { message: { works: Work[] } }).message.works;
  };
  const suggest = async (token: string, workUuids: string[]) => {
    const res = await t.call('POST', '/api/sales_order/suggestProducts', { token, body: { workUuids } });
    return { status: res.status, body: (await res.json()) as SuggestProductsAnswer & { message?: string } };
  };

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
  });
  afterAll(async () => t?.close());

  it('a folder of 1795×1205 px photos at 300 dpi is recognised as 6寸 (152×102 mm), and checks with the suggestion', async () => {
    const photo = await jpeg(1795, 1205);
    const upright = await jpeg(1205, 1795);
    const [folder] = await upload(demo, [['假期/p1.jpg', photo], ['假期/p2.jpg', photo], ['假期/p3.jpg', upright]], '假期');
    const res = await suggest(demo, [folder!.uuid]);
    expect(res.status).toBe(200);
    const [top] = res.body.works[0]!.suggestions;
    expect(top).toMatchObject({ productName: '6寸照片冲印', skuNumber: 'S201', fit: 'exact', swapped: 1, resolutionWarnings: 0, pageCount: 3 });
    expect(top!.components).toEqual([expect.objectContaining({ componentName: '照片', width: 152, height: 102, count: 3 })]);
    // The suggestion is what 选择产品 then answers.
    const check = await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: top!.productId, propertyConfigId: top!.propertyConfigId, filePath: folder!.filePath, workUuid: folder!.uuid } });
    expect(((await check.json()) as { state: number }).state).toBe(200);
  });

  it('answers each work its own suggestions, best first; a work that fits nothing gets none', async () => {
    const five = (await upload(demo, [['five.jpg', await jpeg(1500, 1051)]], 'five.jpg'))[0]!;
    const odd = (await upload(demo, [['odd.jpg', await jpeg(1000, 1000)]], 'odd.jpg'))[0]!;
    const res = await suggest(demo, [five.uuid, odd.uuid]);
    expect(res.body.works.map((w) => [w.workUuid, w.suggestions[0]?.productName ?? null])).toEqual([[five.uuid, '5寸照片冲印'], [odd.uuid, null]]);
  });

  it('only the hub\'s visible products and saleable SKUs are suggested', async () => {
    const [six] = await t.db.db.select({ id: products.id }).from(products).where(eq(products.number, 'PH-6'));
    const [five] = await t.db.db.select({ id: products.id }).from(products).where(eq(products.number, 'PH-5'));
    const photo = await jpeg(1795, 1205);
    const [mine] = await upload(partial, [['p.jpg', photo]], 'p.jpg');
    // Sold to every hub: 6寸, with its saleable SKUs only (PH6-PL-NB is not for sale).
    const all = (await suggest(partial, [mine!.uuid])).body.works[0]!.suggestions;
    expect(all[0]!.productName).toBe('6寸照片冲印');
    const notForSale = (await t.db.db.select({ id: propertyConfigs.id }).from(propertyConfigs).where(eq(propertyConfigs.number, 'PH6-PL-NB')))[0]!.id;
    expect([all[0]!.propertyConfigId, ...all[0]!.otherPropertyConfigIds]).not.toContain(notForSale);
    // Hub 2 listed for 5寸 only: 6寸 is not its product, so nothing fits.
    await t.db.db.insert(hubProducts).values({ hubId: 2, productId: five!.id });
    try {
      expect((await suggest(partial, [mine!.uuid])).body.works[0]!.suggestions).toEqual([]);
      expect(six).toBeDefined();
    } finally {
      await t.db.db.delete(hubProducts).where(eq(hubProducts.hubId, 2));
    }
  });

  it('another hub\'s work is not found; a bad body is a 400 with a message', async () => {
    const [theirs] = await upload(partial, [['q.jpg', await jpeg(1795, 1205)]], 'q.jpg');
    const res = await suggest(demo, [theirs!.uuid]);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('作品不存在，请重新上传');
    expect((await suggest(demo, [])).status).toBe(400);
  });
});
