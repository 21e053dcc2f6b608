import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { and, eq, like } from 'drizzle-orm';
import { storedFiles } from '../../src/db/schema/index.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { pollTask, sha256, uploadFile } from '../helpers/upload.ts';
import { makeZip } from '../helpers/zips.ts';

/** A real 6寸 JPEG; `seed` makes its bytes its own. */
const photo = (seed: number) => sharp({ create: { width: 1795, height: 1205, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: 90 } } })
  .jpeg({ quality: 85 }).withMetadata({ density: 300 }).toBuffer();

type Work = { uuid: string; articleName: string; fileName: string; filePath: string };
type LinkAnswer = { linked: boolean; state?: number; message?: { status: number; filePath: string; accessUrl: string; info: Record<string, number> } };

describe.each(DB_KINDS)('bytes the shop already has are not sent, on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;

  const known = async (token: string, hashes: string[]) => {
    const res = await t.call('POST', '/api/files/knownHashes', { token, body: { hashes } });
    return { status: res.status, body: (await res.json()) as { known: string[] } };
  };
  const link = async (token: string, body: { folderId: string; filePath: string; size: number; sha256: string }) => {
    const res = await t.call('POST', '/api/files/linkFile', { token, body });
    return { status: res.status, text: await res.clone().text(), body: (await res.json()) as LinkAnswer };
  };
  const row = async (hubId: number, path: string) => (await t.db.db.select().from(storedFiles).where(and(eq(storedFiles.hubId, hubId), eq(storedFiles.path, path))))[0];
  const parse = async (token: string, filePath: string) => {
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(filePath)}`, { token });
    return ((await res.json()) as { state: number; message: { works: Work[]; taskId?: string } });
  };

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
  });
  afterAll(async () => t?.close());

  it('records the sha256 of the bytes of every stored file: chunked uploads, zip entries, crops', async () => {
    const big = Buffer.concat([await photo(1), randomBytes(5_000_000)]);
    const up = await uploadFile(t, demo, big, 'big.jpg', { parallel: true });
    expect(up.done).toBeDefined();
    // Asked at once after the upload, the hub knows the bytes (the server hashes what it still lacks first).
    expect((await known(demo, [sha256(big)])).body.known).toEqual([sha256(big)]);
    expect((await row(1, `upload/${up.folderId}/big.jpg`))!.sha256).toBe(sha256(big));

    const a = await photo(2);
    const b = await photo(3);
    const zip = await makeZip([['相册/a.jpg', a], ['相册/b.jpg', b]]);
    const z = await uploadFile(t, demo, zip, '相册.zip');
    expect((await known(demo, [sha256(zip)])).body.known).toEqual([sha256(zip)]);
    expect((await row(1, `upload/${z.folderId}/相册.zip`))!.sha256).toBe(sha256(zip));
    const parsed = await parse(demo, `upload/${z.folderId}/相册.zip`);
    if (parsed.message.taskId) expect((await pollTask(t, demo, parsed.message.taskId)).message.status).toBe('finished');
    const entries = await t.db.db.select({ path: storedFiles.path, sha256: storedFiles.sha256 }).from(storedFiles)
      .where(and(eq(storedFiles.hubId, 1), like(storedFiles.path, `unzip/${z.folderId}/%`)));
    expect(entries.map((e) => [e.path.slice(e.path.lastIndexOf('/') + 1), e.sha256]).sort()).toEqual([['a.jpg', sha256(a)], ['b.jpg', sha256(b)]]);

    const c = await photo(4);
    const cu = await uploadFile(t, demo, c, 'c.jpg');
    const rel = `upload/${cu.folderId}/c.jpg`;
    const crop = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path: rel, x: 0, y: 0, width: 1000, height: 800, scale: 100, rotation: 0 } });
    expect(crop.status).toBe(200);
    const onDisk = await readFile(t.app.services.store.localPath(1, rel));
    expect((await row(1, rel))!.sha256).toBe(sha256(onDisk));
    expect(sha256(onDisk)).not.toBe(sha256(c));
  });

  it('hashes an uploaded file once the uploads go quiet, and after a restart what a stopped server left unhashed', async () => {
    const bytes = await photo(11);
    const up = await uploadFile(t, demo, bytes, 'later.jpg');
    const rel = `upload/${up.folderId}/later.jpg`;
    // Nobody asks: the background fills the hash once no chunk has come for a moment.
    await vi.waitFor(async () => expect((await row(1, rel))!.sha256).toBe(sha256(bytes)), { timeout: 15_000, interval: 100 });

    // A server that stopped before hashing: the row has no hash; the next server fills it by itself.
    await t.db.db.update(storedFiles).set({ sha256: null }).where(and(eq(storedFiles.hubId, 1), eq(storedFiles.path, rel)));
    await t.stop();
    t = await startApp(kind, {}, t.keep);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    await vi.waitFor(async () => expect((await row(1, rel))!.sha256).toBe(sha256(bytes)), { timeout: 15_000, interval: 100 });
  });

  it('links bytes of the same hub into a new batch: the same bytes, metadata and answer as an upload', async () => {
    const bytes = await photo(10);
    const first = await uploadFile(t, demo, bytes, '旅行/p1.jpg');
    const h = sha256(bytes);
    const unknown = sha256(randomBytes(32));
    expect((await known(demo, [h, unknown])).body).toEqual({ known: [h] });

    const folderId = randomUUID();
    const res = await link(demo, { folderId, filePath: '旅行/p1.jpg', size: bytes.length, sha256: h });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ linked: true, state: 200, message: { status: 300, filePath: `upload/${folderId}/旅行/p1.jpg`, info: first.done!.body.message.info } });
    // The bytes served at the linked file's URL are the uploaded bytes.
    const served = Buffer.from(await (await fetch(t.url + res.body.message!.accessUrl)).arrayBuffer());
    expect(sha256(served)).toBe(h);
    // A chunk of it is known to testChunks, and the batch parses into its work as an upload would.
    const test = await t.call('GET', `/api/files/updateFile?identifier=x&chunkIndex=1&chunkTotal=1&size=${bytes.length}&filePath=${encodeURIComponent('旅行/p1.jpg')}&ext=jpg&folderId=${folderId}`, { token: demo });
    expect(test.status).toBe(200);
    const parsed = await parse(demo, `upload/${folderId}/旅行`);
    expect(parsed.message.works.map((w) => w.articleName)).toEqual(['旅行']);
  });

  it('another hub\'s hash links nothing and is answered exactly as a hash no hub has', async () => {
    const bytes = await photo(20);
    await uploadFile(t, demo, bytes, 'mine.jpg');
    const h = sha256(bytes);
    const unknown = sha256(randomBytes(32));
    expect((await known(partial, [h])).body).toEqual({ known: [] });
    const folderId = randomUUID();
    const theirs = await link(partial, { folderId, filePath: 'stolen.jpg', size: bytes.length, sha256: h });
    const none = await link(partial, { folderId, filePath: 'stolen.jpg', size: bytes.length, sha256: unknown });
    expect([theirs.status, theirs.text]).toEqual([none.status, none.text]);
    expect(theirs.body).toEqual({ linked: false });
    expect(await row(2, `upload/${folderId}/stolen.jpg`)).toBeUndefined();
    expect((await t.app.services.store.stat(2, `upload/${folderId}/stolen.jpg`))).toBeNull();
    // Hub 2's own copy of the same bytes, sent by hub 2, is its own to link.
    await uploadFile(t, partial, bytes, 'own.jpg');
    expect((await link(partial, { folderId, filePath: 'own-again.jpg', size: bytes.length, sha256: h })).body.linked).toBe(true);
  });

  it('links only under a name of the same kind and size, and refuses a bad path as an upload would', async () => {
    const bytes = await photo(30);
    await uploadFile(t, demo, bytes, 'k.jpg');
    const h = sha256(bytes);
    const folderId = randomUUID();
    expect((await link(demo, { folderId, filePath: 'k.png', size: bytes.length, sha256: h })).body).toEqual({ linked: false });
    expect((await link(demo, { folderId, filePath: 'k.jpg', size: bytes.length + 1, sha256: h })).body).toEqual({ linked: false });
    const bad = await link(demo, { folderId, filePath: '../k.jpg', size: bytes.length, sha256: h });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('文件路径不合法');
    const type = await link(demo, { folderId, filePath: 'k.txt', size: bytes.length, sha256: h });
    expect(type.status).toBe(400);
    expect(type.text).toContain('只能上传.zip,.pdf,.png,.jpg');
  });

  it('the duplicate check names a work whose content is already in an order of the hub, with the order number', async () => {
    const sku = await findSku(t, demo, 'PH-6');
    const bytes = await photo(40);
    const a = await uploadFile(t, demo, bytes, '海边.jpg');
    const pa = await parse(demo, `upload/${a.folderId}/海边.jpg`);
    expect(pa, JSON.stringify(pa)).toHaveProperty('message.works');
    const [ordered] = pa.message.works;
    await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: ordered!.filePath, workUuid: ordered!.uuid } });
    const placed = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: randomUUID(), deliveryMethod: 'Unified', works: [
      { uuid: ordered!.uuid, articleName: ordered!.articleName, filePath: ordered!.filePath, quantity: 1, productId: sku.productId, propertyConfigId: sku.propertyConfigId, toning: 'None' }] } });
    const placedBody = await placed.clone().text();
    expect(placed.status, placedBody).toBe(200);
    const no = ((await placed.json()) as { message: { orders: Array<{ salesOrderNumber: string }> } }).message.orders[0]!.salesOrderNumber;

    // The same bytes under another name, and other bytes under the ordered name.
    const b = await uploadFile(t, demo, bytes, 'renamed.jpg');
    const [same] = (await parse(demo, `upload/${b.folderId}/renamed.jpg`)).message.works;
    const c = await uploadFile(t, demo, await photo(41), 'fresh.jpg');
    const [other] = (await parse(demo, `upload/${c.folderId}/fresh.jpg`)).message.works;
    const res = await t.call('POST', '/api/sales_order/repeatFileNameCheck', { token: demo, body: { customerHubId: 1, files: ['renamed.jpg', 'fresh.jpg'], workUuids: [same!.uuid, other!.uuid] } });
    const rows = (await res.json()) as Array<Record<string, unknown>>;
    expect(rows).toEqual([
      { fileName: 'renamed.jpg', duplicated: false, salesOrderNumber: null },
      { fileName: 'fresh.jpg', duplicated: false, salesOrderNumber: null },
      { fileName: 'renamed.jpg', duplicated: false, salesOrderNumber: no, workUuid: same!.uuid, sameContent: true },
    ]);

    // Hub 2 with the same bytes: its own orders only, so nothing.
    const d = await uploadFile(t, partial, bytes, 'x.jpg');
    const [theirs] = (await parse(partial, `upload/${d.folderId}/x.jpg`)).message.works;
    const r2 = await t.call('POST', '/api/sales_order/repeatFileNameCheck', { token: partial, body: { files: ['x.jpg'], workUuids: [theirs!.uuid] } });
    expect(await r2.json()).toEqual([{ fileName: 'x.jpg', duplicated: false, salesOrderNumber: null }]);
    // Another hub's work uuid names nothing.
    const r3 = await t.call('POST', '/api/sales_order/repeatFileNameCheck', { token: partial, body: { files: [], workUuids: [same!.uuid] } });
    expect(await r3.json()).toEqual([]);
  });

  it('links many files in one call (linkFiles), scoped to the hub as linkFile, and refuses hostile input in Chinese', async () => {
    const mine = await Promise.all([50, 51, 52].map(photo));
    const sent = await Promise.all(mine.map((b, i) => uploadFile(t, demo, b, `多/p${i}.jpg`)));
    const theirs = await photo(53);
    await uploadFile(t, partial, theirs, 'only-hub-2.jpg');
    const folderId = randomUUID();
    const item = (b: Buffer, filePath: string) => ({ folderId, filePath, size: b.length, sha256: sha256(b) });
    const many = async (token: string, files: unknown) => {
      const res = await t.call('POST', '/api/files/linkFiles', { token, body: { files } });
      return { status: res.status, text: await res.clone().text(), body: (await res.json()) as { results: LinkAnswer[] } };
    };

    // Three of the hub's files, another hub's bytes and unknown bytes: one answer each, in order.
    const unknown = randomBytes(1000);
    const res = await many(demo, [item(mine[0]!, '再选/p0.jpg'), item(theirs, '再选/x.jpg'), item(mine[1]!, '再选/p1.jpg'), item(unknown, '再选/u.jpg'), item(mine[2]!, '再选/p2.jpg')]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r) => r.linked)).toEqual([true, false, true, false, true]);
    // Another hub's hash is answered exactly as bytes no hub has.
    expect(res.body.results[1]).toEqual(res.body.results[3]);
    expect(res.body.results[0]).toMatchObject({ state: 200, message: { status: 300, filePath: `upload/${folderId}/再选/p0.jpg`, info: sent[0]!.done!.body.message.info } });
    expect(await row(1, `upload/${folderId}/再选/x.jpg`)).toBeUndefined();
    expect(await t.app.services.store.stat(1, `upload/${folderId}/再选/x.jpg`)).toBeNull();
    const served = Buffer.from(await (await fetch(t.url + res.body.results[4]!.message!.accessUrl)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(mine[2]!));
    // The linked folder parses into its work, as an upload would.
    const parsed = await parse(demo, `upload/${folderId}/再选`);
    expect(parsed.message.works.map((w) => w.articleName)).toEqual(['再选']);
    // Hub 2 asking for hub 1's bytes links nothing.
    const stolen = await many(partial, [item(mine[0]!, 'stolen/p0.jpg')]);
    expect(stolen.body).toEqual({ results: [{ linked: false }] });
    expect(await row(2, `upload/${folderId}/stolen/p0.jpg`)).toBeUndefined();

    // Hostile input: a bad path anywhere refuses the call and links nothing; too many, none, twice, bad hashes.
    const other = randomUUID();
    const bad = await many(demo, [{ ...item(mine[0]!, 'ok.jpg'), folderId: other }, { ...item(mine[1]!, '../escape.jpg'), folderId: other }]);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('文件路径不合法');
    expect(await row(1, `upload/${other}/ok.jpg`)).toBeUndefined();
    const tooMany = await many(demo, Array.from({ length: 501 }, (_, i) => item(mine[0]!, `n${i}.jpg`)));
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain('一次最多关联500个文件');
    const none = await many(demo, []);
    expect(none.status).toBe(400);
    expect(none.text).toContain('请至少提供一个文件');
    const twice = await many(demo, [item(mine[0]!, 'same.jpg'), item(mine[1]!, 'same.jpg')]);
    expect(twice.status).toBe(400);
    expect(twice.text).toContain('同一文件在请求中出现了多次');
    const wrongHash = await many(demo, [{ ...item(mine[0]!, 'h.jpg'), sha256: 'not-a-hash' }]);
    expect(wrongHash.status).toBe(400);
    expect(wrongHash.text).toContain('文件指纹不正确');
    const wrongType = await many(demo, [item(mine[0]!, 'h.exe')]);
    expect(wrongType.status).toBe(400);
    expect(wrongType.text).toContain('只能上传.zip,.pdf,.png,.jpg');
    expect((await many(demo, 'files')).status).toBe(400);
    expect((await t.call('POST', '/api/files/linkFiles', { body: { files: [item(mine[0]!, 'anon.jpg')] } })).status).toBe(401);
  });

  it('a long task\'s poll may wait for its end (waitMs), at most 3 s, with a Chinese message for a bad wait', async () => {
    const folderId = randomUUID();
    // More than 50 files: a long task (../shared/spec/decisions.md §4).
    const files = await Promise.all(Array.from({ length: 51 }, (_, i) => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: i, g: 9, b: 90 } } }).jpeg().toBuffer()));
    for (const [i, b] of files.entries()) await uploadFile(t, demo, b, `长任务/p${i}.jpg`, { folderId });
    const parsed = await parse(demo, `upload/${folderId}/长任务`);
    const taskId = parsed.message.taskId!;
    expect(taskId).toBeTruthy();
    const started = performance.now();
    const res = await t.call('GET', `/api/long-time-tasks/${taskId}?waitMs=3000`, { token: demo });
    const task = ((await res.json()) as { message: { status: string; jsonContent: { works: Work[] } | null } }).message;
    // The answer came when the task ended (or after the 3 s wait): finished, or still running after 3 s.
    if (task.status === 'running') expect(performance.now() - started).toBeGreaterThanOrEqual(2900);
    else expect(task.status).toBe('finished');
    const bad = await t.call('GET', `/api/long-time-tasks/${taskId}?waitMs=3001`, { token: demo });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('等待时间最多3000毫秒');
    const nan = await t.call('GET', `/api/long-time-tasks/${taskId}?waitMs=abc`, { token: demo });
    expect(nan.status).toBe(400);
    expect(await nan.text()).toContain('等待时间不正确');
    // Another hub's task is not found, waiting or not.
    expect((await t.call('GET', `/api/long-time-tasks/${taskId}?waitMs=100`, { token: partial })).status).toBe(404);
  });

  it('a customer needs a token', async () => {
    expect((await t.call('POST', '/api/files/knownHashes', { body: { hashes: [] } })).status).toBe(401);
    expect((await t.call('POST', '/api/files/linkFile', { body: {} })).status).toBe(401);
  });
});
