/**
 * Drill: what an attacker or a curious customer of another hub can get. Security headers on every kind of
 * answer, no stack trace in any error, login guessing limited, expired and forged tokens refused, stored
 * files served as downloads that cannot be sniffed, and nothing of hub 1 served to a customer of hub 2
 * through any route that takes an id or a path.
 */
import { createHmac, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@portal/contract';
import { addCustomer } from '../../src/db/seed/customers.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { multipart, rawRequest, sha256 } from '../helpers/drill.ts';
import { pollTask, uploadFile } from '../helpers/upload.ts';
import { makeZip } from '../helpers/zips.ts';

const photoMm = (w: number, h: number, dpi = 300) =>
  sharp({ create: { width: Math.round((w / 25.4) * dpi), height: Math.round((h / 25.4) * dpi), channels: 3, background: '#336699' } }).jpeg().withMetadata({ density: dpi }).toBuffer();

/** A stack trace, a source path or an internal error name in an answer. */
const LEAK = /\bat [^\s]+ \(|\bat .+:\d+:\d+|node_modules|\/work\/|\/tmp\/|\.ts:\d+|\b(TypeError|ReferenceError|SyntaxError|RangeError)\b|"stack"|postgres|pglite|drizzle|select .* from/i;

type Work = { uuid: string; filePath: string; fileName: string; files: Array<{ fileName: string; filePath: string }> };

describe('security', () => {
  let t: TestApp;
  let demo: string;
  let partial: string;
  let photo: Awaited<ReturnType<typeof findSku>>;
  /** Hub 1's resources, made by its customer. */
  const h1 = {} as {
    file: string; fileBytes: Buffer; accessUrl: string; previewUrl: string; work: Work; folderWork: Work; taskId: string; ordered: Work; orderNo: string; template: string;
    fixed: Work; fixTaskId: string; fixId: string; draftId: number; folderId: string;
  };

  const upload = async (token: string, bytes: Buffer, p: string, folderId = randomUUID()) => {
    const r = await uploadFile(t, token, bytes, p, { folderId });
    if (!r.done) throw new Error(`upload of ${p}: ${JSON.stringify(r.last.body)}`);
    return r.done.body.message as { filePath: string; accessUrl: string };
  };
  const parse = async (token: string, filePath: string) =>
    (await (await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(filePath)}`, { token })).json()) as { state: number; message: { works: Work[]; taskId: string } };

  beforeAll(async () => {
    t = await startApp('pglite', { LOGIN_MAX_FAILURES: '5' });
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    photo = await findSku(t, demo, 'PH-5', 'PH5-GL-NB');
    const bytes = await photoMm(127, 89);
    const folderId = randomUUID();
    const one = await upload(demo, bytes, '机密/海报.jpg', folderId);
    await upload(demo, await photoMm(127, 89, 200), '机密/第二张.jpg', folderId);
    h1.file = one.filePath;
    h1.fileBytes = bytes;
    h1.accessUrl = one.accessUrl;
    h1.work = (await parse(demo, one.filePath)).message.works[0]!;
    h1.folderWork = (await parse(demo, `upload/${folderId}/机密`)).message.works[0]!;
    // A crop, so there is an original to undo.
    const crop = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path: one.filePath, x: 0, y: 0, width: 1400, height: 1000, scale: 100 } });
    expect(crop.status, await crop.clone().text()).toBe(200);
    const previews = (await (await t.call('GET', `/api/sales_order/getPreviewImg?filePath=${encodeURIComponent(one.filePath)}`, { token: demo })).json()) as Array<{ url: string }>;
    h1.previewUrl = previews[0]!.url;
    const zip = await upload(demo, await makeZip([['册/1.jpg', bytes], ['册/2.jpg', bytes]]), '机密.zip');
    h1.taskId = (await parse(demo, zip.filePath)).message.taskId;
    expect((await pollTask(t, demo, h1.taskId)).message.status).toBe('finished');
    // An order of hub 1.
    const orderedFile = await upload(demo, await photoMm(127, 89), '已下单.jpg');
    h1.ordered = (await parse(demo, orderedFile.filePath)).message.works[0]!;
    await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: photo.productId, propertyConfigId: photo.propertyConfigId, filePath: h1.ordered.filePath } });
    const order = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: randomUUID(), deliveryMethod: 'Unified', works: [
      { uuid: h1.ordered.uuid, articleName: '已下单', quantity: 1, productId: photo.productId, propertyConfigId: photo.propertyConfigId, toning: 'None' }] } });
    const placed = (await order.json()) as { message: { orders: Array<{ salesOrderNumber: string }> } };
    expect(order.status, JSON.stringify(placed)).toBe(200);
    h1.orderNo = placed.message.orders[0]!.salesOrderNumber;
    // A bulk fix of hub 1 (a task and a fix to undo), and hub 1's open batch draft.
    const toFix = await upload(demo, await photoMm(152, 89), '修图/宽图.jpg');
    h1.fixed = (await parse(demo, toFix.filePath)).message.works[0]!;
    await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: photo.productId, propertyConfigId: photo.propertyConfigId, filePath: h1.fixed.filePath, workUuid: h1.fixed.uuid } });
    const applied = await t.call('POST', '/api/bulk-fix/apply', { token: demo, body: { items: [{ workUuid: h1.fixed.uuid, filePath: h1.fixed.files[0]!.filePath, kind: 'fill' }] } });
    expect(applied.status, await applied.clone().text()).toBe(200);
    h1.fixTaskId = ((await applied.json()) as { message: { taskId: string } }).message.taskId;
    type FixTask = { message: { status: string; result: { items: Array<{ fixId: string | null }> } | null } };
    let fixTask: FixTask | undefined;
    for (let i = 0; i < 600; i++) {
      fixTask = (await (await t.call('GET', `/api/bulk-fix/tasks/${h1.fixTaskId}`, { token: demo })).json()) as FixTask;
      if (fixTask.message.status !== 'pending' && fixTask.message.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(fixTask?.message.status, JSON.stringify(fixTask)).toBe('finished');
    h1.fixId = fixTask!.message.result!.items[0]!.fixId!;
    expect(h1.fixId, JSON.stringify(fixTask)).toBeTruthy();
    const draft = await t.call('POST', '/api/batch-drafts', { token: demo, body: { document: { format: 1, works: [] } } });
    expect(draft.status, await draft.clone().text()).toBe(200);
    h1.draftId = ((await draft.json()) as { id: number }).id;
    h1.folderId = folderId;
    const details = JSON.stringify((await findSku(t, demo, 'BR-A4')).product) + JSON.stringify(photo.product);
    h1.template = /\/api\/templates\/\d+\/[^"?]+\?exp=\d+&sig=[^"&]+/.exec(details)?.[0] ?? '';
  }, 120_000);
  afterAll(async () => t?.close());

  it('sends the security headers on API answers, errors, pages and files', async () => {
    const targets: Array<[string, Record<string, string>]> = [
      ['/api/health', {}], ['/api/account', { authorization: `Bearer ${demo}` }], ['/api/nowhere', {}], ['/api/account', {}],
      ['/', {}], ['/login', {}], ['/batch-upload', {}], ['/api/docs', {}], [h1.accessUrl, {}], [h1.previewUrl, {}],
      ...(h1.template ? [[h1.template, {}] as [string, Record<string, string>]] : []),
    ];
    for (const [p, headers] of targets) {
      const res = await rawRequest(t.url, p, { headers });
      const h = res.headers;
      const csp = String(h['content-security-policy'] ?? '');
      expect(res.status, p).toBeLessThan(500);
      expect(h['x-content-type-options'], `${p}: X-Content-Type-Options`).toBe('nosniff');
      expect(h['x-frame-options'] !== undefined || /frame-ancestors/.test(csp), `${p}: X-Frame-Options or CSP frame-ancestors`).toBe(true);
      expect(h['referrer-policy'], `${p}: Referrer-Policy`).toBeDefined();
      expect(h['x-powered-by'], `${p}: X-Powered-By`).toBeUndefined();
      if (String(h['content-type']).includes('text/html')) expect(csp, `${p}: a page has a Content-Security-Policy`).toMatch(/default-src/);
    }
  });

  it('never shows a stack trace or an internal detail in an error answer', async () => {
    const json = { 'content-type': 'application/json', authorization: `Bearer ${demo}` };
    const form = new FormData();
    form.set('identifier', 'x');
    form.set('file', new Blob([new Uint8Array(10)]), 'blob');
    const m = await multipart(form);
    const cases: Array<[string, string, { method?: string; headers?: Record<string, string>; body?: string | Buffer }]> = [
      ['bad JSON', '/api/sales_order/checkFile', { method: 'POST', headers: json, body: '{"filePath":' }],
      ['a 2 MB body', '/api/sales_order/checkFile', { method: 'POST', headers: json, body: JSON.stringify({ filePath: 'a'.repeat(2 * 1024 * 1024) }) }],
      ['an unknown route', '/api/nowhere/at/all', {}],
      ['an unknown method', '/api/health', { method: 'DELETE' }],
      ['a broken percent-encoding', '/api/sales_order/getPreviewImg?filePath=%E0%A4%A', { headers: json }],
      ['a broken path encoding', '/api/files/raw/1/%E0%A4%A.jpg', { headers: json }],
      ['a wrong type', '/api/customer-hubs/getProductsPage/abc', { headers: json }],
      ['a NUL in a search', '/api/customer-hubs/getProductsPage/1?productName=%00', { headers: json }],
      ['a cut multipart body', '/api/files/updateFile', { method: 'POST', headers: { authorization: `Bearer ${demo}`, 'content-type': m.contentType }, body: m.body.subarray(0, m.body.length - 20) }],
      ['multipart without a boundary', '/api/files/updateFile', { method: 'POST', headers: { authorization: `Bearer ${demo}`, 'content-type': 'multipart/form-data' }, body: m.body }],
      ['a forged token', '/api/account', { headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.' } }],
      ['a file that does not exist', '/api/files/raw/1/upload/nothing/x.jpg', { headers: json }],
      ['a task that does not exist', `/api/long-time-tasks/${randomUUID()}`, { headers: json }],
    ];
    for (const [what, p, init] of cases) {
      const res = await rawRequest(t.url, p, init);
      expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.text, `${what} leaks an internal detail`).not.toMatch(LEAK);
      const body = JSON.parse(res.text) as { message: unknown; stack?: unknown };
      expect(body.stack, what).toBeUndefined();
      expect(typeof body.message === 'string' || typeof (body.message as { error?: string }).error === 'string', `${what}: ${res.text}`).toBe(true);
      if (res.status >= 500) expect(body, what).toEqual({ message: SERVER_MSG.internal, code: 'internal' });
    }
  });

  it('drops __proto__ and constructor.prototype keys of a JSON body like any field it does not know (API probe, 2026-11-30: they were called 不是有效的JSON)', async () => {
    const login = (body: string) => rawRequest(t.url, '/api/authenticate', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const proto = await login('{"username":"demo","password":"demo","__proto__":{"role":"operator","isAdmin":true}}');
    expect(proto.status).toBe(200);
    const token = (JSON.parse(proto.text) as { id_token: string }).id_token;
    // Still the customer it logged in as: nothing of the hostile key reached the login.
    expect((await t.call('GET', '/api/admin/orders', { token })).status).toBe(403);
    expect((await login('{"username":"demo","password":"demo","constructor":{"prototype":{"role":"operator"}}}')).status).toBe(200);
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    // A field the request needs is still needed: the hostile key does not stand in for it.
    const bare = await login('{"username":"demo","__proto__":{"password":"demo"}}');
    expect(bare.status).toBe(400);
    expect(JSON.parse(bare.text)).toMatchObject({ code: 'validation', message: '请求参数不正确：密码：缺少此项' });
  });

  it('limits login attempts, also for a client that changes X-Forwarded-For', async () => {
    await addCustomer(t.db.db, { hub: 1, login: 'sec-brute', password: 'right-password', customer: '演示客户' });
    await addCustomer(t.db.db, { hub: 1, login: 'sec-spoof', password: 'right-password', customer: '演示客户' });
    const attempt = (login: string, password: string, headers: Record<string, string> = {}) =>
      rawRequest(t.url, '/api/authenticate', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ username: login, password }) });
    for (let i = 0; i < 5; i++) expect((await attempt('sec-brute', `wrong-${i}`)).status).toBe(401);
    const limited = await attempt('sec-brute', 'wrong-again');
    expect(limited.status).toBe(429);
    expect((JSON.parse(limited.text) as { message: string }).message).toMatch(/登录尝试过多/);
    expect((await attempt('sec-brute', 'right-password')).status, 'the right password during the lock').toBe(429);
    // A guesser who sends a new X-Forwarded-For with every try must not get more tries.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await attempt('sec-spoof', `wrong-${i}`, { 'x-forwarded-for': `203.0.113.${i + 1}` })).status);
    expect(statuses.filter((s) => s === 401).length, `answers to 12 guesses from "different" addresses: ${statuses.join(' ')}`).toBeLessThanOrEqual(5);
  });

  it('refuses expired, forged and malformed tokens', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const sign = (payload: object, secret = t.config.jwtSecret, header: object = { alg: 'HS256', typ: 'JWT' }) => {
      const unsigned = `${b64(header)}.${b64(payload)}`;
      return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: '1', login: 'demo', cid: 1, hid: 1, auth: ['ROLE_USER'] };
    // The drill's own token works, so the refusals below are about the token and not the signing.
    expect((await t.call('GET', '/api/account', { token: sign({ ...claims, iat: now, exp: now + 600 }) })).status).toBe(200);
    const bad: Array<[string, string]> = [
      ['expired', sign({ ...claims, iat: now - 7200, exp: now - 60 })],
      ['signed with another secret', sign({ ...claims, iat: now, exp: now + 600 }, 'another-secret-another-secret-another-secret')],
      ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, iat: now, exp: now + 600 })}.`],
      ['not yet valid', sign({ ...claims, iat: now, nbf: now + 3600, exp: now + 7200 })],
      ['garbage', 'abc.def.ghi'],
      ['empty', ''],
    ];
    for (const [what, token] of bad) {
      const res = await rawRequest(t.url, '/api/account', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, what).toBe(401);
      expect(JSON.parse(res.text), what).toMatchObject({ message: expect.any(String) });
      const file = await rawRequest(t.url, h1.accessUrl.split('?')[0]!, { headers: { authorization: `Bearer ${token}` } });
      expect([401, 403], `a stored file with a token that is ${what}`).toContain(file.status);
    }
  });

  it('serves stored files and previews as attachments or inline with nosniff, and only with a valid link or login', async () => {
    for (const url of [h1.accessUrl, h1.previewUrl]) {
      const res = await rawRequest(t.url, url);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-disposition'], url).toMatch(/^(inline|attachment)/);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['content-type'], url).toMatch(/^image\/(jpeg|png)|^application\/pdf/);
      const unsigned = url.split('?')[0]!;
      expect((await rawRequest(t.url, unsigned)).status, `${unsigned} without a link or login`).toBe(403);
      const tampered = url.replace(/exp=(\d+)/, (_, e: string) => `exp=${Number(e) + 1}`);
      expect((await rawRequest(t.url, tampered)).status, 'a link with a changed expiry').toBe(403);
    }
    if (h1.template) {
      const res = await rawRequest(t.url, h1.template);
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const other = h1.template.replace(/\/api\/templates\/(\d+)\//, (_, id: string) => `/api/templates/${Number(id) + 1}/`);
      expect((await rawRequest(t.url, other)).status, 'a template link used for another component').toBe(403);
    }
  });

  it('never serves hub 1\'s files, works, tasks or orders to a customer of hub 2', async () => {
    const p2 = { authorization: `Bearer ${partial}` };
    const json = { ...p2, 'content-type': 'application/json' };
    const rawPath = h1.accessUrl.split('?')[0]!;
    const previewPath = h1.previewUrl.split('?')[0]!;
    const sig = h1.accessUrl.slice(h1.accessUrl.indexOf('?'));
    const enc = encodeURIComponent;
    const post = (p: string, body: unknown) => ({ p, init: { method: 'POST', headers: json, body: JSON.stringify(body) } });
    const get = (p: string) => ({ p, init: { headers: p2 } });
    const sku = { productId: photo.productId, propertyConfigId: photo.propertyConfigId };
    /** Route → attempts of hub 2 on hub 1's resources. Every route that takes an id or a path must be here. */
    const attempts: Record<string, Array<{ p: string; init: { method?: string; headers: Record<string, string>; body?: string } }>> = {
      'GET /api/files/raw/{hubId}/{*}': [get(rawPath), get(rawPath.replace('/raw/1/', '/raw/2/')), get(rawPath.replace('/raw/1/', '/raw/2/') + sig), get(`/api/files/raw/2/..%2f1%2f${rawPath.split('/raw/1/')[1]}`)],
      'GET /api/files/preview/{hubId}/{*}': [get(previewPath), get(previewPath.replace('/preview/1/', '/preview/2/')), get(`${previewPath}?page=1`)],
      'GET /api/sales_order/parseOrderInfo4BatchUp': [get(`/api/sales_order/parseOrderInfo4BatchUp?filePath=${enc(h1.file)}`), get(`/api/sales_order/parseOrderInfo4BatchUp?filePath=${enc(h1.file)}&customerHubId=1`)],
      'GET /api/long-time-tasks/{taskId}': [get(`/api/long-time-tasks/${h1.taskId}`)],
      'GET /api/sales_order/getPreviewImg': [get(`/api/sales_order/getPreviewImg?filePath=${enc(h1.file)}`), get(`/api/sales_order/getPreviewImg?filePath=${enc(h1.folderWork.filePath)}`)],
      'POST /api/sales_order/checkFile': [post('/api/sales_order/checkFile', { ...sku, filePath: h1.work.filePath }), post('/api/sales_order/checkFile', { ...sku, filePath: 'x', workUuid: h1.work.uuid }), post('/api/sales_order/checkFile', { ...sku, filePath: h1.work.filePath, customerHubId: 1 })],
      'POST /api/files/cropImg': [post('/api/files/cropImg', { path: h1.file, x: 0, y: 0, width: 10, height: 10 })],
      'POST /api/files/undoCrop': [post('/api/files/undoCrop', { path: h1.file })],
      'POST /api/files/sortWorkFiles': [post('/api/files/sortWorkFiles', { accessPath: h1.folderWork.filePath, fileNames: h1.folderWork.files.map((f) => f.fileName).reverse() }), post('/api/files/sortWorkFiles', { accessPath: 'x', workUuid: h1.folderWork.uuid, fileNames: [] })],
      'POST /api/files/deleteFile': [post('/api/files/deleteFile', { filePath: h1.file }), post('/api/files/deleteFile', { filePath: h1.folderWork.filePath })],
      'POST /api/sales_order/quote': [post('/api/sales_order/quote', { works: [{ uuid: h1.work.uuid, articleName: 'x', quantity: 1, ...sku }] })],
      'POST /api/sales_order/batch': [post('/api/sales_order/batch', { idempotencyKey: randomUUID(), deliveryMethod: 'Partial', works: [{ uuid: h1.work.uuid, articleName: 'x', quantity: 1, ...sku, toning: 'None', orderLocations: [{ contact: '李', phone: '13900000000', province: '浙江省', city: '杭州市', district: '西湖区', address: '1号', quantity: 1 }] }] })],
      'GET /api/templates/{componentId}/{fileName}': h1.template ? [get(h1.template.split('?')[0]!)] : [],
      'POST /api/sales_order/checkFiles': [
        post('/api/sales_order/checkFiles', { ...sku, works: [{ filePath: h1.work.filePath }] }),
        post('/api/sales_order/checkFiles', { ...sku, works: [{ filePath: 'x', workUuid: h1.work.uuid }] }),
        post('/api/sales_order/checkFiles', { ...sku, customerHubId: 1, works: [{ filePath: h1.work.filePath, workUuid: h1.work.uuid }] }),
      ],
      'POST /api/sales_order/suggestProducts': [post('/api/sales_order/suggestProducts', { workUuids: [h1.work.uuid] }), post('/api/sales_order/suggestProducts', { customerHubId: 1, workUuids: [h1.folderWork.uuid] })],
      'POST /api/bulk-fix/preview': [post('/api/bulk-fix/preview', { items: [{ workUuid: h1.fixed.uuid, filePath: h1.fixed.files[0]!.filePath, kind: 'fill' }] })],
      'POST /api/bulk-fix/apply': [post('/api/bulk-fix/apply', { items: [{ workUuid: h1.work.uuid, filePath: h1.file, kind: 'rotate' }] })],
      'GET /api/bulk-fix/tasks/{taskId}': [get(`/api/bulk-fix/tasks/${h1.fixTaskId}`), get(`/api/bulk-fix/tasks/${h1.taskId}`)],
      'POST /api/bulk-fix/undo': [post('/api/bulk-fix/undo', { fixIds: [h1.fixId] }), post('/api/bulk-fix/undo', { taskId: h1.fixTaskId })],
      // Linking names a path of the caller's own upload; one that climbs to hub 1's file is refused.
      'POST /api/files/linkFile': [post('/api/files/linkFile', { folderId: h1.folderId, filePath: `../../../1/${h1.file}`, size: h1.fileBytes.length, sha256: sha256(h1.fileBytes) })],
      'POST /api/files/linkFiles': [post('/api/files/linkFiles', { files: [{ folderId: h1.folderId, filePath: `../../../1/${h1.file}`, size: h1.fileBytes.length, sha256: sha256(h1.fileBytes) }] })],
      'GET /api/batch-drafts/{id}': [get(`/api/batch-drafts/${h1.draftId}`)],
      'PUT /api/batch-drafts/{id}': [{ p: `/api/batch-drafts/${h1.draftId}`, init: { method: 'PUT', headers: json, body: JSON.stringify({ version: 1, document: { format: 1, works: [] } }) } }],
      'DELETE /api/batch-drafts/{id}': [{ p: `/api/batch-drafts/${h1.draftId}`, init: { method: 'DELETE', headers: p2 } }],
      // Operator routes: a customer's token is refused (403), whichever hub they name.
      'PATCH /api/admin/hubs/{hubId}': [{ p: '/api/admin/hubs/1', init: { method: 'PATCH', headers: json, body: JSON.stringify({ name: '改名' }) } }],
      'GET /api/admin/hubs/{hubId}/logins': [get('/api/admin/hubs/1/logins')],
      'POST /api/admin/hubs/{hubId}/logins': [post('/api/admin/hubs/1/logins', { login: 'sec-intruder', password: 'intruder-password' })],
      'GET /api/admin/hubs/{hubId}/addresses': [get('/api/admin/hubs/1/addresses')],
      'POST /api/admin/hubs/{hubId}/addresses': [post('/api/admin/hubs/1/addresses', { contact: '李', phone: '13900000000', province: '浙江省', city: '杭州市', district: '西湖区', address: '1号' })],
      'GET /api/admin/orders': [get('/api/admin/orders'), get('/api/admin/orders?hubId=1'), get(`/api/admin/orders?q=${enc(h1.orderNo)}`)],
    };
    const operatorOnly = Object.keys(attempts).filter((r) => r.includes(' /api/admin/'));
    // Every route whose parameters or body name a file, a work, a task or a hub is covered above.
    const doc = (await (await t.call('GET', '/api/docs/json')).json()) as { paths: Record<string, Record<string, { parameters?: Array<{ name: string }>; requestBody?: { content: Record<string, { schema: { properties?: Record<string, { items?: { properties?: object } }> } }> } }>> };
    const NAMING = /^(filePath|path|accessPath|\*|taskId|workUuid|uuid|hubId|componentId|works)$/;
    const naming = Object.entries(doc.paths).flatMap(([p, ms]) => Object.entries(ms).filter(([, op]) => {
      const props = op.requestBody?.content['application/json']?.schema.properties ?? {};
      return (op.parameters ?? []).some((x) => NAMING.test(x.name)) || Object.keys(props).some((k) => NAMING.test(k));
    }).map(([m]) => `${m.toUpperCase()} ${p}`));
    expect(naming.filter((r) => !(r in attempts)), 'routes that take an id or a path but are not tried across hubs here').toEqual([]);

    const leaked: string[] = [];
    for (const [route, list] of Object.entries(attempts)) {
      for (const a of list) {
        const res = await rawRequest(t.url, a.p, a.init);
        // A refusal of the request itself (400) gives nothing away either.
        if (![400, 403, 404].includes(res.status)) leaked.push(`${route} ${a.p.slice(0, 80)} ${a.init.body?.slice(0, 80) ?? ''} → ${res.status} ${res.text.slice(0, 120)}`);
        if (res.text.includes(h1.work.uuid) || res.text.includes(h1.file) || res.text.includes(h1.orderNo)) leaked.push(`${route}: the answer names hub 1's resource`);
        if (operatorOnly.includes(route) && res.status !== 403) leaked.push(`${route} ${a.p}: a customer's token → ${res.status}, not 403`);
      }
    }
    expect(leaked).toEqual([]);

    // Routes that answer hub 2 from hub 2's own data: hub 1's bytes and uploads are unknown to it.
    const fileHash = sha256(Buffer.from(await (await fetch(t.url + h1.accessUrl)).arrayBuffer()));
    const known = await rawRequest(t.url, '/api/files/knownHashes', { method: 'POST', headers: json, body: JSON.stringify({ hashes: [fileHash, sha256(h1.fileBytes)] }) });
    expect(known.status, known.text).toBe(200);
    expect(JSON.parse(known.text), 'hub 1\'s hashes are unknown to hub 2').toEqual({ known: [] });
    const link = await rawRequest(t.url, '/api/files/linkFile', { method: 'POST', headers: json, body: JSON.stringify({ folderId: randomUUID(), filePath: '偷/海报.jpg', size: h1.fileBytes.length, sha256: sha256(h1.fileBytes) }) });
    expect(link.status, link.text).toBe(200);
    expect(JSON.parse(link.text), 'hub 1\'s bytes are not linked into hub 2').toEqual({ linked: false });
    const links = await rawRequest(t.url, '/api/files/linkFiles', { method: 'POST', headers: json, body: JSON.stringify({ files: [{ folderId: randomUUID(), filePath: '偷/海报.jpg', size: h1.fileBytes.length, sha256: sha256(h1.fileBytes) }] }) });
    expect(links.status, links.text).toBe(200);
    expect(JSON.parse(links.text), 'hub 1\'s bytes are not linked into hub 2, many at a time').toEqual({ results: [{ linked: false }] });
    const relative = h1.file.replace(/^upload\/[^/]+\//, '');
    const chunks = await rawRequest(t.url, '/api/files/storedChunks', { method: 'POST', headers: json, body: JSON.stringify({ uploads: [{ folderId: h1.folderId, filePath: relative, size: h1.fileBytes.length, chunkTotal: 1 }] }) });
    expect(chunks.status, chunks.text).toBe(200);
    expect(JSON.parse(chunks.text), 'hub 1\'s finished upload is nothing to hub 2').toEqual({ uploads: [{ status: 'none', chunks: [] }] });
    // The same question from hub 1 finds its upload, so the answers above are about the hub.
    const mineChunks = await rawRequest(t.url, '/api/files/storedChunks', { method: 'POST', headers: { ...json, authorization: `Bearer ${demo}` }, body: JSON.stringify({ uploads: [{ folderId: h1.folderId, filePath: relative, size: h1.fileBytes.length, chunkTotal: 1 }] }) });
    expect((JSON.parse(mineChunks.text) as { uploads: Array<{ status: string }> }).uploads[0]!.status).toBe('done');
    const mineKnown = await rawRequest(t.url, '/api/files/knownHashes', { method: 'POST', headers: { ...json, authorization: `Bearer ${demo}` }, body: JSON.stringify({ hashes: [sha256(h1.fileBytes)] }) });
    expect((JSON.parse(mineKnown.text) as { known: string[] }).known).toEqual([sha256(h1.fileBytes)]);
    // Hub 1's fix was not undone and its draft is still open, unchanged.
    const fix = (await (await t.call('GET', `/api/bulk-fix/tasks/${h1.fixTaskId}`, { token: demo })).json()) as { message: { result: { items: Array<{ fixId: string | null }> } } };
    expect(fix.message.result.items[0]!.fixId).toBe(h1.fixId);
    const undoMine = await t.call('POST', '/api/bulk-fix/undo', { token: demo, body: { fixIds: [h1.fixId] } });
    expect(((await undoMine.json()) as { message: { undone: unknown[] } }).message.undone, 'hub 1 can still undo its fix: hub 2 did not').toHaveLength(1);
    const draft = await t.call('GET', `/api/batch-drafts/${h1.draftId}`, { token: demo });
    expect(draft.status).toBe(200);
    expect((await draft.json()) as { version: number }).toMatchObject({ version: 1 });

    // Hub 2's lists do not show hub 1's orders; its duplicate check does not reveal them.
    const orders = await rawRequest(t.url, '/api/sales_order?page=0&size=100', { headers: p2 });
    expect(orders.status).toBe(200);
    expect(orders.text).not.toContain(h1.orderNo);
    const dup = await rawRequest(t.url, '/api/sales_order/repeatFileNameCheck', { method: 'POST', headers: json, body: JSON.stringify({ files: ['已下单.jpg', '已下单'] }) });
    expect(dup.status).toBe(200);
    expect(dup.text).not.toContain(h1.orderNo);
    // Hub 1 still has everything, unchanged.
    const mine = await rawRequest(t.url, rawPath, { headers: { authorization: `Bearer ${demo}` } });
    expect(mine.status).toBe(200);
    const stored = await fetch(t.url + h1.accessUrl);
    expect(stored.status).toBe(200);
    expect((await rawRequest(t.url, `/api/long-time-tasks/${h1.taskId}`, { headers: { authorization: `Bearer ${demo}` } })).status).toBe(200);
    const folder = (await (await t.call('GET', `/api/sales_order/getPreviewImg?filePath=${enc(h1.folderWork.filePath)}`, { token: demo })).json()) as unknown[];
    expect(folder).toHaveLength(2);
    expect(sha256(Buffer.from(await stored.arrayBuffer()))).not.toBe('');
  });
});
