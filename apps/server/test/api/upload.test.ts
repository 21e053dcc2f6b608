import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { MSG } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { and, eq, sql } from 'drizzle-orm';
import { uploadChunks, uploads } from '../../src/db/schema/index.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { corpusFile, fixtureFile } from '../helpers/corpus.ts';
import { CHUNK as CHUNK_BYTES, chunksOf, flatGreyPng, sendChunk, sha256, uploadFile } from '../helpers/upload.ts';

/** Noise compresses badly, so a PNG of it is several megabytes: several chunks. */
async function bigPng(width = 1600, height = 1200) {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).withMetadata({ density: 300 }).toBuffer();
}

/** The same JPEG with a comment segment after its SOI: a different file of the same size for comments of the same length. */
function withComment(jpeg: Buffer, text: string) {
  const body = Buffer.from(text);
  const segment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, body.length + 2]), body]);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

describe.each(DB_KINDS)('upload on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;
  let big: Buffer;

  beforeAll(async () => {
    t = await startApp(kind, { MAX_CHUNK_BYTES: '2100000' });
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    big = await bigPng();
  });
  afterAll(async () => t?.close());

  it('stores a one-chunk JPEG and answers 300 with its pixels and stated density', async () => {
    const bytes = corpusFile('images/pillow_rgb_jfif300.jpg');
    const { done } = await uploadFile(t, demo, bytes, 'photo.jpg');
    expect(done?.body).toMatchObject({ state: 200, message: { status: 300, filePath: expect.stringMatching(/^upload\/[^/]+\/photo\.jpg$/) } });
    expect(done!.body.message.info).toMatchObject({ dpi: 300 });
    const served = await fetch(t.url + done!.body.message.accessUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toMatch(/filename\*=UTF-8''photo\.jpg/);
    expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('reports the size after EXIF orientation', async () => {
    const { done } = await uploadFile(t, demo, corpusFile('orientation/Landscape_6.jpg'), 'Landscape_6.jpg');
    expect(done!.body.message.info).toMatchObject({ width: 1800, height: 1200, dpi: 72 });
  });

  it('answers a camera JPEG\'s resolution from EXIF when its JFIF says 72 dpi (issue #17, item 3)', async () => {
    // Real camera files (test/fixtures/camera): JFIF 72 dpi beside EXIF 300 and 180 dpi, both in inches.
    const nikon = await uploadFile(t, demo, fixtureFile('camera/nikon-e950.jpg'), 'nikon-e950.jpg');
    expect(nikon.done!.body.message.info).toMatchObject({ width: 800, height: 600, dpi: 300, dpiStated: true });
    const canon = await uploadFile(t, demo, fixtureFile('camera/Canon_PowerShot_S40.jpg'), 'Canon_PowerShot_S40.jpg');
    expect(canon.done!.body.message.info).toMatchObject({ width: 480, height: 360, dpi: 180, dpiStated: true });
  });

  it('assembles chunks sent out of order, in parallel and more than once, exactly once and byte-identical', async () => {
    const n = chunksOf(big).length;
    expect(n).toBeGreaterThanOrEqual(3);
    const order = [...Array.from({ length: n }, (_, i) => n - i), 2, 1, 2];
    const { answers, done, folderId } = await uploadFile(t, demo, big, 'Album/noise.png', { order, parallel: true });
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(done?.body.message).toMatchObject({ status: 300, info: { width: 1600, height: 1200, dpi: 300 } });
    const again = await uploadFile(t, demo, big, 'Album/noise.png', { folderId, order: [1] });
    expect(again.last.body.message.status).toBe(300);
    const served = Buffer.from(await (await fetch(t.url + done!.body.message.accessUrl!)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(big));
  });

  it('makes one upload row per file, each chunk counted once, and takes one row number per file, not per chunk', async () => {
    const n = chunksOf(big).length;
    const folderId = randomUUID();
    const first = await uploadFile(t, demo, big, 'Rows/a.png', { folderId });
    const second = await uploadFile(t, demo, big, 'Rows/b.png', { folderId });
    expect([first.last.body.message.status, second.last.body.message.status]).toEqual([300, 300]);
    expect(first.answers.slice(0, -1).every((a) => a.body.message.status === 200)).toBe(true);
    const rows = await t.db.db.select({ id: uploads.id, filePath: uploads.filePath, status: uploads.status }).from(uploads)
      .where(eq(uploads.folderId, folderId)).orderBy(uploads.id);
    expect(rows.map((r) => [r.filePath, r.status])).toEqual([['Rows/a.png', 'done'], ['Rows/b.png', 'done']]);
    // Row numbers are int4: a number taken by every chunk of a shop's uploads would run out within years.
    expect(n).toBeGreaterThanOrEqual(3);
    expect(rows[1]!.id - rows[0]!.id).toBe(1);
  });

  it('replaces a stored file when another file comes under its path', async () => {
    const first = corpusFile('images/pillow_rgb_jfif300.jpg');
    const second = corpusFile('orientation/Landscape_6.jpg');
    const one = await uploadFile(t, demo, first, 'Again/x.jpg');
    const two = await uploadFile(t, demo, second, 'Again/x.jpg', { folderId: one.folderId });
    expect(two.done?.body.message).toMatchObject({ status: 300, filePath: one.done!.body.message.filePath, info: { width: 1800, height: 1200 } });
    const served = Buffer.from(await (await fetch(t.url + two.done!.body.message.accessUrl!)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(second));
  });

  it('measures the bytes a file ends with when its first chunk came again with other bytes', async () => {
    const noise = (width: number, height: number, density: number) => sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 100 }).withMetadata({ density }).toBuffer();
    const first = await noise(1500, 1100, 300);
    const small = await noise(900, 600, 150);
    expect(first.length).toBeGreaterThan(CHUNK_BYTES);
    // Another picture of the same length (zeros after its end): the same upload as far as the fields go.
    const last = Buffer.concat([small, Buffer.alloc(first.length - small.length)]);
    const folderId = randomUUID();
    const send = (bytes: Buffer, index: number) => sendChunk(t, demo, { bytes: chunksOf(bytes)[index - 1]!, filePath: 'again/p.jpg', folderId, identifier: 'again-p', index, total: 2, size: first.length });
    expect((await send(first, 1)).body.message.status).toBe(200);
    expect((await send(last, 1)).body.message.status).toBe(200);
    const done = await send(last, 2);
    expect(done.body.message).toMatchObject({ status: 300, info: { width: 900, height: 600, dpi: 150 } });
    const served = Buffer.from(await (await fetch(t.url + done.body.message.accessUrl!)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(last));
  });

  it('places each chunk by the client\'s chunk size: simple-uploader.js with forceChunkSize off sends a last chunk of up to twice that', async () => {
    const size = 1_048_576;
    const total = Math.floor(big.length / size);
    const folderId = randomUUID();
    const piece = (i: number) => big.subarray((i - 1) * size, i === total ? big.length : i * size);
    expect(piece(total).length).toBeGreaterThan(size);
    // The long last chunk first, the rest in parallel.
    const first = await sendChunk(t, demo, { bytes: piece(total), filePath: 'su/big.png', folderId, identifier: 'su-big', index: total, total, size: big.length, names: 'simple-uploader', extra: { chunkSize: String(size) } });
    expect(first.body.message.status).toBe(200);
    const rest = await Promise.all(Array.from({ length: total - 1 }, (_, i) => sendChunk(t, demo, {
      bytes: piece(i + 1), filePath: 'su/big.png', folderId, identifier: 'su-big', index: i + 1, total, size: big.length, names: 'simple-uploader', extra: { chunkSize: String(size) },
    })));
    const done = rest.find((a) => a.body.message.status === 300);
    expect(done?.body.message).toMatchObject({ info: { width: 1600, height: 1200, dpi: 300 } });
    const served = Buffer.from(await (await fetch(t.url + done!.body.message.accessUrl!)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(big));
  });

  it('refuses a chunk whose length does not fit its place, touching nothing, and completes once it comes right', async () => {
    const chunks = chunksOf(big);
    const folderId = randomUUID();
    const send = (i: number, bytes = chunks[i - 1]!) =>
      sendChunk(t, demo, { bytes, filePath: 'cut.png', folderId, identifier: 'cut', index: i, total: chunks.length, size: big.length });
    expect((await send(2)).body.message.status).toBe(200);
    const short = await send(2, chunks[1]!.subarray(0, 1000));
    expect(short.status).toBe(400);
    expect(short.body.message.error).toMatch(/分片大小不符.*第2个分片收到1000字节，应为2048000字节/);
    const long = await send(chunks.length, Buffer.concat([chunks[chunks.length - 1]!, Buffer.from('junk')]));
    expect(long.status).toBe(400);
    expect(long.body.message.error).toMatch(/文件大小不符/);
    let last;
    for (let i = 1; i <= chunks.length; i++) if (i !== 2) last = await send(i);
    expect(last!.body.message.status).toBe(300);
    const served = Buffer.from(await (await fetch(t.url + last!.body.message.accessUrl!)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(big));
  });

  it('refuses a file whose chunks were cut to two sizes, and stores nothing', async () => {
    const chunks = chunksOf(big);
    expect(chunks.length).toBe(3);
    const folderId = randomUUID();
    const send = (i: number, bytes: Buffer, extra?: Record<string, string>) =>
      sendChunk(t, demo, { bytes, filePath: 'mixed.png', folderId, identifier: 'mixed', index: i, total: 3, size: big.length, extra });
    expect((await send(1, chunks[0]!)).status).toBe(200);
    expect((await send(2, chunks[1]!)).status).toBe(200);
    // A last chunk placed by another chunk size: it starts at 4,000,000 instead of 4,096,000.
    const r = await send(3, big.subarray(4_000_000), { chunkSize: '2000000' });
    expect(r.status).toBe(400);
    expect(r.body.message.error).toMatch(/分片大小不一致/);
    expect((await t.call('GET', `/api/files/raw/1/upload/${folderId}/mixed.png`, { token: demo })).status).toBe(404);
    // The refusal holds for the file's later chunks too.
    const again = await send(3, chunks[2]!);
    expect(again.status).toBe(400);
    expect(again.body.message.error).toMatch(/分片大小不一致/);
  });

  it('refuses the later chunks of a file refused for its content', async () => {
    const chunks = chunksOf(big);
    const folderId = randomUUID();
    const send = (i: number, bytes: Buffer) =>
      sendChunk(t, demo, { bytes, filePath: 'fake.png', folderId, identifier: 'fake', index: i, total: chunks.length, size: big.length });
    expect((await send(2, chunks[1]!)).status).toBe(200);
    const first = await send(1, Buffer.alloc(chunks[0]!.length, 0x41));
    expect(first.status).toBe(400);
    expect(first.body.message.error).toMatch(/文件内容与扩展名不符/);
    const third = await send(3, chunks[2]!);
    expect(third.status).toBe(400);
    expect(third.body.message.error).toMatch(/文件内容与扩展名不符/);
    expect((await t.call('GET', `/api/files/raw/1/upload/${folderId}/fake.png`, { token: demo })).status).toBe(404);
  });

  it.runIf(kind === 'postgres')('takes the chunks of one file on two servers sharing the database and DATA_DIR, and assembles it once', async () => {
    const other = await startApp(kind, { MAX_CHUNK_BYTES: '2100000' }, t.keep);
    try {
      const otherToken = await other.login('demo', 'demo');
      const chunks = chunksOf(big);
      const folderId = randomUUID();
      // Every chunk to both servers at once: each chunk arrives twice, in parallel, on two servers.
      const answers = await Promise.all(chunks.flatMap((bytes, i) => [[t, demo], [other, otherToken]].map(([app, token]) =>
        sendChunk(app as TestApp, token as string, { bytes, filePath: 'two/servers.png', folderId, identifier: 'two', index: i + 1, total: chunks.length, size: big.length }))));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const done = answers.filter((a) => a.body.message.status === 300);
      expect(done.length).toBeGreaterThanOrEqual(1);
      for (const app of [t, other]) {
        const served = Buffer.from(await (await fetch(app.url + done[0]!.body.message.accessUrl!)).arrayBuffer());
        expect(sha256(served)).toBe(sha256(big));
      }
      const rows = await t.db.db.select().from(uploads).where(and(eq(uploads.folderId, folderId), eq(uploads.filePath, 'two/servers.png')));
      expect(rows.map((r) => [r.status, r.receivedCount])).toEqual([['done', chunks.length]]);
    } finally {
      await other.stop();
    }
  });

  it('keeps two same-size files of one folder apart when simple-uploader.js gives them one identifier (#19.4)', async () => {
    // simple-uploader.js's default identifier is the size and the path without its non-ASCII: "<size>-jpg" for both.
    const jpeg = corpusFile('images/pillow_rgb_jfif300.jpg');
    const cover = withComment(jpeg, '封面');
    const inner = withComment(jpeg, '内页');
    expect(cover.length).toBe(inner.length);
    const folderId = randomUUID();
    const identifier = `${cover.length}-jpg`;
    for (const [bytes, filePath] of [[cover, '作品甲/封面.jpg'], [inner, '作品甲/内页.jpg']] as const) {
      const r = await sendChunk(t, demo, { bytes, filePath, folderId, identifier, index: 1, total: 1, size: bytes.length, names: 'simple-uploader' });
      expect(r.body).toMatchObject({ state: 200, message: { status: 300, filePath: `upload/${folderId}/${filePath}` } });
      const served = await t.call('GET', `/api/files/raw/1/upload/${folderId}/${encodeURI(filePath)}`, { token: demo });
      expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(sha256(bytes));
    }
  });

  it('answers simple-uploader.js\'s testChunks GET: 204 for a chunk not stored, 200 for one stored (#19.4)', async () => {
    const chunks = chunksOf(big);
    const folderId = randomUUID();
    const fields = (i: number) => ({
      chunkNumber: String(i), chunkSize: String(2048000), currentChunkSize: String(chunks[i - 1]!.length), totalSize: String(big.length),
      identifier: `${big.length}-testpng`, filename: 'test.png', relativePath: 'test/test.png', totalChunks: String(chunks.length), folderId,
    });
    const test = (i: number) => t.call('GET', `/api/files/updateFile?${new URLSearchParams(fields(i))}`, { token: demo });
    expect((await test(1)).status).toBe(204);
    const sent = await sendChunk(t, demo, { bytes: chunks[0]!, filePath: 'test/test.png', folderId, identifier: `${big.length}-testpng`, index: 1, total: chunks.length, size: big.length, names: 'simple-uploader', extra: { chunkSize: '2048000' } });
    expect(sent.body.message.status).toBe(200);
    expect((await test(1)).status).toBe(200);
    expect((await test(2)).status).toBe(204);
    for (let i = 2; i <= chunks.length; i++) {
      await sendChunk(t, demo, { bytes: chunks[i - 1]!, filePath: 'test/test.png', folderId, identifier: 'any label', index: i, total: chunks.length, size: big.length, names: 'simple-uploader', extra: { chunkSize: '2048000' } });
    }
    for (let i = 1; i <= chunks.length; i++) expect((await test(i)).status).toBe(200);
    // A bad test is refused as a bad chunk would be, in Chinese.
    const bad = await t.call('GET', `/api/files/updateFile?${new URLSearchParams({ ...fields(1), relativePath: 'x.gif', filename: 'x.gif' })}`, { token: demo });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: { error: string } }).message.error).toBe('只能上传.zip,.pdf,.png,.jpg');
  });

  it('refuses a tiny chunk size in Chinese, but not a file that is one short chunk (#19.8)', async () => {
    const bytes = corpusFile('images/pillow_hopper_phys96.png');
    const tiny = await sendChunk(t, demo, { bytes: bytes.subarray(0, 1024), filePath: 'tiny.png', folderId: randomUUID(), identifier: 'tiny', index: 1, total: Math.ceil(bytes.length / 1024), size: bytes.length, names: 'simple-uploader', extra: { chunkSize: '1024' } });
    expect(tiny.status).toBe(400);
    expect(tiny.body).toEqual({ state: 400, message: { status: 400, error: '分片过小，每个分片至少需要262144字节（最后一个分片除外）' } });
    const whole = await sendChunk(t, demo, { bytes, filePath: 'whole.png', folderId: randomUUID(), identifier: 'whole', index: 1, total: 1, size: bytes.length, names: 'simple-uploader', extra: { chunkSize: '1024' } });
    expect(whole.body.message.status).toBe(300);
  });

  it('accepts the simple-uploader.js field names', async () => {
    const bytes = corpusFile('pdf/qpdf_boxes.pdf');
    const r = await sendChunk(t, demo, { bytes, filePath: 'boxes.pdf', folderId: randomUUID(), identifier: 'su-1', index: 1, total: 1, size: bytes.length, names: 'simple-uploader' });
    expect(r.body.message).toMatchObject({ status: 300, info: { pages: 8, width: expect.any(Number), height: expect.any(Number) } });
  });

  it.each([
    ['a.gif', 'GIF89a', '只能上传.zip,.pdf,.png,.jpg'],
    ['notes.txt', 'hello', '只能上传.zip,.pdf,.png,.jpg'],
    [`${'很长的文件夹名'.repeat(37)}/a.jpg`, 'x', '文件路径过长，系统无法识别'],
  ])('refuses %s with the spec\'s message', async (filePath, content, message) => {
    const bytes = Buffer.from(content);
    const r = await sendChunk(t, demo, { bytes, filePath, folderId: randomUUID(), identifier: 'x', index: 1, total: 1, size: bytes.length });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ state: 400, message: { status: 400, error: message } });
  });

  it.each([
    ['damaged/text_disguised_as.jpg', 'x.jpg', /文件内容与扩展名不符/],
    // A PDF is printable: the customer is told what name it needs (it said only 只能上传.zip,.pdf,.png,.jpg).
    ['damaged/pdf_disguised_as.jpg', 'y.jpg', /^文件内容与扩展名不符：内容是PDF，请把扩展名改为\.pdf后重新上传$/],
    ['images/pillow_rgb_jfif300.jpg', 'z.png', /文件内容与扩展名不符：内容是JPEG图片，请把扩展名改为\.jpg后重新上传/],
    ['damaged/imagesize_invalid_sample.png', 'bad.png', /文件内容与扩展名不符|文件破损/],
  ])('refuses %s stored as %s and stores nothing', async (src, filePath, message) => {
    const bytes = corpusFile(src);
    const folderId = randomUUID();
    const r = await sendChunk(t, demo, { bytes, filePath, folderId, identifier: 'd', index: 1, total: 1, size: bytes.length });
    expect(r.status).toBe(400);
    expect(r.body.message.error).toMatch(message);
    const list = await t.call('GET', `/api/sales_order/getPreviewImg?filePath=${encodeURIComponent(`upload/${folderId}/${filePath}`)}`, { token: demo });
    expect(list.status).toBe(404);
  });

  it('lists the previews of a work or a file, not of a whole batch or of the hub (a probe listed 307 files of every batch)', async () => {
    const bytes = corpusFile('images/pillow_rgb_jfif300.jpg');
    const folderId = randomUUID();
    expect((await sendChunk(t, demo, { bytes, filePath: '列表/a.jpg', folderId, identifier: 'l', index: 1, total: 1, size: bytes.length })).status).toBe(200);
    const list = (p: string) => t.call('GET', `/api/sales_order/getPreviewImg?filePath=${encodeURIComponent(p)}`, { token: demo });
    expect((await list(`upload/${folderId}/列表`)).status).toBe(200);
    for (const p of ['upload', 'unzip', 'fixes', `upload/${folderId}`]) {
      const r = await list(p);
      expect(r.status, p).toBe(400);
      expect(((await r.json()) as { message: string }).message, p).toBe('文件路径不合法');
    }
  });

  it('refuses a valid 900-megapixel PNG by its pixels and the limit, not as damaged (issue #19, item 6)', async () => {
    const bytes = await flatGreyPng(30_000, 30_000);
    const folderId = randomUUID();
    const r = await sendChunk(t, demo, { bytes, filePath: '巨幅.png', folderId, identifier: 'huge', index: 1, total: 1, size: bytes.length });
    expect(r.status).toBe(400);
    expect(r.body.message.error).toBe('图片像素过多（30000×30000，共9.00亿像素），超过上限2.68亿像素，请缩小后重新上传：巨幅.png');
  });

  it('refuses a chunk over the limit with 413, a size that does not add up, and a bad index', async () => {
    const huge = Buffer.alloc(2_200_000, 1);
    const r = await sendChunk(t, demo, { bytes: huge, filePath: 'huge.png', folderId: randomUUID(), identifier: 'h', index: 1, total: 1, size: huge.length });
    expect(r.status).toBe(413);
    expect(r.body.message.error).toMatch(/分片过大/);
    const png = corpusFile('images/pillow_hopper_phys96.png');
    const wrong = await sendChunk(t, demo, { bytes: png, filePath: 'w.png', folderId: randomUUID(), identifier: 'w', index: 1, total: 1, size: png.length + 5 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message.error).toMatch(/文件大小不符/);
    const empty = await sendChunk(t, demo, { bytes: Buffer.alloc(0), filePath: 'empty.png', folderId: randomUUID(), identifier: 'e', index: 1, total: 1, size: 0 });
    expect(empty.status).toBe(400);
    expect(empty.body.message.error).toBe('文件为空，无法上传：empty.png');
    const badIndex = await sendChunk(t, demo, { bytes: png, filePath: 'i.png', folderId: randomUUID(), identifier: 'i', index: 3, total: 2, size: png.length });
    expect(badIndex.status).toBe(400);
    const notMultipart = await t.call('POST', '/api/files/updateFile', { token: demo, body: { a: 1 } });
    expect(notMultipart.status).toBe(400);
    expect(((await notMultipart.json()) as { message: { error: string } }).message.error).toMatch(/multipart/);
  });

  it('serves a file only to its hub without a signature, and never outside the hub root', async () => {
    const { done } = await uploadFile(t, demo, corpusFile('images/pillow_hopper_phys96.png'), 'hopper.png');
    const raw = done!.body.message.accessUrl!.split('?')[0]!;
    expect((await fetch(t.url + raw)).status).toBe(403);
    expect((await t.call('GET', raw, { token: demo })).status).toBe(200);
    expect((await t.call('GET', raw, { token: partial })).status).toBe(403);
    const asHub2 = raw.replace('/raw/1/', '/raw/2/');
    expect((await t.call('GET', asHub2, { token: partial })).status).toBe(404);
    for (const evil of ['/api/files/raw/1/..%2f..%2fjwt-secret', '/api/files/raw/1/%2e%2e/%2e%2e/jwt-secret', '/api/files/raw/1/upload/..%5c..%5cx']) {
      const res = await t.call('GET', evil, { token: demo });
      expect([400, 404]).toContain(res.status);
    }
  });

  it('completes an upload after a server restart between chunks', async () => {
    const chunks = chunksOf(big);
    const folderId = randomUUID();
    const send = (app: TestApp, token: string, i: number) =>
      sendChunk(app, token, { bytes: chunks[i - 1]!, filePath: 'restart.png', folderId, identifier: 'r', index: i, total: chunks.length, size: big.length });
    expect((await send(t, demo, 1)).body.message.status).toBe(200);
    expect((await send(t, demo, 2)).body.message.status).toBe(200);
    await t.stop();
    t = await startApp(kind, { MAX_CHUNK_BYTES: '2100000' }, t.keep);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    let last;
    for (let i = 3; i <= chunks.length; i++) last = await send(t, demo, i);
    expect(last!.body.message.status).toBe(300);
    const served = Buffer.from(await (await fetch(t.url + last!.body.message.accessUrl!)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(big));
  });

  it('a chunk record the database lost (it commits without waiting for the disk) is sent again from storedChunks, and the file completes whole', async () => {
    // On PostgreSQL a chunk's record commits with synchronous_commit off, on connections of its own; everything else waits.
    if (kind === 'postgres') {
      const setting = async (db: typeof t.db.db) => ((await db.execute(sql`show synchronous_commit`)) as unknown as { rows: Array<{ synchronous_commit: string }> }).rows[0]?.synchronous_commit;
      expect(await setting(t.db.asyncCommitDb)).toBe('off');
      expect(await setting(t.db.db)).toBe('on');
    }
    const chunks = chunksOf(big);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    const folderId = randomUUID();
    const send = (i: number) => sendChunk(t, demo, { bytes: chunks[i - 1]!, filePath: 'lost.png', folderId, identifier: 'l', index: i, total: chunks.length, size: big.length });
    for (let i = 1; i < chunks.length; i++) expect((await send(i)).body.message.status).toBe(200);
    // The database restarts and the record of chunk 1 is gone (its commit had not reached the disk).
    const [row] = await t.db.db.select({ id: uploads.id }).from(uploads).where(and(eq(uploads.folderId, folderId), eq(uploads.filePath, 'lost.png')));
    await t.db.db.delete(uploadChunks).where(and(eq(uploadChunks.uploadId, row!.id), eq(uploadChunks.chunk, 1)));
    await t.db.db.update(uploads).set({ receivedCount: chunks.length - 2 }).where(eq(uploads.id, row!.id));
    // The last chunk is answered 200, not 300: the file is not whole.
    expect((await send(chunks.length)).body.message.status).toBe(200);
    const ask = { uploads: [{ folderId, filePath: 'lost.png', size: big.length, chunkTotal: chunks.length }] };
    const held = (await (await t.call('POST', '/api/files/storedChunks', { token: demo, body: ask })).json()) as { uploads: Array<{ status: string; chunks: number[] }> };
    expect(held.uploads[0]).toEqual({ status: 'receiving', chunks: Array.from({ length: chunks.length - 1 }, (_, i) => i + 2) });
    const last = await send(1);
    expect(last.body.message.status).toBe(300);
    const served = Buffer.from(await (await fetch(t.url + last.body.message.accessUrl!)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(big));
  });

  it('two different files sent to one path at once: never a 500, and the path ends with one of them whole (a probe got 500s)', async () => {
    const a = corpusFile('images/pillow_rgb_jfif300.jpg');
    const b = corpusFile('orientation/Landscape_6.jpg');
    const statuses = new Set<number>();
    for (let round = 0; round < 30; round++) {
      const folderId = randomUUID();
      const send = (bytes: Buffer, i: number) => sendChunk(t, demo, { bytes, filePath: 'race/same.jpg', folderId, identifier: sha256(bytes).slice(0, 16), index: 1, total: 1, size: bytes.length })
        .then((r) => ({ ...r, i }));
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => send(i % 2 ? b : a, i)));
      for (const r of answers) statuses.add(r.status);
      expect(answers.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
      const stored = Buffer.from(await (await t.call('GET', `/api/files/raw/1/upload/${folderId}/race/same.jpg`, { token: demo })).arrayBuffer());
      expect([sha256(a), sha256(b)]).toContain(sha256(stored));
    }
    expect([...statuses].filter((s) => s !== 200 && s !== 400)).toEqual([]);
  });

  it('a file whose received bytes went missing before its last chunk is refused with a message, its records forgotten, and completes when sent again', async () => {
    const chunks = chunksOf(big);
    const folderId = randomUUID();
    const send = (i: number) => sendChunk(t, demo, { bytes: chunks[i - 1]!, filePath: 'gone.png', folderId, identifier: 'g', index: i, total: chunks.length, size: big.length });
    for (let i = 1; i < chunks.length; i++) expect((await send(i)).body.message.status).toBe(200);
    // The part file's folder goes (another process tidied it, a disk was swapped): the rows claim bytes no disk holds.
    await rm(path.join(t.keep.dataDir, 'files', '.chunks', '1'), { recursive: true, force: true });
    const last = await send(chunks.length);
    expect(last.status).toBe(409);
    expect(last.body.message.error).toBe(MSG.uploadBytesLost);
    const ask = { uploads: [{ folderId, filePath: 'gone.png', size: big.length, chunkTotal: chunks.length }] };
    const held = (await (await t.call('POST', '/api/files/storedChunks', { token: demo, body: ask })).json()) as { uploads: Array<{ status: string; chunks: number[] }> };
    expect(held.uploads[0]).toEqual({ status: 'receiving', chunks: [] });
    const again = await uploadFile(t, demo, big, 'gone.png', { folderId });
    expect(again.done?.body.message.status).toBe(300);
    const served = Buffer.from(await (await fetch(t.url + again.done!.body.message.accessUrl!)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(big));
  });

  it('removes abandoned partial uploads after the configured age', async () => {
    const chunks = chunksOf(big);
    await sendChunk(t, demo, { bytes: chunks[0]!, filePath: 'abandoned.png', folderId: randomUUID(), identifier: 'ab', index: 1, total: chunks.length, size: big.length });
    const removed = await t.app.services.uploads.sweepAbandoned(Date.now() + 49 * 3600_000);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await t.app.services.uploads.sweepAbandoned(Date.now() + 49 * 3600_000)).toBe(0);
  });
});
