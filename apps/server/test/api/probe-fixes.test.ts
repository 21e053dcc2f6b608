/**
 * What a hostile probe of the API found answered badly (2026-11-30), each as the customer or operator meets it: a work
 * named as long as a path may be cannot be ordered, a sort naming one file twice blames the file, the batch's address
 * refusal says 收货地址 twice, a path the static files refuse answers in Fastify's words. Real server, PGlite.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { uploadFile } from '../helpers/upload.ts';

type Work = { uuid: string; articleName: string; filePath: string; files: Array<{ fileName: string; filePath: string }> };

describe('answers the probe found wrong', () => {
  let t: TestApp;
  let demo: string;
  let photo5: Awaited<ReturnType<typeof findSku>>;
  let web: string;
  const photo = () => sharp({ create: { width: 1500, height: 1051, channels: 3, background: '#3366aa' } }).jpeg().withMetadata({ density: 300 }).toBuffer();
  /** A checked one-photo work uploaded under `name`. */
  const checkedWork = async (name: string): Promise<Work> => {
    const folderId = randomUUID();
    expect((await uploadFile(t, demo, await photo(), name, { folderId })).done).toBeDefined();
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${name}`)}`, { token: demo });
    const w = ((await res.json()) as { message: { works: Work[] } }).message.works[0]!;
    expect((await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { ...photo5, filePath: w.filePath, workUuid: w.uuid } })).status).toBe(200);
    return w;
  };
  const order = (w: Work, extra: Record<string, unknown> = {}) => t.call('POST', '/api/sales_order/batch', { token: demo, body: {
    idempotencyKey: randomUUID(), deliveryMethod: 'Unified',
    works: [{ uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity: 1, productId: photo5.productId, propertyConfigId: photo5.propertyConfigId, toning: 'None' }],
    ...extra,
  } });

  beforeAll(async () => {
    // The web app's files served, as a shop's server does: @fastify/static is what refused //api/… in its own words.
    web = await mkdtemp(join(tmpdir(), 'portal-web-'));
    await writeFile(join(web, 'index.html'), '<!doctype html><title>印刷门户</title>');
    t = await startApp('pglite', { WEB_DIST: web });
    demo = await t.login('demo', 'demo');
    photo5 = await findSku(t, demo, 'PH-5');
  });
  afterAll(async () => {
    await t?.close();
    if (web) await rm(web, { recursive: true, force: true });
  });

  it('orders a work whose name is as long as a path may be (250 characters: refused by the order as over 200)', async () => {
    const w = await checkedWork(`${'印'.repeat(250)}.jpg`);
    expect(w.articleName).toHaveLength(250);
    const placed = await order(w);
    expect(placed.status, await placed.clone().text()).toBe(200);
  });

  it('says the batch\'s address is wrong once, not 收货地址的收货地址不正确', async () => {
    const w = await checkedWork('地址.jpg');
    const res = await order(w, { location: { contact: '张三', phone: '13800138000', province: '火星', city: '某市', district: '某区', address: '1号' } });
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([400, '收货地址不正确']);
  });

  it('names a file sent twice in a sort as repeated, not as missing from the work', async () => {
    const folderId = randomUUID();
    for (const n of ['1.jpg', '2.jpg']) expect((await uploadFile(t, demo, await photo(), `排序/${n}`, { folderId })).done).toBeDefined();
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/排序`)}`, { token: demo });
    const w = ((await res.json()) as { message: { works: Work[] } }).message.works[0]!;
    const sorted = await t.call('POST', '/api/files/sortWorkFiles', { token: demo, body: { accessPath: w.filePath, workUuid: w.uuid, fileNames: [w.files[0]!.filePath, w.files[0]!.filePath] } });
    expect([sorted.status, ((await sorted.json()) as { message: string }).message]).toEqual([400, `文件重复：${w.files[0]!.filePath}`]);
  });

  it('answers a path the static files refuse as a page that does not exist', async () => {
    for (const p of ['//api/admin/hubs', '/api//sales_order']) {
      const res = await fetch(`${t.url}${p}`, { headers: { authorization: `Bearer ${demo}` } });
      expect(res.status, p).toBe(404);
      expect(((await res.json()) as { code: string }).code, p).toBe('not-found');
    }
  });

  it('refuses a file path whose bytes are not UTF-8, rather than storing two GBK names as one ���.jpg', async () => {
    const bytes = await photo();
    const boundary = `----probe${randomUUID()}`;
    const field = (name: string, value: Buffer | string) => Buffer.concat([Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n')]);
    const body = Buffer.concat([
      field('identifier', 'gbk-1'), field('chunkIndex', '1'), field('chunkTotal', '1'), field('size', String(bytes.length)),
      // 你好.jpg in GBK.
      field('filePath', Buffer.concat([Buffer.from([0xc4, 0xe3, 0xba, 0xc3]), Buffer.from('.jpg')])), field('ext', 'jpg'), field('folderId', randomUUID()),
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="x.jpg"\r\ncontent-type: application/octet-stream\r\n\r\n`), bytes, Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${t.url}/api/files/updateFile`, { method: 'POST', headers: { authorization: `Bearer ${demo}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: { error: string } }).message.error).toBe('文件名含有无法识别的字符（不是UTF-8编码），请改名后重新上传');
  });

  it('refuses a file name holding control characters or a bidirectional override (a\u202egpj.exe.jpg reads a.exe.jpg), and keeps a long Chinese name with spaces', async () => {
    const bytes = await photo();
    for (const name of ['合同/a\u202egpj.exe.jpg', '合同/b\u0001.jpg', '合同/\u001fc.jpg', '合同/d\u007f.jpg', '合同/\u0085e.jpg', '合同/\u2066f.jpg']) {
      const r = await uploadFile(t, demo, bytes, name);
      expect(r.done, JSON.stringify(name)).toBeUndefined();
      expect(r.last.status, JSON.stringify(name)).toBe(400);
      expect(r.last.body.message, JSON.stringify(name)).toMatchObject({ status: 400, error: '文件名含有控制字符或文字方向控制符，请改名后重新上传' });
    }
    expect((await uploadFile(t, demo, bytes, `合同/${'春天的 照片'.repeat(30)}.jpg`)).done).toBeDefined();
  });
});
