import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, CustomerLocation, ProductDetails, ProductSummary, Region, SkuRow } from '@portal/contract';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';

const json = async <T>(res: Response) => (await res.json()) as T;

describe.each(DB_KINDS)('foundation API on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;

  beforeAll(async () => {
    t = await startApp(kind, { LOGIN_MAX_FAILURES: '3', TRUST_PROXY: 'true' });
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
  });
  afterAll(async () => t?.close());

  describe('login', () => {
    it('answers a token and the account for the right password', async () => {
      const res = await t.call('GET', '/api/account', { token: demo });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ login: 'demo', customerHubId: 1, authorities: ['ROLE_USER'] });
      const p = await json<{ customerHubId: number }>(await t.call('GET', '/api/account', { token: partial }));
      expect(p.customerHubId).toBe(2);
    });

    it('refuses a wrong password with 401 and a message, and limits repeated failures with 429', async () => {
      const bad = () => t.call('POST', '/api/authenticate', { body: { username: 'partial', password: 'nope' }, headers: { 'x-forwarded-for': '10.9.9.9' } });
      for (let i = 0; i < 3; i++) {
        const res = await bad();
        expect(res.status).toBe(401);
        expect((await json<{ message: string }>(res)).message).toBe('用户名或密码错误');
      }
      const limited = await bad();
      expect(limited.status).toBe(429);
      expect((await json<{ message: string }>(limited)).message).toMatch(/登录尝试过多/);
      // Even the right password waits out the window from that address.
      const right = await t.call('POST', '/api/authenticate', { body: { username: 'partial', password: 'partial' }, headers: { 'x-forwarded-for': '10.9.9.9' } });
      expect(right.status).toBe(429);
    });

    it('answers 400 with a message for a malformed login body', async () => {
      const res = await t.call('POST', '/api/authenticate', { body: { username: '' } });
      expect(res.status).toBe(400);
      expect((await json<{ message: string }>(res)).message).toMatch(/请求参数不正确/);
      const notJson = await t.call('POST', '/api/authenticate', { body: '{"username":', headers: { 'content-type': 'application/json' } });
      expect(notJson.status).toBe(400);
      // In Chinese, and nothing of the parser's own English.
      expect((await json<{ message: string }>(notJson)).message).toBe('请求参数不正确：请求内容不是有效的JSON');
      const empty = await t.call('POST', '/api/authenticate', { body: '', headers: { 'content-type': 'application/json' } });
      expect(empty.status).toBe(400);
      expect((await json<{ message: string }>(empty)).message).toBe('请求参数不正确：请求内容不是有效的JSON');
    });

    it('answers a request the HTTP parser refuses in Chinese (a broken Content-Length, headers over 16 KB)', async () => {
      const { port, hostname } = new URL(t.url);
      const raw = (request: string) => new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => socket.end(request));
        let got = '';
        socket.on('data', (d) => { got += d.toString('utf8'); });
        socket.on('close', () => resolve(got));
        socket.on('error', reject);
      });
      const broken = await raw('POST /api/sales_order/quote HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}');
      expect(broken).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(broken.slice(broken.indexOf('\r\n\r\n') + 4))).toEqual({ message: '请求格式不正确', code: 'bad-request' });
      const huge = await raw(`GET /api/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(huge).toMatch(/^HTTP\/1\.1 431 /);
      expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).toEqual({ message: '请求头过大', code: 'bad-request' });
    });

    it('answers a refusal that comes before the body (401, 413) once the body is in, also on a connection that closes after it: nginx, which speaks HTTP/1.0 to the portal, got a reset and said 502 to 1 chunk in 5 of a logged-out customer', async () => {
      const { port, hostname } = new URL(t.url);
      // As nginx sends: the whole body, with backpressure, and it fails the request (502) if the portal hangs up
      // before it has sent it all. The body's rest comes a moment later: it is still coming when the portal has decided.
      const send = (head: string, body: Buffer) => new Promise<string>((resolve) => {
        const socket = connect(Number(port), hostname);
        let got = '';
        let at = 0;
        socket.on('data', (d) => { got += d.toString('utf8'); });
        socket.on('error', (err: NodeJS.ErrnoException) => resolve(`[socket ${err.code}]`));
        socket.on('close', () => resolve(at < body.length ? `[closed with ${body.length - at} bytes unsent]` : got));
        const pump = () => {
          while (at < body.length) {
            const more = socket.write(body.subarray(at, at + 65536));
            at = Math.min(at + 65536, body.length);
            if (!more) return void socket.once('drain', pump);
          }
        };
        socket.write(`${head}Content-Length: ${body.length}\r\n\r\n`);
        socket.write(body.subarray(0, 65536));
        at = 65536;
        setTimeout(pump, 150);
      });
      const answers: string[] = [];
      for (let i = 0; i < 3; i++) {
        answers.push(await send('POST /api/files/updateFile HTTP/1.0\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n', Buffer.alloc(2_048_300, 97)));
        answers.push(await send(`POST /api/files/deleteFile HTTP/1.0\r\nHost: x\r\nAuthorization: Bearer ${demo}\r\nContent-Type: application/json\r\n`, Buffer.alloc(t.config.bodyLimitBytes + 1, 32)));
      }
      const heads = answers.map((a) => a.slice(0, a.indexOf('\r\n') >= 0 ? a.indexOf('\r\n') : undefined));
      expect(new Set(heads)).toEqual(new Set(['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 413 Payload Too Large']));
      expect(JSON.parse(answers[0]!.slice(answers[0]!.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'unauthenticated' });
      expect(JSON.parse(answers[1]!.slice(answers[1]!.indexOf('\r\n\r\n') + 4)).message).toMatch(/[\u4e00-\u9fff]/);
    });

    it('answers a URL that is not valid UTF-8 or whose part is too long in Chinese, without echoing it (a probe got English)', async () => {
      const bad = await t.call('GET', '/api/files/raw/1/upload/%ED%A0%80', { token: demo });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ message: '请求地址不正确', code: 'bad-url' });
      const long = await t.call('POST', `/api/sales_order/${'A'.repeat(5000)}/cancel`, { token: demo });
      expect(long.status).toBe(414);
      expect(await long.json()).toEqual({ message: '请求地址过长', code: 'bad-url' });
    });

    it('answers 401 without a token, with a bad token and with an expired token', async () => {
      expect((await t.call('GET', '/api/account')).status).toBe(401);
      expect((await t.call('GET', '/api/location-provinces', { token: 'abc.def.ghi' })).status).toBe(401);
      const expired = t.app.jwt.sign({ sub: '1', login: 'demo', cid: 1, hid: 1, auth: ['ROLE_USER'] }, { expiresIn: -10 });
      expect((await t.call('GET', '/api/account', { token: expired })).status).toBe(401);
      const [h, , s] = demo.split('.');
      const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: '1', login: 'demo', cid: 2, hid: 2, auth: [] })).toString('base64url')}.${s}`;
      expect((await t.call('GET', '/api/account', { token: tampered })).status).toBe(401);
    });
  });

  describe('hubs and scope', () => {
    it('answers the hub lite with batchAddressParsing', async () => {
      expect(await json(await t.call('GET', '/api/customer-hubs/getLite/1', { token: demo }))).toMatchObject({ id: 1, batchAddressParsing: false });
      expect(await json(await t.call('GET', '/api/customer-hubs/getLite/2', { token: partial }))).toMatchObject({ id: 2, batchAddressParsing: true });
    });

    it.each([
      ['GET', '/api/customer-hubs/getLite/2'],
      ['GET', '/api/customer-hubs/getProductCategoryPage/2'],
      ['GET', '/api/customer-hubs/getProductsPage/2?page=0&size=10'],
      ['GET', '/api/customer-hubs/getProducts/2?dataType=Temp'],
      ['GET', '/api/customer-hubs/getCategoryProductsPage/2'],
      ['GET', '/api/customer-hubs/getProductDetails?productId=1&customerId=2'],
      ['GET', '/api/price-lines/getByPriceTypeAndIdAndPropertyConfigId?entityId=2&priceType=customer&productId=1&propertyConfigId=1&quantity=1'],
    ])('refuses another hub\'s ids: %s %s → 403', async (method, p) => {
      const res = await t.call(method, p, { token: demo });
      expect(res.status).toBe(403);
      expect((await json<{ message: string }>(res)).message).toBe('无权访问该资源');
    });

    it('refuses another hub in byCondition', async () => {
      const res = await t.call('POST', '/api/customer-locations/byCondition', {
        token: demo, body: { items: [{ field: 'customerHubId', operator: 'equals', value: 2 }], page: 0, size: 10, sort: 'id,desc' },
      });
      expect(res.status).toBe(403);
    });

    it('answers 404 for an unknown /api route even without a token, and never a 500', async () => {
      expect((await t.call('GET', '/api/nothing-here')).status).toBe(404);
    });
  });

  describe('catalogue', () => {
    it('gives the category tree with sub-categories', async () => {
      const res = await t.call('GET', '/api/customer-hubs/getProductCategoryPage/1?client=true', { token: demo });
      expect(res.status).toBe(200);
      const tree = await json<Category[]>(res);
      expect(tree.length).toBeGreaterThan(1);
      expect(tree.some((c) => c.categories.length > 0)).toBe(true);
    });

    it('pages products zero-based with x-total-count, by category (with sub-categories) and by name', async () => {
      const all = await t.call('GET', '/api/customer-hubs/getProductsPage/1?page=0&size=100', { token: demo });
      const total = Number(all.headers.get('x-total-count'));
      const items = await json<ProductSummary[]>(all);
      expect(items.length).toBe(total);
      expect(total).toBeGreaterThanOrEqual(5);

      const p0 = await json<ProductSummary[]>(await t.call('GET', '/api/customer-hubs/getProductsPage/1?page=0&size=2', { token: demo }));
      const p1res = await t.call('GET', '/api/customer-hubs/getProductsPage/1?page=1&size=2', { token: demo });
      const p1 = await json<ProductSummary[]>(p1res);
      expect(p0).toHaveLength(2);
      expect(p1res.headers.get('x-total-count')).toBe(String(total));
      expect(p1[0]!.id).not.toBe(p0[0]!.id);
      expect(p0.map((p) => p.id)).toEqual(items.slice(0, 2).map((p) => p.id));

      const tree = await json<Category[]>(await t.call('GET', '/api/customer-hubs/getProductCategoryPage/1', { token: demo }));
      const parent = tree.find((c) => c.categories.length > 0)!;
      const inParent = await json<ProductSummary[]>(await t.call('GET', `/api/customer-hubs/getProductsPage/1?page=0&size=100&productCategoryId=${parent.id}`, { token: demo }));
      const childIds = parent.categories.map((c) => c.id);
      expect(inParent.length).toBeGreaterThan(0);
      expect(inParent.every((p) => p.productCategoryId === parent.id || childIds.includes(p.productCategoryId))).toBe(true);

      const byName = await t.call('GET', `/api/customer-hubs/getProductsPage/1?page=0&size=20&productName=${encodeURIComponent('名片')}`, { token: demo });
      const named = await json<ProductSummary[]>(byName);
      expect(named.length).toBeGreaterThan(0);
      expect(named.every((p) => p.name.includes('名片') || p.number.includes('名片'))).toBe(true);
      expect(byName.headers.get('x-total-count')).toBe(String(named.length));

      const none = await t.call('GET', `/api/customer-hubs/getProductsPage/1?productName=${encodeURIComponent('%_不存在')}`, { token: demo });
      expect(await json(none)).toEqual([]);
      expect(none.headers.get('x-total-count')).toBe('0');
    });

    it.each([
      '/api/customer-hubs/getProductsPage/1?page=-1',
      '/api/customer-hubs/getProductsPage/1?size=0',
      '/api/customer-hubs/getProductsPage/1?size=abc',
      '/api/customer-hubs/getProductsPage/1?size=101',
      '/api/customer-hubs/getProductsPage/1?productCategoryId=x',
      '/api/customer-hubs/getProductsPage/abc',
      '/api/customer-hubs/getProductDetails?productId=',
      '/api/location-cities/findByProvince',
      '/api/price-lines/getByPriceTypeAndIdAndPropertyConfigId?entityId=1&priceType=retail&productId=1&propertyConfigId=1',
    ])('answers 400 with a message for %s', async (p) => {
      const res = await t.call('GET', p, { token: demo });
      expect(res.status).toBe(400);
      expect((await json<{ message: string }>(res)).message).toMatch(/^请求参数不正确/);
    });

    it('searches products by keyword (getProducts) and lists SKUs for the table picker', async () => {
      const found = await json<ProductSummary[]>(await t.call('GET', `/api/customer-hubs/getProducts/1?dataType=Temp&keyword=${encodeURIComponent('海报')}`, { token: demo }));
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((p) => p.name.includes('海报') || p.number.includes('海报'))).toBe(true);

      const res = await t.call('GET', '/api/customer-hubs/getCategoryProductsPage/1?page=0', { token: demo });
      const rows = await json<SkuRow[]>(res);
      expect(rows).toHaveLength(10);
      expect(Number(res.headers.get('x-total-count'))).toBeGreaterThan(10);
      expect(rows[0]).toMatchObject({ sku: expect.any(String), number: expect.any(String), productName: expect.any(String) });
    });

    it('gives product details with components, print rules, options, SKUs and a template link that downloads', async () => {
      const list = await json<ProductSummary[]>(await t.call('GET', `/api/customer-hubs/getProducts/1?keyword=${encodeURIComponent('画册')}`, { token: demo }));
      const brochure = list[0]!;
      const res = await t.call('GET', `/api/customer-hubs/getProductDetails?productId=${brochure.id}&customerId=1`, { token: demo });
      expect(res.status).toBe(200);
      const { state, message: p } = await json<{ state: number; message: ProductDetails }>(res);
      expect(state).toBe(200);
      expect(p.components.map((c) => c.name)).toEqual(expect.arrayContaining(['封面', '内页']));
      const cover = p.components.find((c) => c.name === '封面')!;
      expect(cover.width).toBeGreaterThan(0);
      expect(['mm', 'percent']).toContain(cover.errorType);
      expect(p.objectItems.length).toBeGreaterThan(0);
      expect(p.propertyConfigs.length).toBeGreaterThan(0);
      expect(p.propertyConfigs[0]!.sku.split(';').length).toBe(p.objectItems.length);

      expect(cover.templateRelativeUrl).toMatch(/^\/api\/templates\//);
      const dl = await fetch(t.url + cover.templateRelativeUrl!);
      expect(dl.status).toBe(200);
      expect(dl.headers.get('content-disposition')).toMatch(/attachment/);
      expect(Buffer.from(await dl.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
      const unsigned = await fetch(t.url + cover.templateRelativeUrl!.replace(/sig=[^&]+/, 'sig=forged'));
      expect(unsigned.status).toBe(403);

      expect((await t.call('GET', '/api/customer-hubs/getProductDetails?productId=999999', { token: demo })).status).toBe(404);

      expect(p.productImage).toMatch(/^\/catalogue-assets\//);
      const image = await fetch(t.url + p.productImage!);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
    });

    it('gives the customer price at quantity 1, null where a SKU has none, and flags unsaleable SKUs', async () => {
      const rows: SkuRow[] = [];
      for (let page = 0; ; page++) {
        const batch = await json<SkuRow[]>(await t.call('GET', `/api/customer-hubs/getCategoryProductsPage/1?page=${page}&size=100`, { token: demo }));
        rows.push(...batch);
        if (batch.length < 100) break;
      }
      const prices = await Promise.all(rows.map(async (r) => {
        const res = await t.call('GET', `/api/price-lines/getByPriceTypeAndIdAndPropertyConfigId?entityId=1&priceType=customer&productId=${r.productId}&propertyConfigId=${r.id}&quantity=1`, { token: demo });
        expect(res.status).toBe(200);
        return json<{ amount: number | null; saleable: boolean }>(res);
      }));
      expect(prices.some((p) => typeof p.amount === 'number' && p.amount > 0)).toBe(true);
      expect(prices.some((p) => p.amount === null)).toBe(true);
      expect(prices.some((p) => !p.saleable)).toBe(true);
      const wrongProduct = await t.call('GET', `/api/price-lines/getByPriceTypeAndIdAndPropertyConfigId?entityId=1&priceType=customer&productId=999999&propertyConfigId=${rows[0]!.id}&quantity=1`, { token: demo });
      expect(wrongProduct.status).toBe(404);
    });

    it('names the quantity breaks with the price, so 商品详情 can say what 100 or 500 prints cost (demo catalogue: 0.68, 0.60 from 100, 0.52 from 500)', async () => {
      const sku = await findSku(t, demo, 'PH-5', 'PH5-GL-NB');
      const at = async (quantity: number) => json<{ amount: number; breaks: Array<{ from: number; amount: number }> }>(await t.call('GET',
        `/api/price-lines/getByPriceTypeAndIdAndPropertyConfigId?entityId=1&priceType=customer&productId=${sku.productId}&propertyConfigId=${sku.propertyConfigId}&quantity=${quantity}`, { token: demo }));
      expect(await at(1)).toMatchObject({ amount: 0.68, breaks: [{ from: 100, amount: 0.6 }, { from: 500, amount: 0.52 }] });
      expect(await at(100)).toMatchObject({ amount: 0.6, breaks: [{ from: 100, amount: 0.6 }, { from: 500, amount: 0.52 }] });
    });
  });

  describe('addresses and regions', () => {
    it('answers the default address of the caller\'s hub by condition', async () => {
      const res = await t.call('POST', '/api/customer-locations/byCondition', {
        token: partial,
        body: { items: [{ field: 'customerHubId', operator: 'equals', value: 2 }, { field: 'isDefault', operator: 'equals', value: true }], page: 0, size: 10, sort: 'id,desc' },
      });
      expect(res.status).toBe(200);
      const list = await json<CustomerLocation[]>(res);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ customerHubId: 2, isDefault: true, contact: expect.any(String), province: expect.any(String) });
      const bad = await t.call('POST', '/api/customer-locations/byCondition', { token: partial, body: { items: [{ field: 'password', operator: 'equals', value: 1 }] } });
      expect(bad.status).toBe(400);
    });

    it('answers provinces, cities of a province and districts of a city', async () => {
      const provinces = await json<Region[]>(await t.call('GET', '/api/location-provinces', { token: demo }));
      expect(provinces.length).toBeGreaterThanOrEqual(31);
      const gd = provinces.find((p) => p.name === '广东省')!;
      const cities = await json<Region[]>(await t.call('GET', `/api/location-cities/findByProvince?provinceId=${gd.id}`, { token: demo }));
      const sz = cities.find((c) => c.name === '深圳市')!;
      expect(sz).toBeDefined();
      const districts = await json<Region[]>(await t.call('GET', `/api/location-districts/findByCities?cityId=${sz.id}`, { token: demo }));
      expect(districts.map((d) => d.name)).toContain('南山区');
      expect(await json(await t.call('GET', '/api/location-cities/findByProvince?provinceId=999999', { token: demo }))).toEqual([]);
    });
  });

  it('serves the OpenAPI document and its viewer without a login', async () => {
    const res = await t.call('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    const doc = await json<{ paths: Record<string, unknown> }>(res);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/authenticate', '/api/customer-hubs/getProductsPage/{customerHubId}']));
    expect((await t.call('GET', '/api/docs')).status).toBeLessThan(400);
  });

  it('sends security headers and hides server details on errors', async () => {
    const res = await t.call('GET', '/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('answers HEAD of a page as GET does, as an uptime check asks (HEAD /login was 404: README walk)', async () => {
    for (const page of ['/', '/login', '/batch-upload']) {
      const [get, head] = [await t.call('GET', page), await t.call('HEAD', page)];
      expect([page, head.status, head.headers.get('content-type')]).toEqual([page, get.status, get.headers.get('content-type')]);
      expect(await head.text()).toBe('');
    }
    expect((await t.call('HEAD', '/api/no-such-route')).status).toBe(404);
  });

  it('asks for https only of a page that came over https: a shop\'s LAN serves plain http', async () => {
    // Over plain http a browser on another PC would fetch every script over https and show a blank page.
    const plain = await t.call('GET', '/login');
    expect(plain.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(plain.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    expect(plain.headers.get('cross-origin-opener-policy')).toBeNull();
    expect(plain.headers.get('origin-agent-cluster')).toBeNull();
    // Behind a TLS proxy (trusted here: TRUST_PROXY=true) the page came over https.
    const viaTls = await t.call('GET', '/login', { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaTls.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    expect(viaTls.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(viaTls.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(viaTls.headers.get('origin-agent-cluster')).toBe('?1');
  });
});
