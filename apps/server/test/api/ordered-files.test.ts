/**
 * A file an order refers to is the press's: after the order nothing the customer's calls do may change or remove
 * its bytes (a LAN probe, 2026-11-29: a chunk upload, a link and a crop replaced an ordered file, and the
 * production zip held the new bytes; undoing a fix removed the fixed picture an order had taken). Real uploads, a
 * real server, both databases; the bytes are read back as the operator's download serves them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { BulkFixTaskAnswer } from '@portal/contract';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { sendChunk, uploadFile } from '../helpers/upload.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const photoPx = (w: number, h: number, background: string) =>
  sharp({ create: { width: w, height: h, channels: 3, background } }).jpeg({ quality: 90 }).withMetadata({ density: 300 }).toBuffer();

type Work = { uuid: string; articleName: string; filePath: string; files: Array<{ fileName: string; filePath: string }> };

describe.each(DB_KINDS)('ordered files stay as ordered on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let photo5: Awaited<ReturnType<typeof findSku>>;

  /** A one-photo folder work, checked against 5寸; its folderId, work and the photo's stored path. */
  const checkedWork = async (name: string, bytes: Buffer) => {
    const folderId = randomUUID();
    expect((await uploadFile(t, demo, bytes, `${name}/1.jpg`, { folderId })).done).toBeDefined();
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${name}`)}`, { token: demo });
    const w = ((await res.json()) as { message: { works: Work[] } }).message.works[0]!;
    await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { ...photo5, filePath: w.filePath, workUuid: w.uuid } });
    return { folderId, w, path: `upload/${folderId}/${name}/1.jpg` };
  };
  const placeOrder = async (w: Work) => {
    const res = await t.call('POST', '/api/sales_order/batch', { token: demo, body: {
      idempotencyKey: randomUUID(), deliveryMethod: 'Unified',
      works: [{ uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity: 1, productId: photo5.productId, propertyConfigId: photo5.propertyConfigId, toning: 'None' }],
    } });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { message: { orders: Array<{ salesOrderNumber: string }> } }).message.orders[0]!.salesOrderNumber;
  };
  /** The bytes of the order's first file as the operator downloads them for the press. */
  const orderedBytes = async (no: string, operator: string) => {
    const list = await t.call('GET', `/api/admin/orders?q=${no}`, { token: operator });
    const [o] = (await list.json()) as Array<{ id: number }>;
    const detail = (await (await t.call('GET', `/api/admin/orders/${o!.id}`, { token: operator })).json()) as { files: Array<{ downloadUrl: string }> };
    return Buffer.from(await (await fetch(new URL(detail.files[0]!.downloadUrl, t.url))).arrayBuffer());
  };
  const message = async (r: Response) => ((await r.json()) as { message: string }).message;

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    photo5 = await findSku(t, demo, 'PH-5');
  });
  afterAll(async () => t?.close());

  it('refuses a chunk upload, a link and a crop over an ordered file (409) and the press gets the ordered bytes', async () => {
    const operator = await t.login('operator', 'operator');
    const ordered = await photoPx(1500, 1051, '#3366aa');
    const { folderId, w, path } = await checkedWork('已下单作品', ordered);
    const no = await placeOrder(w);
    const other = await photoPx(1500, 1051, '#aa3322');

    // The same bytes again under the same batch and path (a resend): taken, nothing changes.
    expect((await uploadFile(t, demo, ordered, '已下单作品/1.jpg', { folderId })).done).toBeDefined();
    // The same batch and path again, with other bytes (the stock uploader keeps its folderId).
    const again = await uploadFile(t, demo, other, '已下单作品/1.jpg', { folderId });
    expect(again.last.status).toBe(409);
    expect(again.last.body.message).toEqual({ status: 400, error: '该文件已下单，不能覆盖；修改后的文件请换一个文件夹上传' });

    // Linked from another stored file of the hub with those bytes.
    expect((await uploadFile(t, demo, other, '别的/1.jpg')).done).toBeDefined();
    const link = await t.call('POST', '/api/files/linkFile', { token: demo, body: { folderId, filePath: '已下单作品/1.jpg', size: other.length, sha256: sha(other) } });
    expect(link.status).toBe(409);
    expect(await link.json()).toMatchObject({ message: { error: '该文件已下单，不能覆盖；修改后的文件请换一个文件夹上传' } });
    const many = await t.call('POST', '/api/files/linkFiles', { token: demo, body: { files: [{ folderId, filePath: '已下单作品/1.jpg', size: other.length, sha256: sha(other) }] } });
    expect(await many.json()).toEqual({ results: [{ linked: false }] });

    // Cropped, and a crop undone.
    const crop = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: 700, height: 500, scale: 100, rotation: 0 } });
    expect(crop.status).toBe(409);
    expect(await message(crop)).toBe('该文件已下单，不能修改');
    const undoCrop = await t.call('POST', '/api/files/undoCrop', { token: demo, body: { path } });
    expect(undoCrop.status).toBe(409);

    expect(sha(await orderedBytes(no, operator))).toBe(sha(ordered));
  });

  it('a file cropped before the order is not put back by an undo after it', async () => {
    const operator = await t.login('operator', 'operator');
    const { w, path } = await checkedWork('先裁后下单', await photoPx(1800, 1205, '#22aa66'));
    const crop = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: 1500, height: 1051, scale: 100, rotation: 0 } });
    expect(crop.status).toBe(200);
    await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { ...photo5, filePath: w.filePath, workUuid: w.uuid } });
    const cropped = Buffer.from(await (await t.call('GET', `/api/files/raw/1/${path.split('/').map(encodeURIComponent).join('/')}`, { token: demo })).arrayBuffer());
    const no = await placeOrder(w);
    const undo = await t.call('POST', '/api/files/undoCrop', { token: demo, body: { path } });
    expect(undo.status).toBe(409);
    expect(await message(undo)).toBe('该文件已下单，不能修改');
    expect(sha(await orderedBytes(no, operator))).toBe(sha(cropped));
  });

  it('undoing a 裁切填充 after the fixed picture was ordered points the work back and keeps the ordered picture', async () => {
    const operator = await t.login('operator', 'operator');
    const { w, path } = await checkedWork('修复后下单', await photoPx(1800, 1205, '#aa22aa'));
    const res = await t.call('POST', '/api/bulk-fix/apply', { token: demo, body: { items: [{ workUuid: w.uuid, filePath: path, kind: 'fill' }], position: 'centre' } });
    expect(res.status).toBe(200);
    const { message: { taskId } } = (await res.json()) as { message: { taskId: string } };
    let status = 'running';
    for (let i = 0; i < 300 && status === 'running'; i++) {
      status = ((await (await t.call('GET', `/api/bulk-fix/tasks/${taskId}`, { token: demo })).json()) as BulkFixTaskAnswer).message.status;
      if (status === 'running') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('finished');
    const no = await placeOrder(w);
    const fixed = await orderedBytes(no, operator);
    expect((await sharp(fixed).metadata()).width).toBe(1500);

    const undo = await t.call('POST', '/api/bulk-fix/undo', { token: demo, body: { taskId } });
    expect(undo.status).toBe(200);
    expect(sha(await orderedBytes(no, operator))).toBe(sha(fixed));
  });

  it('still takes a chunk of a file the order does not hold under the ordered work\'s batch', async () => {
    const { folderId, w } = await checkedWork('同批次', await photoPx(1500, 1051, '#888888'));
    await placeOrder(w);
    const bytes = await photoPx(1500, 1051, '#444444');
    const r = await sendChunk(t, demo, { bytes, filePath: '另一个/1.jpg', folderId, identifier: `${bytes.length}-x`, index: 1, total: 1, size: bytes.length });
    expect(r.body.message.status).toBe(300);
  });

  it('never orders a file that a crop, a delete or an upload sent at the same moment changed (API probe: both answered 200)', async () => {
    const operator = await t.login('operator', 'operator');
    const passing = await photoPx(1500, 1051, '#3366aa');
    const other = await photoPx(1500, 1051, '#aa3322');
    const small = { width: 600, height: 600 };
    for (let round = 0; round < 4; round++) {
      for (const change of ['crop', 'delete', 'upload'] as const) {
        const { folderId, w, path } = await checkedWork(`同时-${change}-${round}`, passing);
        const order = t.call('POST', '/api/sales_order/batch', { token: demo, body: {
          idempotencyKey: randomUUID(), deliveryMethod: 'Unified',
          works: [{ uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity: 1, productId: photo5.productId, propertyConfigId: photo5.propertyConfigId, toning: 'None' }],
        } });
        // Sent a moment later (0-30 ms), as the probe's rounds did.
        await new Promise((r) => setTimeout(r, round * 10));
        const changed = change === 'crop' ? t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, ...small, scale: 100, rotation: 0 } })
          : change === 'delete' ? t.call('POST', '/api/files/deleteFile', { token: demo, body: { filePath: path } })
            : uploadFile(t, demo, other, `同时-${change}-${round}/1.jpg`, { folderId }).then((u) => ({ status: u.last.status }));
        const [placed, done] = await Promise.all([order, changed]);
        // One of the two wins: the order (the change is then refused as ordered) or the change (the order's re-check then
        // sees the new file: a crop too small for 5寸, a file gone, other bytes that still pass).
        if (placed.status === 200) {
          const no = ((await placed.json()) as { message: { orders: Array<{ salesOrderNumber: string }> } }).message.orders[0]!.salesOrderNumber;
          const bytes = await orderedBytes(no, operator);
          if (done.status === 200) {
            expect(change, `${change} round ${round}: both answered 200`).toBe('upload');
            expect(sha(bytes)).toBe(sha(other));
          } else {
            expect(done.status, `${change} round ${round}`).toBe(409);
            expect(sha(bytes), `${change} round ${round}: the press gets what was ordered`).toBe(sha(passing));
          }
        } else {
          expect(done.status, `${change} round ${round}: ${await placed.text()}`).toBe(200);
          expect([400, 404]).toContain(placed.status);
        }
      }
    }
  });

  it('keeps the original of a photo cropped six times at once, which 撤销裁切 brings back (API probe: it was lost)', async () => {
    const original = await photoPx(1500, 1051, '#3366aa');
    const { path } = await checkedWork('六次裁切', original);
    const crops = await Promise.all([600, 700, 800, 900, 1000, 1100].map((width) =>
      t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width, height: 700, scale: 100, rotation: 0 } })));
    expect(crops.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const undo = await t.call('POST', '/api/files/undoCrop', { token: demo, body: { path } });
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect((await undo.json()) as unknown).toMatchObject({ data: { widthPx: 1500, heightPx: 1051 } });
    const raw = await t.call('GET', `/api/files/raw/1/${path.split('/').map(encodeURIComponent).join('/')}`, { token: demo });
    expect(sha(Buffer.from(await raw.arrayBuffer()))).toBe(sha(original));
  });
});
