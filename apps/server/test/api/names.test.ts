import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { SalesOrder } from '@portal/contract';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { CHUNK, pollTask, sendChunk, uploadFile } from '../helpers/upload.ts';
import { makeZip } from '../helpers/zips.ts';

/**
 * Names as long as the spec allows, in any script (issue #19, item 3): a customer's name is kept for
 * works, 文件详情 and orders whatever the file system makes of it, and a name never answers 5xx.
 */

/** 84 Chinese characters: 252 bytes in UTF-8, 256 with ".jpg", over a file system's 255-byte names. */
const LONG = '春江潮水连海平海上明月共潮生滟滟随波千万里何处春江无月明江流宛转绕芳甸月照花林皆似霰空里流霜不觉飞汀上白沙看不见江天一色无纤尘皎皎空中孤月轮江畔何人初见月江月何年初照人人生代代无穷已江月年年望相';
const LONG_JPG = `${LONG}.jpg`;

/** A photo of the demo's 5寸 (127 × 89 mm at 300 dpi); `noise` makes it large enough for several chunks. */
const photo5 = (noise = false) => {
  const create = { width: 1500, height: 1051, channels: 3 as const, background: '#4488cc', ...(noise ? { noise: { type: 'gaussian' as const, mean: 128, sigma: 60 } } : {}) };
  return sharp({ create }).jpeg({ quality: noise ? 100 : 80 }).withMetadata({ density: 300 }).toBuffer();
};

type Work = { uuid: string; articleName: string; filePath: string; fileName: string; files: Array<{ fileName: string; filePath: string }> };
type ParseBody = { state: number; message: { works?: Work[]; unsupported?: Array<{ fileName: string; filePath: string; reason: string }>; taskId?: string; error?: string } };

describe.each(DB_KINDS)('names the file system would refuse, on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let small: Buffer;
  let sku: Awaited<ReturnType<typeof findSku>>;

  const parse = async (filePath: string) => {
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(filePath)}&customerHubId=1`, { token: demo });
    return { status: res.status, body: (await res.json()) as ParseBody };
  };
  const parseZip = async (entries: Array<[string, Buffer]>) => {
    const up = await uploadFile(t, demo, await makeZip(entries), '名字.zip');
    expect(up.done, JSON.stringify(up.last.body)).toBeDefined();
    const r = await parse(`upload/${up.folderId}/名字.zip`);
    expect(r.body.state).toBe(100);
    return pollTask(t, demo, r.body.message.taskId!);
  };
  const previews = async (filePath: string) => {
    const res = await t.call('GET', `/api/sales_order/getPreviewImg?filePath=${encodeURIComponent(filePath)}&t=${Date.now()}`, { token: demo });
    expect(res.status).toBe(200);
    return (await res.json()) as Array<{ name: string; url: string }>;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    small = await photo5();
    sku = await findSku(t, demo, 'PH-5', 'PH5-GL-NB');
  });
  afterAll(async () => t?.close());

  it('stores an 84-character Chinese name sent in one chunk and in several, answers the same on every retry, and shows the name in the work, 文件详情 and the order', async () => {
    const big = await photo5(true);
    expect(big.length).toBeGreaterThan(CHUNK);
    const one = await uploadFile(t, demo, small, LONG_JPG);
    expect(one.last.status).toBe(200);
    expect(one.done?.body.message).toMatchObject({ status: 300, filePath: `upload/${one.folderId}/${LONG_JPG}`, info: { width: 1500, height: 1051, dpi: 300 } });
    const several = await uploadFile(t, demo, big, `相册/${LONG_JPG}`, { parallel: true });
    expect(several.answers.every((a) => a.status === 200)).toBe(true);
    expect(several.done?.body.message.filePath).toBe(`upload/${several.folderId}/相册/${LONG_JPG}`);
    // Every chunk sent again (a retry of the client) is answered as the file: 300, never 5xx.
    const again = await uploadFile(t, demo, small, LONG_JPG, { folderId: one.folderId });
    expect(again.last.status).toBe(200);
    expect(again.last.body.message).toMatchObject({ status: 300, filePath: one.done!.body.message.filePath });
    // The stored file is served under its name.
    const served = await fetch(t.url + one.done!.body.message.accessUrl!);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(small)).toBe(true);

    const a = await parse(`upload/${one.folderId}/${LONG_JPG}`);
    expect(a.status).toBe(200);
    expect(a.body.message.works![0]).toMatchObject({ articleName: LONG, fileName: LONG_JPG, files: [{ fileName: LONG_JPG }] });
    const b = await parse(`upload/${several.folderId}/相册`);
    expect(b.status).toBe(200);
    expect(b.body.message.works![0]).toMatchObject({ articleName: '相册', files: [{ fileName: LONG_JPG, filePath: `upload/${several.folderId}/相册/${LONG_JPG}` }] });
    expect((await previews(`upload/${several.folderId}/相册`)).map((p) => p.name)).toEqual([LONG_JPG]);

    for (const w of [a.body.message.works![0]!, b.body.message.works![0]!]) {
      const check = await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: w.filePath, workUuid: w.uuid } });
      expect(check.status).toBe(200);
      const answer = (await check.json()) as { state: number; message: { fileCheckResult: Array<{ filename: string; itemPath: string; pass: boolean; previewUrl: string }> } };
      expect(answer.state).toBe(200);
      expect(answer.message.fileCheckResult).toEqual([expect.objectContaining({ filename: LONG_JPG, itemPath: w.files[0]!.filePath, pass: true })]);
      expect((await fetch(t.url + answer.message.fileCheckResult[0]!.previewUrl)).status).toBe(200);
    }
    const lines = [a.body.message.works![0]!, b.body.message.works![0]!].map((w) => ({ uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity: 1, productId: sku.productId, propertyConfigId: sku.propertyConfigId, toning: 'None' }));
    const placed = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: randomUUID(), deliveryMethod: 'Unified', works: lines } });
    expect(placed.status).toBe(200);
    expect(((await placed.json()) as { message: { orders: Array<{ articleName: string }> } }).message.orders.map((o) => o.articleName)).toEqual([LONG, '相册']);
    const orders = (await (await t.call('GET', '/api/sales_order?page=0&size=10', { token: demo })).json()) as SalesOrder[];
    expect(orders.flatMap((o) => o.files.map((f) => f.fileName))).toEqual([LONG_JPG, LONG_JPG]);
    const dup = await t.call('POST', '/api/sales_order/repeatFileNameCheck', { token: demo, body: { customerHubId: 1, files: [LONG_JPG] } });
    expect(((await dup.json()) as Array<{ salesOrderNumber: string | null }>)[0]!.salesOrderNumber).toBeTruthy();
  });

  it('keeps a folder whose own name is over 255 bytes, names that differ only by case or Unicode normalisation, and names like the store\'s own', async () => {
    const folderId = randomUUID();
    const names = [`${LONG}/${LONG_JPG}`, `${LONG}/A.jpg`, `${LONG}/a.jpg`, `${LONG}/caf\u00e9.jpg`, `${LONG}/cafe\u0301.jpg`, `${LONG}/CON.jpg`, `${LONG}/报价.tmp-1.jpg`, `${LONG}/x~0123456789abcdef.jpg`];
    for (const n of names) {
      const r = await uploadFile(t, demo, small, n, { folderId });
      expect(r.last.status, `${n}: ${JSON.stringify(r.last.body)}`).toBe(200);
      expect(r.done?.body.message.filePath).toBe(`upload/${folderId}/${n}`);
    }
    const r = await parse(`upload/${folderId}/${LONG}`);
    expect(r.status).toBe(200);
    const w = r.body.message.works![0]!;
    expect(w.articleName).toBe(LONG);
    expect(w.files.map((f) => f.filePath).sort()).toEqual(names.map((n) => `upload/${folderId}/${n}`).sort());
    expect((await previews(`upload/${folderId}/${LONG}`)).map((p) => p.name).sort()).toEqual(names.map((n) => n.slice(n.indexOf('/') + 1)).sort());
    // A file can be deleted under its name; the work's other files stay.
    const del = await t.call('POST', '/api/files/deleteFile', { token: demo, body: { filePath: `upload/${folderId}/${LONG}/${LONG_JPG}` } });
    expect(del.status).toBe(200);
    expect((await parse(`upload/${folderId}/${LONG}`)).body.message.works![0]!.files).toHaveLength(names.length - 1);
  });

  it('answers a name that cannot be a stored file with 4xx and a Chinese message, never 5xx', async () => {
    const folderId = randomUUID();
    expect((await uploadFile(t, demo, small, 'W/a.jpg', { folderId })).done).toBeDefined();
    // A folder under the name of a stored file, and a file under the name of a stored folder.
    const under = await uploadFile(t, demo, small, 'W/a.jpg/b.jpg', { folderId });
    expect(under.last.status).toBe(409);
    expect(under.last.body.message.error).toBe('文件路径与已上传的文件或文件夹同名，请改名后重新上传：W/a.jpg/b.jpg');
    expect((await uploadFile(t, demo, small, 'V/b.jpg/c.jpg', { folderId })).done).toBeDefined();
    const over = await uploadFile(t, demo, small, 'V/b.jpg', { folderId });
    expect(over.last.status).toBe(409);
    expect(over.last.body.message.error).toBe('文件路径与已上传的文件或文件夹同名，请改名后重新上传：V/b.jpg');
    for (const bad of ['../x.jpg', 'a/../x.jpg', 'a//x.jpg', '/x.jpg', 'a\\x.jpg']) {
      const r = await sendChunk(t, demo, { bytes: small, filePath: bad, folderId, identifier: bad, index: 1, total: 1, size: small.length });
      expect(r.status, bad).toBe(400);
      expect(r.body.message.error, bad).toBe('文件路径不合法');
    }
    const tooLong = `${'长'.repeat(252)}.jpg`;
    const r = await sendChunk(t, demo, { bytes: small, filePath: tooLong, folderId, identifier: 'long', index: 1, total: 1, size: small.length });
    expect(r.status).toBe(400);
    expect(r.body.message.error).toBe('文件路径过长，系统无法识别');
    // 251 four-byte characters: 255 characters and 1,008 bytes in one name, as the spec allows.
    const emoji = `${'😀'.repeat(251)}.jpg`;
    const ok = await sendChunk(t, demo, { bytes: small, filePath: emoji, folderId, identifier: `${folderId}-1`, index: 1, total: 1, size: small.length });
    expect(ok.body.message).toMatchObject({ status: 300, filePath: `upload/${folderId}/${emoji}` });
    expect((await parse(`upload/${folderId}/${emoji}`)).body.message.works![0]!.articleName).toBe('😀'.repeat(251));
  });

  it('previews, crops and undoes the crop of a name just under the file system\'s limit and of one over it', async () => {
    // 80 characters and ".jpg": 244 bytes, a name the file system takes, with no room left for a suffix.
    for (const name of [`${LONG.slice(0, 80)}.jpg`, LONG_JPG]) {
      const up = await uploadFile(t, demo, small, name);
      expect(up.done, JSON.stringify(up.last.body)).toBeDefined();
      const path = up.done!.body.message.filePath!;
      const [preview] = await previews(path);
      expect(preview!.name).toBe(name);
      expect((await fetch(t.url + preview!.url)).status).toBe(200);
      const crop = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: 750, height: 525, scale: 100, rotation: 0 } });
      expect(crop.status).toBe(200);
      const cropped = (await crop.json()) as { success: boolean; data: { widthPx: number; previewUrl: string } };
      expect(cropped).toMatchObject({ success: true, data: { widthPx: 750 } });
      expect((await fetch(t.url + cropped.data.previewUrl)).status).toBe(200);
      const undo = await t.call('POST', '/api/files/undoCrop', { token: demo, body: { path } });
      expect(undo.status).toBe(200);
      expect(((await undo.json()) as { data: { widthPx: number } }).data.widthPx).toBe(1500);
    }
  });

  it('makes works of a zip holding an 84-character name beside valid files, the long name included', async () => {
    const done = await parseZip([[`A/${LONG_JPG}`, small], ['A/1.jpg', small], ['B/1.jpg', small], [`${LONG}/2.jpg`, small]]);
    expect(done.message.status, String(done.message.error)).toBe('finished');
    const works = done.message.jsonContent!.works as unknown as Work[];
    expect(works.map((w) => [w.articleName, w.files.map((f) => f.fileName)])).toEqual([[LONG, ['2.jpg']], ['A', ['1.jpg', LONG_JPG]], ['B', ['1.jpg']]]);
    expect(done.message.jsonContent!.unsupported).toEqual([]);
    const check = await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: works[1]!.filePath, workUuid: works[1]!.uuid } });
    expect(((await check.json()) as { message: { fileCheckResult: Array<{ filename: string }> } }).message.fileCheckResult.map((x) => x.filename)).toEqual(['1.jpg', LONG_JPG]);
    expect((await previews(works[1]!.filePath)).map((p) => p.name)).toEqual(['1.jpg', LONG_JPG]);
  });

  it('keeps the rest of a zip holding a file `W/a` beside `W/a/b.jpg`, and says in Chinese what it could not keep', async () => {
    for (const entries of [[['W/a', small], ['W/a/b.jpg', small], ['W/c.jpg', small]], [['W/a/b.jpg', small], ['W/a', small], ['W/c.jpg', small]]] as Array<Array<[string, Buffer]>>) {
      const done = await parseZip(entries);
      expect(done.message.status, String(done.message.error)).toBe('finished');
      const works = done.message.jsonContent!.works as unknown as Work[];
      expect(works.map((w) => [w.articleName, w.files.map((f) => f.fileName)])).toEqual([['W', ['b.jpg', 'c.jpg']]]);
      expect(done.message.jsonContent!.unsupported.map((u) => [u.fileName, u.reason])).toEqual([['a', '压缩包内有与文件夹同名的文件，无法保留']]);
    }
  });

  it('leaves out, with the spec\'s message, a zip entry whose path is over 255 characters, and keeps the rest', async () => {
    const deep = `${Array.from({ length: 80 }, (_, i) => `层${String(i).padStart(2, '0')}`).join('/')}/深.jpg`;
    const longName = `${'很'.repeat(300)}.jpg`;
    const done = await parseZip([[`A/${deep}`, small], [`A/${longName}`, small], ['A/1.jpg', small]]);
    expect(done.message.status, String(done.message.error)).toBe('finished');
    const works = done.message.jsonContent!.works as unknown as Work[];
    expect(works.map((w) => w.files.map((f) => f.fileName))).toEqual([['1.jpg']]);
    expect(done.message.jsonContent!.unsupported.map((u) => [u.fileName, u.reason]).sort()).toEqual([['深.jpg', '文件路径过长，系统无法识别'], [longName, '文件路径过长，系统无法识别']].sort());
  });
});
