import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { corpusFile } from '../helpers/corpus.ts';
import { pollTask, uploadFile } from '../helpers/upload.ts';
import { makeBomb, makeZip } from '../helpers/zips.ts';

const jpeg = (w = 300, h = 200, dpi = 300) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#88aacc' } }).jpeg().withMetadata({ density: dpi }).toBuffer();

type WorkAnswer = { uuid: string; articleName: string; filePath: string; files: Array<{ fileName: string; component: string | null; pages: number }>; pageCount: number; state: string; quantity: number };
type ParseBody = { state: number; message: { works?: WorkAnswer[]; unsupported?: Array<{ fileName: string; reason: string }>; taskId?: string }; };

describe.each(DB_KINDS)('parse on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;
  let img: Buffer;

  const parse = async (filePath: string, token = demo) => {
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(filePath)}&customerHubId=${token === demo ? 1 : 2}`, { token });
    return { status: res.status, body: (await res.json()) as ParseBody };
  };
  /** Uploads files under one folderId, as one pick of the web page does. */
  const uploadAll = async (files: Array<[string, Buffer]>) => {
    const folderId = randomUUID();
    for (const [p, b] of files) {
      const r = await uploadFile(t, demo, b, p, { folderId });
      expect(r.done, `upload of ${p}: ${JSON.stringify(r.last.body)}`).toBeDefined();
    }
    return folderId;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    img = await jpeg();
  });
  afterAll(async () => t?.close());

  it('makes one work of a top-level image and of a top-level PDF, with its pages', async () => {
    const f = await uploadAll([['婚纱照.jpg', img], ['画册.pdf', corpusFile('pdf/qpdf_page-labels-and-outlines_30p.pdf')]]);
    const a = await parse(`upload/${f}/婚纱照.jpg`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ state: 200, message: { works: [{ articleName: '婚纱照', quantity: 1, state: 'unmatch', pageCount: 1 }] } });
    const b = await parse(`upload/${f}/画册.pdf`);
    expect(b.body.message.works![0]).toMatchObject({ articleName: '画册', pageCount: 30, files: [{ fileName: '画册.pdf', pages: 30 }] });
  });

  it('makes one work of a folder in natural order, with component subfolders, reporting unsupported files and skipping system files', async () => {
    const f = await uploadAll([
      ['Book1/内页/p10.jpg', img], ['Book1/内页/p2.jpg', img], ['Book1/内页/p1.jpg', img], ['Book1/封面/cover.jpg', img],
    ]);
    // Files the page never uploads (it filters them) can still be on disk from other clients: put them there.
    await t.app.services.store.write(1, `upload/${f}/Book1/.DS_Store`, Buffer.from('x'));
    await t.app.services.store.write(1, `upload/${f}/Book1/说明.docx`, Buffer.from('x'));
    const r = await parse(`upload/${f}/Book1`);
    expect(r.status).toBe(200);
    const w = r.body.message.works![0]!;
    expect(w.articleName).toBe('Book1');
    expect(w.files.map((x) => [x.fileName, x.component])).toEqual([['cover.jpg', '封面'], ['p1.jpg', '内页'], ['p2.jpg', '内页'], ['p10.jpg', '内页']]);
    expect(w.pageCount).toBe(4);
    expect(r.body.message.unsupported).toEqual([expect.objectContaining({ fileName: '说明.docx' })]);
  });

  it('parses a folder of more than 50 files as a long task that reports progress and finishes', async () => {
    const files: Array<[string, Buffer]> = Array.from({ length: 60 }, (_, i) => [`相册/${i + 1}.jpg`, img]);
    const f = await uploadAll(files);
    const r = await parse(`upload/${f}/相册`);
    expect(r.body.state).toBe(100);
    const done = await pollTask(t, demo, r.body.message.taskId!);
    expect(done.message.status).toBe('finished');
    expect(done.message.progress.done).toBe(done.message.progress.total);
    const w = done.message.jsonContent!.works[0] as unknown as WorkAnswer;
    expect(w.files.map((x) => x.fileName).slice(0, 3)).toEqual(['1.jpg', '2.jpg', '3.jpg']);
    expect(w.pageCount).toBe(60);
    expect((await t.call('GET', `/api/long-time-tasks/${r.body.message.taskId}`, { token: partial })).status).toBe(404);
  });

  it('parses a zip with several folders into one work per folder, as a task', async () => {
    const zip = await makeZip([['A/1.jpg', img], ['A/2.jpg', img], ['B/1.jpg', img], ['__MACOSX/A/._1.jpg', Buffer.from('x')], ['readme.txt', Buffer.from('hi')]]);
    const f = await uploadAll([['batch.zip', zip]]);
    const r = await parse(`upload/${f}/batch.zip`);
    expect(r.body.state).toBe(100);
    const done = await pollTask(t, demo, r.body.message.taskId!);
    expect(done.message.status).toBe('finished');
    const works = done.message.jsonContent!.works as unknown as WorkAnswer[];
    expect(works.map((w) => [w.articleName, w.files.length])).toEqual([['A', 2], ['B', 1]]);
    expect(done.message.jsonContent!.unsupported.map((u) => u.fileName)).toEqual(['readme.txt']);
  });

  describe('parseItems: many items in one call (a drop of hundreds of folders)', () => {
    type ItemResult = { filePath: string; answer?: ParseBody; error?: { status: number; code: string; message: string } };
    const parseItems = async (filePaths: unknown, token = demo, hub = 1) => {
      const res = await t.call('POST', '/api/sales_order/parseItems', { token, body: { customerHubId: hub, filePaths } });
      return { status: res.status, body: (await res.json()) as { state: number; message: { results: ItemResult[] } & Record<string, unknown> } };
    };

    it('answers each item as parseOrderInfo4BatchUp does, in the order asked: works, a long task, or why not', async () => {
      const zip = await makeZip([['A/1.jpg', img], ['B/1.jpg', img]]);
      const f = await uploadAll([['相册一/1.jpg', img], ['相册一/2.jpg', img], ['单张.jpg', img], ['两本.zip', zip]]);
      // A file the page never uploads can still be on disk from another client.
      await t.app.services.store.write(1, `upload/${f}/说明.txt`, Buffer.from('x'));
      const missing = `upload/${f}/不存在的文件夹`;
      const r = await parseItems([`upload/${f}/相册一`, `upload/${f}/单张.jpg`, `upload/${f}/两本.zip`, missing, '../etc/passwd', `upload/${f}/说明.txt`]);
      expect(r.status).toBe(200);
      const [folder, single, zipped, gone, outside, text] = r.body.message.results;
      expect(folder).toMatchObject({ filePath: `upload/${f}/相册一`, answer: { state: 200, message: { works: [{ articleName: '相册一', pageCount: 2 }] } } });
      expect(single).toMatchObject({ answer: { state: 200, message: { works: [{ articleName: '单张', pageCount: 1 }] } } });
      expect(zipped!.answer!.state).toBe(100);
      const done = await pollTask(t, demo, zipped!.answer!.message.taskId!);
      expect(done.message.jsonContent!.works.map((w) => w.articleName)).toEqual(['A', 'B']);
      expect(gone).toEqual({ filePath: missing, error: { status: 404, code: 'not-found', message: '文件不存在，请重新上传' } });
      expect(outside).toMatchObject({ error: { status: 400, message: '文件路径不合法' } });
      expect(text).toMatchObject({ error: { status: 400, message: '只能上传.zip,.pdf,.png,.jpg' } });
      // The works are stored as parseOrderInfo4BatchUp stores them: a check finds the folder's.
      const work = folder!.answer!.message.works![0]!;
      const sku = await findSku(t, demo, 'PH-5');
      const check = await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, customerHubId: 1, filePath: work.filePath, workUuid: work.uuid } });
      expect(check.status).toBe(200);
      expect(((await check.json()) as { message: { workUuid?: string } }).message.workUuid).toBe(work.uuid);
    });

    it('finds nothing of another hub: its paths answer 404, its hub id 403', async () => {
      const f = await uploadAll([['别人的/1.jpg', img]]);
      expect((await parseItems([`upload/${f}/别人的`], partial, 2)).status).toBe(404);
      expect((await parseItems([`upload/${f}/别人的`], partial, 1)).status).toBe(403);
      // Mixed with one of its own, the other hub's item is missing for it.
      const own = await (async () => {
        const folderId = randomUUID();
        expect((await uploadFile(t, partial, img, '我的/1.jpg', { folderId })).done).toBeDefined();
        return `upload/${folderId}/我的`;
      })();
      const mixed = await parseItems([own, `upload/${f}/别人的`], partial, 2);
      expect(mixed.status).toBe(200);
      expect(mixed.body.message.results.map((x) => x.error?.status ?? x.answer?.state)).toEqual([200, 404]);
    });

    it('refuses a call naming an item twice, none, more than 50, or not a list, with a Chinese message', async () => {
      const f = await uploadAll([['重复/1.jpg', img]]);
      const twice = await parseItems([`upload/${f}/重复`, `upload/${f}/重复`]);
      expect(twice.status).toBe(400);
      expect(JSON.stringify(twice.body)).toContain('同一个文件或文件夹在请求中出现了多次');
      const none = await parseItems([]);
      expect(none.status).toBe(400);
      expect(JSON.stringify(none.body)).toContain('请至少提供一个文件或文件夹');
      const many = await parseItems(Array.from({ length: 51 }, (_, i) => `upload/${f}/${i}`));
      expect(many.status).toBe(400);
      expect(JSON.stringify(many.body)).toContain('一次最多解析50个文件或文件夹');
      const blank = await parseItems([' ']);
      expect(blank.status).toBe(400);
      expect(JSON.stringify(blank.body)).toContain('文件路径不能为空');
      for (const bad of ['upload/x', { a: 1 }, [1, 2], ['x'.repeat(2000)]]) expect((await parseItems(bad)).status).toBe(400);
    });
  });

  describe('zips that used to end without a word (issue #17, item 5)', () => {
    const parseZipOf = async (entries: Array<[string, Buffer]>) => {
      const f = await uploadAll([['包.zip', await makeZip(entries)]]);
      const r = await parse(`upload/${f}/包.zip`);
      expect(r.body.state).toBe(100);
      return pollTask(t, demo, r.body.message.taskId!);
    };

    it('says 压缩包中没有可打印的文件 for an empty zip, and for one with nothing printable', async () => {
      const empty = await parseZipOf([]);
      expect(empty.message).toMatchObject({ status: 'failed', error: '压缩包中没有可打印的文件' });
      const none = await parseZipOf([['说明.txt', Buffer.from('hi')]]);
      expect(none.message.status).toBe('failed');
      expect(none.message.error).toMatch(/^压缩包中没有可打印的文件（说明\.txt：不支持的文件类型/);
    });

    it('says that a zip inside the zip is not opened', async () => {
      const done = await parseZipOf([['a.jpg', img], ['里面.zip', await makeZip([['b.jpg', img]])]]);
      expect(done.message.status).toBe('finished');
      expect(done.message.jsonContent!.unsupported).toEqual([
        expect.objectContaining({ fileName: '里面.zip', reason: '压缩包内的压缩包不会被打开，请解压后上传其中的文件' }),
      ]);
    });

    it('says an empty file of the zip is empty, not that its content and extension differ', async () => {
      const done = await parseZipOf([['册/空.jpg', Buffer.alloc(0)], ['册/1.jpg', img]]);
      expect(done.message.status).toBe('finished');
      expect(done.message.jsonContent!.unsupported.map((u) => [u.fileName, u.reason])).toEqual([['空.jpg', '文件为空，无法上传']]);
      const only = await parseZipOf([['空.pdf', Buffer.alloc(0)]]);
      expect(only.message).toMatchObject({ status: 'failed', error: '压缩包中没有可打印的文件（空.pdf：文件为空，无法上传）' });
    });

    it('reports entries dropped as duplicates (the same name twice, or names that differ only by Unicode normalisation), keeping the first', async () => {
      const small = await jpeg(100, 50);
      const nfc = 'caf\u00e9.jpg';
      const nfd = 'cafe\u0301.jpg';
      const done = await parseZipOf([['册/1.jpg', img], ['册/1.jpg', small], [`册/${nfc}`, img], [`册/${nfd}`, small]]);
      expect(done.message.status).toBe('finished');
      const works = done.message.jsonContent!.works as unknown as Array<{ files: Array<{ fileName: string; width: number }> }>;
      expect(works[0]!.files.map((f) => [f.fileName, f.width])).toEqual([['1.jpg', 300], [nfc, 300]]);
      expect(done.message.jsonContent!.unsupported.map((u) => [u.fileName, u.reason])).toEqual([
        ['1.jpg', '压缩包内有同名文件，只保留了第一个'],
        [nfc, '压缩包内有同名文件（名称仅Unicode写法不同），只保留了第一个'],
      ]);
    });
  });

  it('decodes GBK names of a zip without the UTF-8 flag', async () => {
    const f = await uploadAll([['中文.zip', corpusFile('zip/admzip_chs_name_gbk.zip')]]);
    const r = await parse(`upload/${f}/中文.zip`);
    const done = await pollTask(t, demo, r.body.message.taskId!);
    // Its one entry, 中文路径.txt, is not printable: the answer names it.
    expect(done.message.status).toBe('failed');
    expect(done.message.error).toMatch(/^压缩包中没有可打印的文件（中文路径\.txt：/);
  });

  it.each([
    ['zip/unzipper_zip-slip.zip', /非法路径/],
    ['zip/unzipper_zip-slip-win.zip', /非法路径/],
  ])('refuses %s with a clear message and extracts nothing', async (src, message) => {
    const f = await uploadAll([['evil.zip', corpusFile(src)]]);
    const r = await parse(`upload/${f}/evil.zip`);
    const done = await pollTask(t, demo, r.body.message.taskId!);
    expect(done.message.status).toBe('failed');
    expect(done.message.error).toMatch(message);
  });

  it('refuses a 2 GiB zip bomb within seconds', async () => {
    const bomb = makeBomb(2 * 1024 ** 3);
    expect(bomb.length).toBeLessThan(10 * 1024 * 1024);
    const f = await uploadAll([['bomb.zip', bomb]]);
    const started = Date.now();
    const r = await parse(`upload/${f}/bomb.zip`);
    const done = await pollTask(t, demo, r.body.message.taskId!, 30_000);
    expect(done.message.status).toBe('failed');
    expect(done.message.error).toMatch(/压缩/);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 120_000);

  it('answers 404 for a missing item, 400 for a path outside uploads, and 403 for another hub', async () => {
    expect((await parse(`upload/${randomUUID()}/nothing.jpg`)).status).toBe(404);
    for (const p of ['../x', 'upload/../../jwt-secret', '/etc/passwd', 'upload\\x', 'jwt-secret']) expect((await parse(p)).status).toBe(400);
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=upload/x/y.jpg&customerHubId=2`, { token: demo });
    expect(res.status).toBe(403);
  });

  it('lists preview images of a work and serves them as JPEGs of about 1024 px, made once', async () => {
    const big = await jpeg(3000, 2000);
    const f = await uploadAll([['Prev/a.jpg', big], ['Prev/b.pdf', corpusFile('pdf/qpdf_boxes.pdf')]]);
    const res = await t.call('GET', `/api/sales_order/getPreviewImg?filePath=${encodeURIComponent(`upload/${f}/Prev`)}&t=${Date.now()}`, { token: demo });
    expect(res.status).toBe(200);
    const list = (await res.json()) as Array<{ name: string; url: string }>;
    expect(list).toHaveLength(1 + 8);
    const first = await fetch(t.url + list[0]!.url);
    expect(first.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await first.arrayBuffer())).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(1024);
    const page = await fetch(t.url + list[3]!.url);
    expect(page.status).toBe(200);
    expect((await sharp(Buffer.from(await page.arrayBuffer())).metadata()).format).toBe('jpeg');
    expect((await fetch(t.url + list[0]!.url.replace(/sig=[^&]+/, 'sig=x'))).status).toBe(403);
  });

  it('makes a new preview when a file is uploaded again under the same path', async () => {
    const f = await uploadAll([['Again/a.jpg', await jpeg(1200, 600)]]);
    const previewSize = async () => {
      const res = await t.call('GET', `/api/sales_order/getPreviewImg?filePath=${encodeURIComponent(`upload/${f}/Again/a.jpg`)}&t=${Date.now()}`, { token: demo });
      const [first] = (await res.json()) as Array<{ url: string }>;
      const meta = await sharp(Buffer.from(await (await fetch(t.url + first!.url)).arrayBuffer())).metadata();
      return [meta.width, meta.height];
    };
    expect(await previewSize()).toEqual([1024, 512]);
    const again = await uploadFile(t, demo, await jpeg(500, 1000), 'Again/a.jpg', { folderId: f });
    expect(again.done).toBeDefined();
    expect(await previewSize()).toEqual([500, 1000]);
  });

  it('deletes a stored file or a work folder of the hub only', async () => {
    const f = await uploadAll([['Del/a.jpg', img], ['Del/b.jpg', img]]);
    const other = await t.call('POST', '/api/files/deleteFile', { token: partial, body: { filePath: `upload/${f}/Del/a.jpg` } });
    expect(other.status).toBe(404);
    const one = await t.call('POST', '/api/files/deleteFile', { token: demo, body: { filePath: `upload/${f}/Del/a.jpg` } });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ state: 200 });
    const folder = await t.call('POST', '/api/files/deleteFile', { token: demo, body: { filePath: `upload/${f}/Del` } });
    expect(folder.status).toBe(200);
    expect((await parse(`upload/${f}/Del`)).status).toBe(404);
    expect((await t.call('POST', '/api/files/deleteFile', { token: demo, body: { filePath: '../../jwt-secret' } })).status).toBe(400);
    expect((await t.call('POST', '/api/files/deleteFile', { token: demo, body: { filePath: 'templates' } })).status).toBe(400);
  });
});
