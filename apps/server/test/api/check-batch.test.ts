/**
 * POST /api/sales_order/checkFiles (issue #20 item 5): many works checked against one SKU in one call,
 * each result as checkFile answers it; scoped to the caller's hub.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq, inArray } from 'drizzle-orm';
import type { CheckFileAnswer, CheckFilesAnswer } from '@portal/contract';
import { storedFiles, works } from '../../src/db/schema/index.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { uploadFile } from '../helpers/upload.ts';

/** A JPEG of exactly w×h mm at the dpi (pixels rounded). */
const photoMm = (w: number, h: number, dpi = 300) =>
  sharp({ create: { width: Math.round((w / 25.4) * dpi), height: Math.round((h / 25.4) * dpi), channels: 3, background: '#4488cc' } })
    .jpeg().withMetadata({ density: dpi }).toBuffer();

type Work = { uuid: string; filePath: string };

/** The parts of an answer that do not change from one call to the next (preview links are signed with an expiry). */
const stable = (a: CheckFileAnswer) => JSON.parse(JSON.stringify(a, (k, v) => (k === 'previewUrl' || k === 'previewRelativeUrl' ? undefined : v)));

describe.each(DB_KINDS)('checkFiles on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;
  let photo5: Awaited<ReturnType<typeof findSku>>;

  const work = async (name: string, bytes: Buffer): Promise<Work> => {
    const folderId = randomUUID();
    expect((await uploadFile(t, demo, bytes, name, { folderId })).done).toBeDefined();
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${name}`)}&customerHubId=1`, { token: demo });
    return ((await res.json()) as { message: { works: Work[] } }).message.works[0]!;
  };
  const checkFiles = async (body: Record<string, unknown>, token = demo) => {
    const res = await t.call('POST', '/api/sales_order/checkFiles', { token, body: { makeWay: 'File', checkNumberOfPages: true, ...body } });
    return { status: res.status, body: (await res.json()) as CheckFilesAnswer & { message: unknown } };
  };

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    photo5 = await findSku(t, demo, 'PH-5');
  });
  afterAll(async () => t?.close());

  it('checks every work, in the request\'s order, each as checkFile answers it, and stores each outcome', async () => {
    const good = await work('好.jpg', await photoMm(127, 89));
    const small = await work('小.jpg', await photoMm(122, 86));
    const low = await work('低.jpg', await photoMm(127, 89, 150));
    const sku = { productId: photo5.productId, propertyConfigId: photo5.propertyConfigId };
    const list = [good, small, low];
    const { status, body } = await checkFiles({ ...sku, customerHubId: 1, works: list.map((w) => ({ filePath: w.filePath, workUuid: w.uuid })) });
    expect(status).toBe(200);
    const results = body.message.results;
    expect(results.map((r) => r.workUuid)).toEqual(list.map((w) => w.uuid));
    const answers = results.map((r) => ('answer' in r ? r.answer : null));
    expect(answers.map((a) => a?.state)).toEqual([200, 400, 200]);
    expect(answers[2]!.state === 200 && answers[2]!.message.resolutionWarning).toBe(true);
    expect(answers[1]!.state === 400 && answers[1]!.message.messages[0]!.message).toMatch(/尺寸不符：实际122×86mm/);
    // Stored by the call itself (its outcomes are written together at its end), as checkFile stores them.
    const stored = await Promise.all(list.map(async (w) => (await t.db.db.select().from(works).where(eq(works.uuid, w.uuid)))[0]!));
    expect(stored.map((w) => [w.state, w.checkPassed, w.productId, w.propertyConfigId, w.pageCount, w.checkedAt !== null])).toEqual([
      ['match', true, sku.productId, sku.propertyConfigId, 1, true],
      ['abnormal', false, sku.productId, sku.propertyConfigId, 1, true],
      ['dpiAbnormal', true, sku.productId, sku.propertyConfigId, 1, true],
    ]);
    expect(JSON.stringify(stored[1]!.checkResult)).toMatch(/尺寸不符：实际122×86mm/);
    // What the check learnt of each file (is it whole) is stored too: a second check reads no file.
    const metas = await t.db.db.select({ meta: storedFiles.meta }).from(storedFiles).where(inArray(storedFiles.path, list.map((w) => w.filePath)));
    expect(metas.map((m) => m.meta?.intact)).toEqual([true, true, true]);
    // The same as one checkFile call per work.
    for (const [i, w] of list.entries()) {
      const one = await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { ...sku, customerHubId: 1, filePath: w.filePath, workUuid: w.uuid, makeWay: 'File', checkNumberOfPages: true } });
      expect(stable(answers[i]!)).toEqual(stable((await one.json()) as CheckFileAnswer));
    }
    const states = await Promise.all(list.map(async (w) => (await t.db.db.select().from(works).where(eq(works.uuid, w.uuid)))[0]!.state));
    expect(states).toEqual(['match', 'abnormal', 'dpiAbnormal']);
  });

  it('answers a work that is not there (or another hub\'s) in its place, and checks the rest', async () => {
    const good = await work('好2.jpg', await photoMm(127, 89));
    const sku = { productId: photo5.productId, propertyConfigId: photo5.propertyConfigId };
    const { status, body } = await checkFiles({ ...sku, works: [{ filePath: 'upload/none/x.jpg', workUuid: randomUUID() }, { filePath: good.filePath, workUuid: good.uuid }] });
    expect(status).toBe(200);
    expect(body.message.results[0]).toMatchObject({ error: { status: 404, message: '作品不存在，请重新上传' } });
    expect(body.message.results[1]).toMatchObject({ answer: { state: 200 } });

    // Another hub's customer: the demo hub's work is not found for it, and the demo hub's id is refused.
    const other = await checkFiles({ ...sku, works: [{ filePath: good.filePath, workUuid: good.uuid }] }, partial);
    // A call that finds none of its works is answered as checkFile answers such a work: 404, naming nothing.
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain(good.filePath);
    expect((other.body as unknown as { message: string }).message).toBe('作品不存在，请重新上传');
    const gone = await checkFiles({ ...sku, works: [{ filePath: 'upload/none/x.jpg', workUuid: randomUUID() }] });
    expect(gone.status).toBe(404);
    expect((await checkFiles({ ...sku, customerHubId: 1, works: [{ filePath: good.filePath }] }, partial)).status).toBe(403);
  });

  it('refuses an empty or too long list, and a SKU it cannot check against, with a Chinese message', async () => {
    const sku = { productId: photo5.productId, propertyConfigId: photo5.propertyConfigId };
    const empty = await checkFiles({ ...sku, works: [] });
    expect(empty.status).toBe(400);
    expect((empty.body as unknown as { message: string }).message).toMatch(/^请求参数不正确/);
    const blank = await checkFiles({ ...sku, works: [{ filePath: ' ' }] });
    expect(blank.status).toBe(400);
    expect((blank.body as unknown as { message: string }).message).toMatch(/文件路径不能为空/);
    const many = Array.from({ length: 101 }, () => ({ filePath: 'upload/x/a.jpg' }));
    expect((await checkFiles({ ...sku, works: many })).status).toBe(400);
    const bad = await checkFiles({ productId: photo5.productId, propertyConfigId: 999999, works: [{ filePath: 'upload/x/a.jpg' }] });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect((bad.body as unknown as { message: string }).message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('needs a login', async () => {
    const res = await t.call('POST', '/api/sales_order/checkFiles', { body: { productId: 1, propertyConfigId: 1, works: [{ filePath: 'a.jpg' }] } });
    expect(res.status).toBe(401);
  });
});
