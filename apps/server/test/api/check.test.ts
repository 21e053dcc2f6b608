import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { eq } from 'drizzle-orm';
import type { CheckFileAnswer } from '@portal/contract';
import { storedFiles, works } from '../../src/db/schema/index.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { corpusFile, fixtureFile } from '../helpers/corpus.ts';
import { uploadFile } from '../helpers/upload.ts';

/** A JPEG of exactly w×h mm at the dpi (pixels rounded). */
const photoMm = (w: number, h: number, dpi = 300) =>
  sharp({ create: { width: Math.round((w / 25.4) * dpi), height: Math.round((h / 25.4) * dpi), channels: 3, background: '#cc8844' } })
    .jpeg().withMetadata({ density: dpi }).toBuffer();

/** A PDF of `pages` pages of w×h mm, each saying its number. */
async function pdfMm(pages: number, w: number, h: number) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pt = (mm: number) => (mm / 25.4) * 72;
  for (let i = 1; i <= pages; i++) doc.addPage([pt(w), pt(h)]).drawText(`page ${i}`, { x: 20, y: 20, size: 12, font });
  return Buffer.from(await doc.save());
}

type Work = { uuid: string; filePath: string; files: Array<{ fileName: string; filePath: string }>; pageCount: number };

describe.each(DB_KINDS)('file check, crop and sort on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let partial: string;
  let photo5: Awaited<ReturnType<typeof findSku>>;

  /** Uploads the files of one item and parses it into its work. */
  const work = async (files: Array<[string, Buffer]>, item = files[0]![0].split('/')[0]!) => {
    const folderId = randomUUID();
    for (const [p, b] of files) {
      const r = await uploadFile(t, demo, b, p, { folderId });
      expect(r.done, JSON.stringify(r.last.body)).toBeDefined();
    }
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${item}`)}&customerHubId=1`, { token: demo });
    const body = (await res.json()) as { message: { works: Work[] } };
    return body.message.works[0]!;
  };
  const check = async (w: Work, sku: { productId: number; propertyConfigId: number }, token = demo) => {
    const res = await t.call('POST', '/api/sales_order/checkFile', {
      token, body: { ...sku, customerHubId: token === demo ? 1 : 2, filePath: w.filePath, makeWay: 'File', checkNumberOfPages: true },
    });
    return { status: res.status, body: (await res.json()) as CheckFileAnswer & { message: Record<string, unknown> } };
  };
  const stored = async (uuid: string) => (await t.db.db.select().from(works).where(eq(works.uuid, uuid)))[0]!;

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    partial = await t.login('partial', 'partial');
    photo5 = await findSku(t, demo, 'PH-5');
  });
  afterAll(async () => t?.close());

  it('passes a 5寸 photo at 300 dpi and stores the outcome with the work (match)', async () => {
    const w = await work([['海边.jpg', await photoMm(127, 89)]]);
    const { status, body } = await check(w, photo5);
    expect(status).toBe(200);
    expect(body.state).toBe(200);
    if (body.state !== 200) return;
    expect(body.message).toMatchObject({ resolutionWarning: false, pageCount: 1, addPageNum: 0 });
    expect(body.message.fileArea).toBeCloseTo(0.127 * 0.089, 4);
    expect(body.message.fileCheckResult[0]).toMatchObject({
      filename: '海边.jpg', width: 127, height: 89, resolutionDetect: 300, effectiveDpi: 300, pass: true,
      component: { componentName: '照片', width: 127, height: 89, errorType: 'mm', errorText: '±2mm' },
    });
    expect((await fetch(t.url + body.message.fileCheckResult[0]!.previewUrl)).status).toBe(200);
    expect(await stored(w.uuid)).toMatchObject({ state: 'match', checkPassed: true, productId: photo5.productId, propertyConfigId: photo5.propertyConfigId });
  });

  it('passes a portrait photo by automatic orientation', async () => {
    const w = await work([['竖.jpg', await photoMm(89, 127)]]);
    expect((await check(w, photo5)).body.state).toBe(200);
  });

  it('warns when the resolution is below the threshold (dpiAbnormal), without failing', async () => {
    const w = await work([['低清.jpg', await photoMm(127, 89, 150)]]);
    const { body } = await check(w, photo5);
    expect(body.state).toBe(200);
    expect(body.message.resolutionWarning).toBe(true);
    expect(await stored(w.uuid)).toMatchObject({ state: 'dpiAbnormal' });
  });

  it('fails a wrong size with the reason, in the spec\'s error shape, and stores abnormal', async () => {
    const w = await work([['大图.jpg', await photoMm(152, 102)]]);
    const { status, body } = await check(w, photo5);
    expect(status).toBe(200);
    expect(body.state).toBe(400);
    if (body.state !== 400) return;
    expect(body.message).toMatchObject({ fileName: '大图.jpg', status: 'error', message: { pageCountWarning: false, error: true } });
    expect(body.message.messages[0]!.message).toMatch(/^大图\.jpg：尺寸不符：实际152×102mm，标准127×89mm/);
    expect(body.message.message.fileCheckResult[0]).toMatchObject({ pass: false, effectiveDpi: expect.any(Number) });
    expect(await stored(w.uuid)).toMatchObject({ state: 'abnormal', checkPassed: false });
  });

  it('keeps with the work the verdict and the rows worth a look, not every passing row', async () => {
    const w = await work([['相册/1好.jpg', await photoMm(127, 89)], ['相册/2低清.jpg', await photoMm(127, 89, 150)], ['相册/3大图.jpg', await photoMm(152, 102)]]);
    const { body } = await check(w, photo5);
    expect(body.state).toBe(400);
    if (body.state !== 400) return;
    expect(body.message.message.fileCheckResult.map((r) => r.filename)).toEqual(['1好.jpg', '2低清.jpg', '3大图.jpg']);
    const kept = (await stored(w.uuid)).checkResult as { rowsChecked: number; state: number; message: { message: { fileCheckResult: Array<{ filename: string; previewUrl?: string }> }; messages: unknown[] } };
    expect(kept).toMatchObject({ rowsChecked: 3, state: 400, message: { messages: body.message.messages } });
    expect(kept.message.message.fileCheckResult.map((r) => r.filename)).toEqual(['2低清.jpg', '3大图.jpg']);
    expect(kept.message.message.fileCheckResult[0]?.previewUrl).toBeUndefined();
  });

  it('passes a portrait business card by automatic orientation and fails a photo that fits neither side (standard 未定义)', async () => {
    const card = await findSku(t, demo, 'BC-90', 'BC-S-C300');
    expect((await check(await work([['卡.jpg', await photoMm(54, 90)]]), card)).body.state).toBe(200);
    const wrong = await check(await work([['照片.jpg', await photoMm(127, 89)]]), card);
    expect(wrong.body.state).toBe(400);
    if (wrong.body.state === 400) expect(wrong.body.message.message.fileCheckResult[0]!.component).toBeNull();
  });

  it('checks a brochure folder by component subfolders and page limits of the SKU', async () => {
    const sku = await findSku(t, demo, 'BR-A4', 'BR-SS-C157-GL');
    const page = await photoMm(210, 285);
    const files: Array<[string, Buffer]> = [...Array.from({ length: 4 }, (_, i): [string, Buffer] => [`画册A/封面/0${i + 1}.jpg`, page]), ...Array.from({ length: 20 }, (_, i): [string, Buffer] => [`画册A/内页/${i + 1}.jpg`, page])];
    const w = await work(files);
    const ok = await check(w, sku);
    expect(ok.body.state).toBe(200);
    if (ok.body.state === 200) {
      expect(ok.body.message).toMatchObject({ pageCount: 24, addPageNum: 4 });
      expect(ok.body.message.components.map((c) => [c.componentName, c.count])).toEqual([['封面', 4], ['内页', 20]]);
    }
    const few = await check(await work([['画册B/封面/01.jpg', page], ['画册B/内页/1.jpg', page]]), sku);
    expect(few.body.state).toBe(400);
    if (few.body.state === 400) {
      expect(few.body.message.message.pageCountWarning).toBe(true);
      expect(few.body.message.messages.slice(0, 3).map((m) => m.message)).toEqual(['页数2不符合要求（8-48页）', '封面页数1不符合要求（4页）', '内页页数1不符合要求（8-100页）']);
    }
  }, 120_000);

  describe('one PDF for a product of several components (issue #17, item 2)', () => {
    type Row = { page: number | null; pass: boolean; reason: string | null; component: { componentName: string } | null };
    const pagesOf = (rows: Row[], name: string) => rows.filter((r) => r.component?.componentName === name).map((r) => r.page);

    it('gives a 20-page brochure PDF\'s pages 1-2 and 19-20 to the 4-page 封面 and 3-18 to 内页, alone or alone in a folder', async () => {
      const sku = await findSku(t, demo, 'BR-A4', 'BR-SS-C157-GL');
      const pdf = await pdfMm(20, 210, 285);
      for (const files of [[['宣传册.pdf', pdf]], [['画册C/宣传册.pdf', pdf]]] as Array<Array<[string, Buffer]>>) {
        const { body } = await check(await work(files), sku);
        expect(body.state, JSON.stringify(body.message)).toBe(200);
        if (body.state !== 200) return;
        const rows = body.message.fileCheckResult as Row[];
        expect(rows.map((r) => r.page)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        expect(pagesOf(rows, '封面')).toEqual([1, 2, 19, 20]);
        expect(pagesOf(rows, '内页')).toEqual(Array.from({ length: 16 }, (_, i) => i + 3));
        expect(body.message.components.map((c) => [c.componentName, c.count])).toEqual([['封面', 4], ['内页', 16]]);
        expect(body.message).toMatchObject({ pageCount: 20, addPageNum: 0 });
      }
    });

    it('fails a 3-page brochure PDF with a message that says why it cannot be split', async () => {
      const sku = await findSku(t, demo, 'BR-A4', 'BR-SS-C157-GL');
      const { body } = await check(await work([['三页.pdf', await pdfMm(3, 210, 285)]]), sku);
      expect(body.state).toBe(400);
      if (body.state !== 400) return;
      expect(body.message.messages.map((m) => m.message)).toContain(
        '三页.pdf：PDF共3页，不够分给各部件（封面4页（前2页和最后2页），内页至少1页，共需至少5页），请检查文件页数，或按部件分文件夹上传（文件夹名为部件名）',
      );
      const rows = body.message.message.fileCheckResult as Row[];
      expect(rows.map((r) => [r.page, r.pass])).toEqual([[1, false], [2, false], [3, false]]);
      expect(rows[0]!.reason).toMatch(/^PDF共3页，不够分给各部件/);
    });

    it('gives a double-sided card\'s 2-page PDF page 1 to 正面 and page 2 to 背面', async () => {
      const card = await findSku(t, demo, 'BC-90', 'BC-D-C300');
      const { body } = await check(await work([['名片.pdf', await pdfMm(2, 90, 54)]]), card);
      expect(body.state, JSON.stringify(body.message)).toBe(200);
      if (body.state !== 200) return;
      const rows = body.message.fileCheckResult as Row[];
      expect([pagesOf(rows, '正面'), pagesOf(rows, '背面')]).toEqual([[1], [2]]);
    });
  });

  it('measures PDF pages on the TrimBox after /Rotate, page by page', async () => {
    const flyer = await findSku(t, demo, 'FL-A4', 'FL-C157-S');
    const { body } = await check(await work([['boxes.pdf', corpusFile('pdf/qpdf_boxes.pdf')]]), flyer);
    expect(body.state).toBe(400);
    if (body.state !== 400) return;
    const rows = body.message.message.fileCheckResult;
    expect(rows).toHaveLength(8);
    expect(rows[0]).toMatchObject({ type: 'pdf', page: 1, width: 173.6, height: 215.9, resolutionDetect: null });
    expect(rows[1]).toMatchObject({ page: 2, width: 215.9, height: 173.6 });
    expect(body.message.messages.some((m) => m.message === '页数8不符合要求（1-1页）')).toBe(true);
  });

  it.each([
    ['damaged/pillow_truncated_jpeg.jpg', 't.jpg', /文件破损/],
    ['damaged/pngsuite_xcsn0g01_bad_idat_crc.png', 'c.png', /文件破损/],
    ['damaged/pillow_truncated_image.png', 'tr.png', /文件破损/],
  ])('fails the damaged %s with a clear reason, never a 500', async (src, name, reason) => {
    const { status, body } = await check(await work([[name, corpusFile(src)]]), photo5);
    expect(status).toBe(200);
    expect(body.state).toBe(400);
    if (body.state === 400) expect(body.message.message.fileCheckResult[0]!.reason).toMatch(reason);
  });

  it('fails PNGs whose IHDR or IDAT checksum is wrong with 文件破损, on the first check and the next (issue #17, item 5)', async () => {
    // A real PNG of a 5寸 photo at 300 dpi that passes whole; then the same bytes with one CRC broken.
    const whole = await sharp({ create: { width: 1500, height: 1051, channels: 3, background: '#cc8844' } })
      .png().withMetadata({ density: 300 }).toBuffer();
    const breakCrc = (type: string) => {
      const b = Buffer.from(whole);
      let pos = 8;
      while (b.toString('latin1', pos + 4, pos + 8) !== type) pos += 12 + b.readUInt32BE(pos);
      const at = pos + 8 + b.readUInt32BE(pos);
      b.writeUInt32BE(~b.readUInt32BE(at) >>> 0, at);
      return b;
    };
    const rowOf = (body: Awaited<ReturnType<typeof check>>['body']) => (body.state === 200 ? body.message.fileCheckResult[0]! : body.message.message.fileCheckResult[0]!);
    expect((await check(await work([['完好.png', whole]]), photo5)).body.state).toBe(200);
    for (const [name, bytes] of [['坏IHDR.png', breakCrc('IHDR')], ['坏IDAT.png', breakCrc('IDAT')], ['pngsuite_ihdr.png', corpusFile('damaged/pngsuite_xhdn0g08_bad_ihdr_crc.png')]] as const) {
      const w = await work([[name, bytes]]);
      for (let round = 1; round <= 2; round++) {
        const { body } = await check(w, photo5);
        expect([name, round, body.state]).toEqual([name, round, 400]);
        expect(rowOf(body)).toMatchObject({ pass: false, reason: '文件破损：图片数据校验错误' });
      }
      expect(await stored(w.uuid)).toMatchObject({ state: 'abnormal', checkPassed: false });
    }
  });

  it('says when an image states no resolution and measures it at 72 dpi', async () => {
    const { body } = await check(await work([['nodpi.jpg', corpusFile('images/pillow_app13_no_density.jpg')]]), photo5);
    const row = body.state === 200 ? body.message.fileCheckResult[0]! : body.message.message.fileCheckResult[0]!;
    expect(row).toMatchObject({ resolutionDetect: 72, dpiStated: false });
    expect(row.reason).toMatch(/文件未记录分辨率，按72dpi计算/);
  });

  it('measures camera photos at the resolution EXIF states beside JFIF 72 dpi, also those stored before the rule (issue #17, item 3)', async () => {
    // Real camera files: 800×600 px with EXIF 300 dpi and 480×360 px with EXIF 180 dpi, both 67.7×50.8 mm;
    // at JFIF's 72 dpi they measured 282.2×211.7 and 169.3×127 mm.
    const w = await work([['相机/nikon-e950.jpg', fixtureFile('camera/nikon-e950.jpg')], ['相机/Canon_PowerShot_S40.jpg', fixtureFile('camera/Canon_PowerShot_S40.jpg')]]);
    const rowsOf = (body: Awaited<ReturnType<typeof check>>['body']) => (body.state === 200 ? body.message.fileCheckResult : body.message.message.fileCheckResult);
    const rows = rowsOf((await check(w, photo5)).body);
    expect(rows.map((r) => [r.filename, r.resolutionDetect, r.width, r.height])).toEqual([
      ['Canon_PowerShot_S40.jpg', 180, 67.7, 50.8],
      ['nikon-e950.jpg', 300, 67.7, 50.8],
    ]);

    // A file stored before the rule keeps JFIF's 72 dpi in its metadata: the check reads its header
    // again once, and stores what it read.
    const nikon = w.files.find((f) => f.fileName === 'nikon-e950.jpg')!.filePath;
    await t.db.db.update(storedFiles).set({ meta: { width: 800, height: 600, dpi: 72, dpiStated: true, intact: true } }).where(eq(storedFiles.path, nikon));
    const again = rowsOf((await check(w, photo5)).body).find((r) => r.filename === 'nikon-e950.jpg')!;
    expect([again.resolutionDetect, again.width]).toEqual([300, 67.7]);
    const [row] = await t.db.db.select({ meta: storedFiles.meta }).from(storedFiles).where(eq(storedFiles.path, nikon));
    expect(row!.meta).toMatchObject({ dpi: 300, dpiStated: true, intact: true });

    // Parsing reads it again too, keeping what the check learnt.
    await t.db.db.update(storedFiles).set({ meta: { width: 800, height: 600, dpi: 72, dpiStated: true, intact: true } }).where(eq(storedFiles.path, nikon));
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(w.filePath)}&customerHubId=1`, { token: demo });
    const parsed = ((await res.json()) as { message: { works: Array<{ files: Array<{ fileName: string; dpi: number }> }> } }).message.works[0]!;
    expect(parsed.files.find((f) => f.fileName === 'nikon-e950.jpg')!.dpi).toBe(300);
    const [reread] = await t.db.db.select({ meta: storedFiles.meta }).from(storedFiles).where(eq(storedFiles.path, nikon));
    expect(reread!.meta).toMatchObject({ dpi: 300, intact: true });
  });

  it('refuses a PDF that needs a password at upload, with a clear message', async () => {
    const bytes = corpusFile('pdf/pikepdf_graph-encrypted_pw-user_owner.pdf');
    const r = await uploadFile(t, demo, bytes, 'locked.pdf');
    expect(r.last.status).toBe(400);
    expect(r.last.body.message.error).toMatch(/加密/);
  });

  it('crops a failing photo to size so it passes, keeps the density, and undoes the crop', async () => {
    const w = await work([['裁切.jpg', await photoMm(152, 102)]]);
    expect((await check(w, photo5)).body.state).toBe(400);
    const path = w.files[0]!.filePath;
    const res = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 50, y: 40, width: 750, height: 525.5, scale: 50, rotation: 0 } });
    expect(res.status).toBe(200);
    const crop = (await res.json()) as { success: boolean; data: { width: number; height: number; widthPx: number; heightPx: number; dpi: number; previewUrl: string } };
    expect(crop).toMatchObject({ success: true, data: { widthPx: 1500, heightPx: 1051, dpi: 300, width: 127, height: 89 } });
    expect((await fetch(t.url + crop.data.previewUrl)).status).toBe(200);
    expect((await check(w, photo5)).body.state).toBe(200);

    const rotated = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: 1051, height: 1500, scale: 100, rotation: 90 } });
    expect(((await rotated.json()) as { data: { widthPx: number; heightPx: number } }).data).toMatchObject({ widthPx: 1051, heightPx: 1500 });

    // The dialog's box of a 72 dpi phone photo, the whole picture trimmed to 5寸, states the density that makes it
    // 127×89 mm (it was cut at 72 dpi to a 360×252 px patch: LAN walk).
    const whole = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: 1719, height: 1205, scale: 100, rotation: 0, dpi: 344 } });
    expect(((await whole.json()) as { data: unknown }).data).toMatchObject({ widthPx: 1051, heightPx: 1205, dpi: 344 });
    expect((await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: 10, height: 10, dpi: 0 } })).status).toBe(400);

    const undo = await t.call('POST', '/api/files/undoCrop', { token: demo, body: { path } });
    expect(((await undo.json()) as { data: { width: number } }).data.width).toBe(152);
    expect((await t.call('POST', '/api/files/undoCrop', { token: demo, body: { path } })).status).toBe(400);

    // An undo killed after its original was removed, before the name was cleared (as it ran before): the next 撤销
    // says so, and the next crop keeps an original again (撤销 crashed the server, the photo was lost: crash probe).
    expect((await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: 1500, height: 1051 } })).status).toBe(200);
    await t.db.db.update(storedFiles).set({ originalPath: '.originals/gone/裁切.jpg' }).where(eq(storedFiles.path, path));
    const gone = await t.call('POST', '/api/files/undoCrop', { token: demo, body: { path } });
    expect([gone.status, ((await gone.json()) as { message: string }).message]).toEqual([400, '该文件没有可恢复的原图']);
    expect((await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: 1400, height: 981 } })).status).toBe(200);
    const back = await t.call('POST', '/api/files/undoCrop', { token: demo, body: { path } });
    expect(((await back.json()) as { data: { widthPx: number } }).data.widthPx).toBe(1500);
  });

  it('refuses crops that cannot be made, with a reason', async () => {
    const w = await work([['x.jpg', await photoMm(127, 89)]]);
    const path = w.files[0]!.filePath;
    const outside = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 5000, y: 5000, width: 10, height: 10, scale: 100, rotation: 0 } });
    expect(outside.status).toBe(400);
    expect(await outside.json()).toEqual({ success: false, message: '裁切区域不正确，请重新选择' });
    // Wholly above and left of the picture: refused too, not moved inside and cut from its corner.
    const before = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: -5000, y: -5000, width: 100, height: 100, scale: 100, rotation: 0 } });
    expect([before.status, await before.json()]).toEqual([400, { success: false, message: '裁切区域不正确，请重新选择' }]);
    // Reaching a little past the edge (the browser's rounding): clipped to the picture.
    const edge = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: -2, y: -2, width: 602, height: 402, scale: 100, rotation: 0 } });
    expect(((await edge.json()) as { data: { widthPx: number; heightPx: number } }).data).toMatchObject({ widthPx: 600, heightPx: 400 });
    expect((await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: -1, height: 10 } })).status).toBe(400);
    expect((await t.call('POST', '/api/files/cropImg', { token: demo, body: { path, x: 0, y: 0, width: 10, height: 10, rotation: 45 } })).status).toBe(400);
    const broken = await work([['b.jpg', corpusFile('damaged/pillow_truncated_jpeg.jpg')]]);
    await check(broken, photo5);
    const r = await t.call('POST', '/api/files/cropImg', { token: demo, body: { path: broken.files[0]!.filePath, x: 0, y: 0, width: 10, height: 10 } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { message: string }).message).toMatch(/文件破损/);
    expect((await t.call('POST', '/api/files/cropImg', { token: partial, body: { path, x: 0, y: 0, width: 10, height: 10 } })).status).toBe(404);
  });

  it('sorts a work\'s photos, lets a left-out photo leave the work, and refuses PDFs', async () => {
    const img = await photoMm(127, 89, 100);
    const w = await work([['相册/a.jpg', img], ['相册/b.jpg', img], ['相册/c.jpg', img]]);
    const res = await t.call('POST', '/api/files/sortWorkFiles', { token: demo, body: { accessPath: w.filePath, fileNames: ['c.jpg', 'a.jpg', 'b.jpg'], name: '相册', acceptFolder: true } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: 200, message: { accessPath: w.filePath } });
    expect((await stored(w.uuid)).files.map((f) => f.fileName)).toEqual(['c.jpg', 'a.jpg', 'b.jpg']);
    await t.call('POST', '/api/files/sortWorkFiles', { token: demo, body: { accessPath: w.filePath, fileNames: ['b.jpg', 'c.jpg'], name: '相册' } });
    expect(await stored(w.uuid)).toMatchObject({ pageCount: 2, state: 'unmatch' });
    const pdf = await work([['p.pdf', corpusFile('pdf/qpdf_boxes.pdf')]]);
    const refused = await t.call('POST', '/api/files/sortWorkFiles', { token: demo, body: { accessPath: pdf.filePath, fileNames: ['p.pdf'], name: 'p' } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe('PDF文件不支持排序操作');
    expect((await t.call('POST', '/api/files/sortWorkFiles', { token: demo, body: { accessPath: w.filePath, fileNames: ['zzz.jpg'] } })).status).toBe(400);
  });

  it('keeps checks inside the hub and refuses bad input with 4xx', async () => {
    const w = await work([['scope.jpg', await photoMm(127, 89)]]);
    expect((await check(w, photo5, partial)).status).toBe(404);
    const cross = await t.call('POST', '/api/sales_order/checkFile', { token: partial, body: { ...photo5, customerHubId: 1, filePath: w.filePath } });
    expect(cross.status).toBe(403);
    expect((await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { filePath: w.filePath } })).status).toBe(400);
    expect((await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { ...photo5, filePath: '../etc/passwd' } })).status).toBe(400);
    expect((await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: photo5.productId, propertyConfigId: 999999, filePath: w.filePath } })).status).toBe(404);
  });
});
