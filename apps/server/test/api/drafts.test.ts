import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DRAFT_MSG, type BatchDraftDocument, type OpenDraftAnswer, type SavedDraftAnswer, type StoredChunksAnswer } from '@portal/contract';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { CHUNK, chunksOf, sendChunk, uploadFile } from '../helpers/upload.ts';

/** A draft with `n` works of one photo each and one unfinished folder upload, as the page saves it. */
function documentOf(n: number, name = '作品'): BatchDraftDocument {
  return {
    format: 1,
    works: Array.from({ length: n }, (_, i) => ({
      uuid: randomUUID(), articleName: `${name}${i + 1}`, filePath: `upload/f/${name}${i + 1}.jpg`, fileName: `${name}${i + 1}.jpg`,
      files: [{ fileName: `${name}${i + 1}.jpg`, filePath: `upload/f/${name}${i + 1}.jpg`, component: null, width: 1500, height: 1051, dpi: 300, pages: 1 }],
      quantity: 2, pageCount: 1, state: 'match', productId: 1, productName: '5寸照片冲印', propertyConfigId: 1, sku: '相纸:光面;边框:无边框',
      components: [{ componentName: '照片', width: 127, height: 89, count: 1 }], priceBasis: 'print', fileArea: 0.0113, toning: 'None', customToning: false,
    })),
    selectedKeys: [],
    uploads: [{
      key: 'b1/相册', batchId: 'b1', name: '相册', isFolder: true, filePath: 'upload/b1/相册', itemIndex: 0, fileNum: 2, parsed: false,
      files: [
        { id: 'b1-0', relativePath: '相册/p1.jpg', size: 5_000_000, lastModified: 1_700_000_000_000, chunkTotal: 3, done: false, chunks: '1-2' },
        { id: 'b1-1', relativePath: '相册/p2.jpg', size: 1000, lastModified: 1_700_000_000_000, chunkTotal: 1, done: true },
      ],
    }],
  };
}

describe.each(DB_KINDS)('the open batch draft on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;

  const json = async <T>(res: Response) => ({ status: res.status, body: (await res.json()) as T });
  const openDraft = async (token: string) => (await json<OpenDraftAnswer>(await t.call('GET', '/api/batch-drafts/open', { token }))).body.draft;

  beforeAll(async () => {
    // A small limit, so the 413 needs no megabytes.
    t = await startApp(kind, { DRAFT_MAX_BYTES: String(64 * 1024) });
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
  });
  afterAll(async () => t?.close());

  it('is saved, loaded again with its version, and refuses a save over a version it does not have (409, in Chinese)', async () => {
    expect(await openDraft(demo)).toBeNull();
    const doc = documentOf(3);
    const created = await json<SavedDraftAnswer>(await t.call('POST', '/api/batch-drafts', { token: demo, body: { document: doc } }));
    expect(created.status).toBe(200);
    expect(created.body.version).toBe(1);

    // Another computer: a new login of the same customer finds the works.
    const elsewhere = await t.login('demo', 'demo');
    const loaded = await openDraft(elsewhere);
    expect(loaded).toMatchObject({ id: created.body.id, version: 1 });
    expect(loaded!.document.works.map((w) => w.articleName)).toEqual(['作品1', '作品2', '作品3']);
    expect(loaded!.document.uploads[0]!.files[0]).toMatchObject({ relativePath: '相册/p1.jpg', chunks: '1-2', done: false });

    const changed = { ...doc, works: doc.works.slice(0, 2) };
    const saved = await json<SavedDraftAnswer>(await t.call('PUT', `/api/batch-drafts/${created.body.id}`, { token: demo, body: { version: 1, document: changed } }));
    expect(saved).toMatchObject({ status: 200, body: { id: created.body.id, version: 2 } });
    // The same save again (its answer was lost: the server died after its commit) is answered as it was, not a 409
    // that made the page stop saving (crash probe); the same version with another document is the other window's.
    const resent = await json<SavedDraftAnswer>(await t.call('PUT', `/api/batch-drafts/${created.body.id}`, { token: demo, body: { version: 1, document: changed } }));
    expect(resent).toMatchObject({ status: 200, body: { id: created.body.id, version: 2 } });

    // The other computer still holds version 1: its save is refused, and the draft is as the first saved it.
    const stale = await json<{ message: string; code: string }>(await t.call('PUT', `/api/batch-drafts/${created.body.id}`, { token: elsewhere, body: { version: 1, document: doc } }));
    expect(stale).toEqual({ status: 409, body: { message: DRAFT_MSG.conflict, code: 'draft-version' } });
    expect(stale.body.message).toMatch(/\p{Script=Han}/u);
    expect((await openDraft(demo))!.document.works).toHaveLength(2);

    // Two tabs opening a draft at once: one open draft per login.
    const second = await json<{ message: string }>(await t.call('POST', '/api/batch-drafts', { token: demo, body: { document: doc } }));
    expect(second).toEqual({ status: 409, body: { message: DRAFT_MSG.alreadyOpen, code: 'draft-exists' } });

    // 重置 closes it: nothing opens again, and a later save of it says why.
    expect((await t.call('DELETE', `/api/batch-drafts/${created.body.id}`, { token: demo })).status).toBe(200);
    expect(await openDraft(elsewhere)).toBeNull();
    const late = await json<{ message: string }>(await t.call('PUT', `/api/batch-drafts/${created.body.id}`, { token: demo, body: { version: 2, document: doc } }));
    expect(late).toEqual({ status: 409, body: { message: DRAFT_MSG.closed, code: 'draft-closed' } });
    // A new batch opens a new draft.
    const next = await json<SavedDraftAnswer>(await t.call('POST', '/api/batch-drafts', { token: demo, body: { document: documentOf(1) } }));
    expect(next.status).toBe(200);
    expect(next.body.id).not.toBe(created.body.id);
    await t.call('DELETE', `/api/batch-drafts/${next.body.id}`, { token: demo });
  });

  it('is its login\'s only: another hub gets 404 for its id, sees no open draft, and cannot save or discard it', async () => {
    const mine = await json<SavedDraftAnswer>(await t.call('POST', '/api/batch-drafts', { token: demo, body: { document: documentOf(2, '私有') } }));
    const id = mine.body.id;
    expect(await openDraft(partial)).toBeNull();
    for (const [method, body] of [['GET', undefined], ['PUT', { version: 1, document: documentOf(1) }], ['DELETE', undefined]] as const) {
      const res = await json<{ message: string }>(await t.call(method, `/api/batch-drafts/${id}`, { token: partial, body }));
      expect(res, method).toEqual({ status: 404, body: { message: '批量订单草稿不存在', code: 'not-found' } });
    }
    expect((await t.call('GET', `/api/batch-drafts/${id}`)).status).toBe(401);
    const still = await openDraft(demo);
    expect(still).toMatchObject({ id, version: 1 });
    expect(still!.document.works[0]!.articleName).toBe('私有1');
    await t.call('DELETE', `/api/batch-drafts/${id}`, { token: demo });
  });

  it('refuses a draft over DRAFT_MAX_BYTES with 413 and a Chinese message, and keeps the last good one', async () => {
    const small = await json<SavedDraftAnswer>(await t.call('POST', '/api/batch-drafts', { token: partial, body: { document: documentOf(5) } }));
    expect(small.status).toBe(200);
    const big = documentOf(400);
    const res = await json<{ message: string; code: string }>(await t.call('PUT', `/api/batch-drafts/${small.body.id}`, { token: partial, body: { version: 1, document: big } }));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('draft-too-large');
    expect(res.body.message).toMatch(/^批量订单草稿过大（0\.\dMB），超过上限0\.1MB，请先下单一部分作品$/);
    expect((await openDraft(partial))!.document.works).toHaveLength(5);
    // Far over (beyond the route's body limit): still a 413 in Chinese, never a 500.
    const huge = await t.call('PUT', `/api/batch-drafts/${small.body.id}`, { token: partial, body: { version: 1, document: documentOf(1200) } });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { message: string }).message).toMatch(/\p{Script=Han}/u);
    // A document that is not a draft is a 400 that names the field.
    const bad = await json<{ message: string }>(await t.call('PUT', `/api/batch-drafts/${small.body.id}`, { token: partial, body: { version: 1, document: { format: 1, works: [{ uuid: 'x' }] } } }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('草稿的第1个作品的文件名：缺少此项');
    await t.call('DELETE', `/api/batch-drafts/${small.body.id}`, { token: partial });
  });

  it('closes when the batch is ordered', async () => {
    const photo5 = await findSku(t, demo, 'PH-5', 'PH5-GL-NB');
    const jpeg = await sharp({ create: { width: 1500, height: 1051, channels: 3, background: '#4488cc' } }).jpeg().withMetadata({ density: 300 }).toBuffer();
    const up = await uploadFile(t, demo, jpeg, '草稿下单.jpg');
    const parsed = await json<{ message: { works: Array<{ uuid: string; articleName: string; filePath: string }> } }>(
      await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${up.folderId}/草稿下单.jpg`)}`, { token: demo }));
    const w = parsed.body.message.works[0]!;
    await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: photo5.productId, propertyConfigId: photo5.propertyConfigId, filePath: w.filePath } });
    const draft = await json<SavedDraftAnswer>(await t.call('POST', '/api/batch-drafts', { token: demo, body: { document: documentOf(1) } }));
    expect(draft.status).toBe(200);
    const order = await t.call('POST', '/api/sales_order/batch', { token: demo, body: {
      idempotencyKey: randomUUID(), deliveryMethod: 'Unified',
      works: [{ uuid: w.uuid, articleName: w.articleName, filePath: w.filePath, quantity: 1, productId: photo5.productId, propertyConfigId: photo5.propertyConfigId, toning: 'None' }],
    } });
    expect(order.status).toBe(200);
    expect(await openDraft(demo)).toBeNull();
    const late = await json<{ message: string }>(await t.call('PUT', `/api/batch-drafts/${draft.body.id}`, { token: demo, body: { version: 1, document: documentOf(1) } }));
    expect(late).toEqual({ status: 409, body: { message: DRAFT_MSG.closed, code: 'draft-closed' } });
  });

  it('answers in one call which chunks of unfinished uploads the hub holds, and nothing of another hub\'s', async () => {
    const bytes = Buffer.concat([await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } }).jpeg().toBuffer(), Buffer.alloc(CHUNK * 2 + 100, 1)]);
    const chunks = chunksOf(bytes);
    expect(chunks).toHaveLength(3);
    const folderId = randomUUID();
    const filePath = '相册/半途.jpg';
    for (const index of [1, 3]) {
      const r = await sendChunk(t, demo, { bytes: chunks[index - 1]!, filePath, folderId, identifier: `${folderId}-0`, index, total: 3, size: bytes.length });
      expect(r.status).toBe(200);
    }
    const small = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#654321' } }).png().toBuffer();
    const done = await uploadFile(t, demo, small, '相册/完成.png', { folderId });
    expect(done.done).toBeDefined();

    const ask = { uploads: [
      { folderId, filePath, size: bytes.length, chunkTotal: 3 },
      { folderId, filePath: '相册/完成.png', size: small.length, chunkTotal: 1 },
      { folderId, filePath: '相册/从未上传.jpg', size: 10, chunkTotal: 1 },
      // The same path with another size: another file, nothing of it is stored.
      { folderId, filePath, size: bytes.length + 1, chunkTotal: 3 },
    ] };
    const mine = await json<StoredChunksAnswer>(await t.call('POST', '/api/files/storedChunks', { token: demo, body: ask }));
    expect(mine.status).toBe(200);
    expect(mine.body.uploads.map((u) => [u.status, u.chunks])).toEqual([['receiving', [1, 3]], ['done', []], ['none', []], ['none', []]]);
    expect(mine.body.uploads[1]!.result).toMatchObject({ status: 300, filePath: `upload/${folderId}/相册/完成.png`, info: { width: 32, height: 32 } });

    const theirs = await json<StoredChunksAnswer>(await t.call('POST', '/api/files/storedChunks', { token: partial, body: ask }));
    expect(theirs.body.uploads.map((u) => u.status)).toEqual(['none', 'none', 'none', 'none']);
    expect(JSON.stringify(theirs.body)).not.toContain('完成.png');

    // The missing chunk completes the file: it is done.
    const last = await sendChunk(t, demo, { bytes: chunks[1]!, filePath, folderId, identifier: `${folderId}-0`, index: 2, total: 3, size: bytes.length });
    expect(last.body.message.status).toBe(300);
    const after = await json<StoredChunksAnswer>(await t.call('POST', '/api/files/storedChunks', { token: demo, body: { uploads: [ask.uploads[0]!] } }));
    expect(after.body.uploads[0]!.status).toBe('done');

    // A path of blanks names no file: refused like an empty one, with a Chinese message.
    const blank = await t.call('POST', '/api/files/storedChunks', { token: demo, body: { uploads: [{ folderId, filePath: '  ', size: 10, chunkTotal: 1 }] } });
    expect(blank.status).toBe(400);
    expect(((await blank.json()) as { message: string }).message).toMatch(/文件路径不能为空/);
  });
});
