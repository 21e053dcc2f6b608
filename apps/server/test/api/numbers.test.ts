/**
 * Numbers past what the database holds (found by a hostile probe, 2026-11-29): every route of the OpenAPI
 * document called with 2147483648 (one past PostgreSQL's integer) in each integer of its path, query and
 * body answers 4xx, never a 500; an order's quantity and money have bounds the quote and the order share.
 * The same numbers deep in an otherwise valid request (a draft's version, an order's address id: both answered
 * 500 "out of range for type integer" to a second probe, 2026-11-29, past the first checks the generic calls stop at).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DEMO_OPERATOR } from '../../src/db/seed/demo.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { uploadFile } from '../helpers/upload.ts';

const BIG = 2147483648;

type Schema = { type?: string; format?: string; enum?: unknown[]; const?: unknown; items?: Schema; properties?: Record<string, Schema>; anyOf?: Schema[] };
type Operation = { parameters?: Array<{ name: string; in: string; schema?: Schema }>; requestBody?: { content?: Record<string, { schema?: Schema }> } };

/** A value of the schema whose every integer is BIG. */
function fill(s: Schema | undefined): unknown {
  if (!s) return 1;
  if (s.type === 'integer' || s.type === 'number') return BIG;
  if (s.type === 'string') return s.format === 'uuid' ? randomUUID() : s.enum?.[0] ?? 'abc12345';
  if (s.type === 'boolean') return true;
  if (s.type === 'array') return [fill(s.items)];
  if (s.type === 'object') return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, fill(v)]));
  if (s.anyOf) return fill(s.anyOf[0]);
  return s.enum?.[0] ?? s.const ?? 1;
}

describe.each(DB_KINDS)('numbers past the database on %s', (kind) => {
  let t: TestApp;
  let customer: string;
  let operator: string;

  beforeAll(async () => {
    t = await startApp(kind);
    [customer, operator] = await Promise.all([t.login('demo', 'demo'), t.login(DEMO_OPERATOR.login, DEMO_OPERATOR.password)]);
  });
  afterAll(() => t?.close());

  it('every route answers 4xx, never 5xx, to 2147483648 in each integer it takes', async () => {
    const doc = (await (await t.call('GET', '/api/docs/json')).json()) as { paths: Record<string, Record<string, Operation>> };
    const failed: string[] = [];
    let calls = 0;
    for (const [route, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        // Multipart and the login have tests of their own (upload.test, the login-limits drill).
        if (route.includes('updateFile') || route.includes('authenticate')) continue;
        const params = op.parameters ?? [];
        let url = route.replace(/\{([^}]+)\}/g, (_, name: string) => {
          const p = params.find((x) => x.name === name);
          return p?.schema?.type === 'string' ? 'abc' : String(BIG);
        });
        const query = params.filter((p) => p.in === 'query').map((p) => `${p.name}=${encodeURIComponent(String(fill(p.schema)))}`);
        if (query.length) url += `?${query.join('&')}`;
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const body = schema ? fill(schema) : ['post', 'put', 'patch'].includes(method) ? {} : undefined;
        const res = await t.call(method.toUpperCase(), url, { token: route.startsWith('/api/admin') ? operator : customer, body });
        calls++;
        if (res.status >= 500) failed.push(`${method.toUpperCase()} ${url} → ${res.status} ${(await res.text()).slice(0, 200)}`);
        else await res.arrayBuffer();
      }
    }
    expect(calls).toBeGreaterThan(60);
    expect(failed).toEqual([]);
  });

  it('explains a refused field in plain Chinese (the contract\'s words, else zod-messages.ts)', async () => {
    const quote = (work: Record<string, unknown>) => t.call('POST', '/api/sales_order/quote', { token: customer, body: { works: [{ uuid: randomUUID(), articleName: '作品', quantity: 1, productId: 1, propertyConfigId: 1, ...work }] } });
    const half = await quote({ quantity: 1.5 });
    expect(half.status).toBe(400);
    expect(((await half.json()) as { message: string }).message).toBe('请求参数不正确：第1个作品的数量：订购数量必须是整数');
    const product = await quote({ productId: 1.5 });
    expect(product.status).toBe(400);
    expect(((await product.json()) as { message: string }).message).toBe('请求参数不正确：第1个作品的产品：必须是整数');
    // One bound per field, the tighter (both the safe integers' and the id's were listed).
    const huge = await quote({ productId: 1e308 });
    expect(((await huge.json()) as { message: string }).message).toBe('请求参数不正确：第1个作品的产品：不能大于2147483647');
    // What an API probe got before: 数值过小：期望 number >=0, 无效输入：期望 数字，实际接收 数字 (1e400), a regular expression.
    const batch = (raw: string) => fetch(`${t.url}/api/sales_order/batch`, { method: 'POST', headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' }, body: raw });
    const works = JSON.stringify([{ uuid: randomUUID(), articleName: '作品', quantity: 1, productId: 1, propertyConfigId: 1 }]);
    for (const [total, words] of [['-0.68', '确认的合计金额：不能小于0'], ['1e400', '确认的合计金额：必须是有限的数字'], ['"0.68"', '确认的合计金额：必须是数字']]) {
      const res = await batch(`{"idempotencyKey":"${randomUUID()}","deliveryMethod":"Unified","works":${works},"expectedTotalAmount":${total}}`);
      expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([400, `请求参数不正确：${words}`]);
    }
    // A line's confirmed amount, the same.
    for (const [amount, words] of [['-0.68', '不能小于0'], ['1e400', '必须是有限的数字'], ['"0.68"', '必须是数字']]) {
      const line = `[{"uuid":"${randomUUID()}","articleName":"作品","quantity":1,"productId":1,"propertyConfigId":1,"expectedAmount":${amount}}]`;
      const res = await batch(`{"idempotencyKey":"${randomUUID()}","deliveryMethod":"Unified","works":${line}}`);
      expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([400, `请求参数不正确：第1个作品的确认金额：${words}`]);
    }
    // The contract's 5,000 works fit the body a batch may send (about 1.1 MB; 413 请求内容过大 before).
    const many = Array.from({ length: 5000 }, (_, i) => ({ uuid: randomUUID(), articleName: `春季家庭旅行纪念照片第${i + 1}张`, quantity: 1, productId: 1, propertyConfigId: 1, fileName: 'a.jpg', filePath: `upload/${randomUUID()}/a.jpg` }));
    const big = await t.call('POST', '/api/sales_order/quote', { token: customer, body: { works: many } });
    expect(JSON.stringify({ works: many }).length).toBeGreaterThan(1024 * 1024);
    expect(big.status).not.toBe(413);
    expect(big.status).toBeLessThan(500);
    const folder = await t.call('POST', '/api/files/storedChunks', { token: customer, body: { uploads: [{ folderId: '..', filePath: 'a.jpg', size: 1, chunkTotal: 1 }] } });
    expect(((await folder.json()) as { message: string }).message).toBe('请求参数不正确：第1个上传的文件夹：格式不正确');
  });
});

const HUGE = [2 ** 31, 2 ** 53 - 1, 1e20];

describe.each(DB_KINDS)('numbers past the database, deep in a valid request, on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let operator: string;
  let line: Record<string, unknown>;
  let draftId: number;

  const refused = async (r: Response, what: string) => {
    const text = await r.text();
    expect(r.status, `${what}: ${text}`).toBeGreaterThanOrEqual(400);
    expect(r.status, `${what}: ${text}`).toBeLessThan(500);
    expect(text, what).toMatch(/[\u4e00-\u9fff]/);
  };

  /** A page past the end may answer an empty page; anything refused says why in Chinese. */
  const answered = async (r: Response, what: string) => {
    if (r.status === 200) expect(await r.json(), what).toEqual(expect.anything());
    else await refused(r, what);
  };

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    operator = await t.login('operator', 'operator');
    const photo5 = await findSku(t, demo, 'PH-5');
    const folderId = randomUUID();
    const bytes = await sharp({ create: { width: 1500, height: 1051, channels: 3, background: '#3366aa' } }).jpeg().withMetadata({ density: 300 }).toBuffer();
    expect((await uploadFile(t, demo, bytes, '界限.jpg', { folderId })).done).toBeDefined();
    const parsed = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/界限.jpg`)}`, { token: demo });
    const w = ((await parsed.json()) as { message: { works: Array<{ uuid: string; articleName: string; filePath: string }> } }).message.works[0]!;
    await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { ...photo5, filePath: w.filePath, workUuid: w.uuid } });
    line = { uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity: 1, productId: photo5.productId, propertyConfigId: photo5.propertyConfigId, toning: 'None' };
    const created = await t.call('POST', '/api/batch-drafts', { token: demo, body: { document: { format: 1, works: [] } } });
    draftId = ((await created.json()) as { id: number }).id;
  });
  afterAll(async () => t?.close());

  it.each(HUGE)('answers %d where an id, a version, a page or a count goes without a 5xx', async (n) => {
    await refused(await t.call('PUT', `/api/batch-drafts/${draftId}`, { token: demo, body: { version: n, document: { format: 1, works: [] } } }), 'draft version');
    const address = { contact: '王小明', phone: '13800138000', province: '浙江省', city: '杭州市', district: '西湖区', address: '文三路100号', addressId: n };
    await refused(await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: randomUUID(), deliveryMethod: 'Unified', location: address, works: [line] } }), 'order address id');
    // The quote names a line's problem instead of refusing the call.
    const quote = await t.call('POST', '/api/sales_order/quote', { token: demo, body: { deliveryMethod: 'Unified', works: [{ ...line, quantity: n }] } });
    if (quote.status === 200) expect(((await quote.json()) as { message: { lines: Array<{ problem: string }> } }).message.lines[0]!.problem).toBe('界限：文件的订购数量不能超过10000000');
    else await refused(quote, 'quote quantity');
    await answered(await t.call('GET', `/api/admin/orders?page=${n}`, { token: operator }), 'admin orders page');
    await answered(await t.call('GET', `/api/admin/webhooks/deliveries?page=${n}`, { token: operator }), 'webhook deliveries page');
    await answered(await t.call('POST', '/api/customer-locations/byCondition', { token: demo, body: { page: n } }), 'address book page');
    await answered(await t.call('GET', `/api/price-lines/getByPriceTypeAndIdAndPropertyConfigId?entityId=1&priceType=customer&productId=${String(line.productId)}&propertyConfigId=${String(line.propertyConfigId)}&quantity=${n}`, { token: demo }), 'price quantity');
    await answered(await t.call('POST', '/api/files/storedChunks', { token: demo, body: { uploads: [{ folderId: randomUUID(), filePath: 'a.jpg', size: n, chunkTotal: n }] } }), 'stored chunks size');
  });
});
