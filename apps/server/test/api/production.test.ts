/**
 * Files for the press (#22.4): the operator downloads one order, a batch or a day as one zip. What the press
 * gets must be what the customer uploaded, byte for byte, under names that open on Windows and macOS, with a
 * job ticket whose QR code a scanner reads as the SO number, and a manifest Excel opens.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import jsQR from 'jsqr';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductionLinkAnswer } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { salesOrders } from '../../src/db/schema/index.ts';
import { DEMO_CATALOGUE_FILE } from '../../src/db/seed/demo.ts';
import { renderPdfPage } from '../../src/media/pdfjs.ts';
import { PDFDocument } from '@cantoo/pdf-lib';
import { randomUUID } from 'node:crypto';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { uploadFile } from '../helpers/upload.ts';
import { photoMm, placePhotoOrders, type PlacedOrder, type Recipient } from '../helpers/orders.ts';
import { outsidePage, pdfPages } from '../helpers/pdf-text.ts';

const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
type Entry = { name: string; utf8: boolean; bytes: Buffer };

/** Every entry of a zip, read with yauzl (the zip reader the server uses for uploads). */
function readZip(bytes: Buffer): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: Entry[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (err2, s) => {
          if (err2 || !s) return reject(err2);
          const parts: Buffer[] = [];
          s.on('data', (d: Buffer) => parts.push(d));
          s.on('end', () => {
            out.push({ name: e.fileName, utf8: (e.generalPurposeBitFlag & 0x800) !== 0, bytes: Buffer.concat(parts) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The text of a PDF, all its pages, by pdf.js (what a reader and a search find). */
async function pdfText(bytes: Buffer): Promise<string> {
  return (await pdfPages(bytes)).map((p) => p.text).join('');
}

/** The QR code of a PDF's page (the first unless told): rendered by pdf.js (the server's own worker threads), decoded by jsQR. */
async function pdfQr(bytes: Buffer, dir: string, pageNumber = 1): Promise<string | null> {
  const file = path.join(dir, `${sha256(bytes)}.pdf`);
  await writeFile(file, bytes);
  const r = await renderPdfPage(file, { pageNumber, maxSide: 1400, quality: 95, maxImagePixels: 1e8, timeoutMs: 60_000 });
  if (r.outcome !== 'rendered') throw new Error(`ticket not rendered: ${r.outcome}`);
  const { data, info } = await sharp(Buffer.from(r.jpeg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null;
}

describe.each(DB_KINDS)('production zip on %s', (kind) => {
  let t: TestApp;
  let demo: string;
  let operator: string;
  let dir: string;
  const longName = '二〇二六届毕业纪念相册：高三（七）班全体同学与老师的合影、运动会、艺术节、元旦晚会、研学旅行和成人礼的精选照片（终版，请按此稿印刷）';
  const uploaded = new Map<string, Buffer>();
  let orders: PlacedOrder[];

  const link = async (query: string, token = operator) => t.call('GET', `/api/admin/production/link?${query}`, { token });
  const download = async (query: string) => {
    const res = await link(query);
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = (await res.json()) as ProductionLinkAnswer;
    const zip = await t.call('GET', answer.url);
    expect(zip.status, answer.url).toBe(200);
    return { answer, zip, entries: await readZip(Buffer.from(await zip.arrayBuffer())) };
  };

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
    operator = await t.login('operator', 'operator');
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-production-'));
    const files = {
      single: await photoMm(127, 89, 1),
      a: await photoMm(127, 89, 2),
      b: await photoMm(127, 89, 3),
    };
    uploaded.set('single', files.single).set('a', files.a).set('b', files.b);
    // A photo named with Windows-forbidden characters, and a folder holding two files of one name (in two subfolders).
    orders = await placePhotoOrders(t, demo, [
      { name: '海报', files: [{ path: '海报:终稿?.jpg', bytes: files.single }] },
      { name: longName, files: [{ path: '上/合影.jpg', bytes: files.a }, { path: '下/合影.jpg', bytes: files.b }] },
    ]);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('zips a batch: the uploaded bytes under <SO>_<作品名>/<组件>/<file>, UTF-8 names, a ticket per order and a manifest', async () => {
    const [batch] = await t.db.db.select({ id: salesOrders.batchId }).from(salesOrders).where(eq(salesOrders.salesOrderNumber, orders[0]!.salesOrderNumber));
    const { answer, zip, entries } = await download(`batchId=${batch!.id}`);
    expect(answer.orders.map((o) => [o.salesOrderNumber, o.files])).toEqual([[orders[0]!.salesOrderNumber, 1], [orders[1]!.salesOrderNumber, 2]]);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(answer.fileName)}`);

    const [so1, so2] = orders.map((o) => o.salesOrderNumber);
    const names = entries.map((e) => e.name);
    const folder2 = `${so2}_${longName}`.slice(0, 80);
    expect(names).toEqual([
      `${so1}_海报_终稿_/生产单_${so1}.pdf`,
      `${so1}_海报_终稿_/照片/海报_终稿_.jpg`,
      `${folder2}/生产单_${so2}.pdf`,
      `${folder2}/照片/合影.jpg`,
      `${folder2}/照片/合影 (2).jpg`,
      'manifest.csv',
    ]);
    expect(Array.from(folder2)).toHaveLength(80);
    expect(entries.every((e) => e.utf8)).toBe(true);
    const byName = new Map(entries.map((e) => [e.name, e.bytes]));
    expect(sha256(byName.get(`${so1}_海报_终稿_/照片/海报_终稿_.jpg`)!)).toBe(sha256(uploaded.get('single')!));
    expect(new Set([sha256(byName.get(`${folder2}/照片/合影.jpg`)!), sha256(byName.get(`${folder2}/照片/合影 (2).jpg`)!)]))
      .toEqual(new Set([sha256(uploaded.get('a')!), sha256(uploaded.get('b')!)]));

    const csv = byName.get('manifest.csv')!.toString('utf8');
    expect(csv.startsWith('\uFEFFSO,作品,组件,文件,页数,大小,sha256\r\n')).toBe(true);
    const rows = csv.slice(1).trim().split('\r\n').slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      const bytes = byName.get(r[3]!)!;
      expect(r[6], r[3]).toBe(sha256(bytes));
      expect(Number(r[5])).toBe(bytes.length);
      expect(r[4]).toBe('1');
    }
  }, 120_000);

  it('keeps every name in the zip within what Linux and Windows take, so unzip extracts every file (a 251-character name failed: File name too long, operator walk)', async () => {
    const chinese = (n: number, from = '二〇二六届毕业纪念相册高三七班全体同学与老师的合影运动会艺术节元旦晚会研学旅行成人礼精选照片终版请按此稿印刷') =>
      Array.from(from.repeat(Math.ceil(n / Array.from(from).length))).slice(0, n).join('');
    // The spec's longest path as one file: 251 Chinese characters and .jpg (757 bytes of UTF-8); and a folder work
    // whose name starts with 4-byte characters (`<SO>_<作品名>` cut by characters alone is 256 bytes) holding two long
    // names that differ only at their end, so they meet once cut.
    const single = `${chinese(251)}.jpg`;
    const folderName = `${'🎓🌸'.repeat(29)}${chinese(42)}`;
    const stem = chinese(124, '高三七班毕业合影第一排从左至右依次为班主任和同学们在操场');
    const files = { single: await photoMm(127, 89, 21), first: await photoMm(127, 89, 22), second: await photoMm(127, 89, 23) };
    const placed = await placePhotoOrders(t, demo, [
      { name: chinese(251), files: [{ path: single, bytes: files.single }] },
      { name: folderName, files: [{ path: `${stem}1.jpg`, bytes: files.first }, { path: `${stem}2.jpg`, bytes: files.second }] },
    ], 1);
    expect([...`${folderName}/${stem}1.jpg`].length).toBeLessThanOrEqual(255);
    const [batch] = await t.db.db.select({ id: salesOrders.batchId }).from(salesOrders).where(eq(salesOrders.salesOrderNumber, placed[0]!.salesOrderNumber));
    const res = await link(`batchId=${batch!.id}`);
    const { url } = (await res.json()) as ProductionLinkAnswer;
    const bytes = Buffer.from(await (await t.call('GET', url)).arrayBuffer());
    const entries = await readZip(bytes);

    // Every name of every entry: at most 240 bytes of UTF-8 and 240 UTF-16 units (ext4 and NTFS take 255), cut
    // between characters (yauzl reads a cut UTF-8 sequence as U+FFFD), each entry once.
    for (const e of entries) {
      for (const part of e.name.split('/')) {
        expect(Buffer.byteLength(part), part).toBeLessThanOrEqual(240);
        expect(part.length, part).toBeLessThanOrEqual(240);
        expect(part).not.toContain('\ufffd');
      }
    }
    expect(new Set(entries.map((e) => e.name.toLowerCase())).size).toBe(entries.length);
    const [so1, so2] = placed.map((o) => o.salesOrderNumber);
    const photos = entries.filter((e) => e.name.endsWith('.jpg'));
    // Cut no shorter than it must be, the extension kept: 78 characters (234 bytes) and .jpg.
    expect(photos.find((e) => e.name.startsWith(`${so1}_`))!.name.split('/')[2]).toBe(`${chinese(78)}.jpg`);
    expect(photos.filter((e) => e.name.startsWith(`${so2}_`)).map((e) => e.name.split('/')[2]).sort())
      .toEqual([`${chinese(77, stem)} (2).jpg`, `${chinese(78, stem)}.jpg`]);

    // The manifest names each file as the zip does.
    const byName = new Map(entries.map((e) => [e.name, e.bytes]));
    const rows = byName.get('manifest.csv')!.toString('utf8').slice(1).trim().split('\r\n').slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[3]).sort()).toEqual(photos.map((e) => e.name).sort());
    for (const r of rows) expect(r[6], r[3]).toBe(sha256(byName.get(r[3]!)!));

    // What the operator does: unzip on Linux. Every entry comes out, the photos as they were uploaded.
    const out = await mkdtemp(path.join(dir, 'unzip-'));
    const zipFile = path.join(dir, 'long-names.zip');
    await writeFile(zipFile, bytes);
    await promisify(execFile)('unzip', ['-q', zipFile, '-d', out], { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    const extracted = (await readdir(out, { recursive: true, withFileTypes: true })).filter((d) => d.isFile())
      .map((d) => path.relative(out, path.join(d.parentPath, d.name)));
    expect(extracted.sort()).toEqual(entries.map((e) => e.name).sort());
    const hashes = async (so: string) => Promise.all(photos.filter((e) => e.name.startsWith(`${so}_`)).map(async (e) => sha256(await readFile(path.join(out, e.name)))));
    expect(await hashes(so1!)).toEqual([sha256(files.single)]);
    expect((await hashes(so2!)).sort()).toEqual([sha256(files.first), sha256(files.second)].sort());
  }, 120_000);

  /** One file uploaded, checked against a SKU and ordered: the text of its order's job ticket, spaces made single. */
  const ticketOfOne = async (bytes: Buffer, name: string, [product, skuNumber]: [string, string], quantity: number) => {
    const folderId = randomUUID();
    expect((await uploadFile(t, demo, bytes, name, { folderId })).done).toBeDefined();
    const parsed = (await (await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${name}`)}`, { token: demo })).json()) as
      { message: { works: Array<{ uuid: string; articleName: string; filePath: string }> } };
    const work = parsed.message.works[0]!;
    const sku = await findSku(t, demo, product, skuNumber);
    const checked = await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: work.filePath } });
    expect(((await checked.json()) as { state: number }).state).toBe(200);
    const placed = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: randomUUID(), deliveryMethod: 'Unified',
      works: [{ uuid: work.uuid, articleName: work.articleName, filePath: work.filePath, quantity, productId: sku.productId, propertyConfigId: sku.propertyConfigId, toning: 'None' }] } });
    expect(placed.status).toBe(200);
    const so = ((await placed.json()) as { message: { orders: PlacedOrder[] } }).message.orders[0]!.salesOrderNumber;
    const { entries } = await download(`salesOrderNumber=${so}`);
    return (await pdfText(entries.find((e) => e.name.endsWith(`生产单_${so}.pdf`))!.bytes)).replaceAll(/\s+/g, ' ');
  };

  it('puts a job ticket in each order whose QR code reads as the SO number and whose text names what to print', async () => {
    const so = orders[1]!.salesOrderNumber;
    // Typed as the operator types it (lower case, spaces around): the same order, as the list's search finds it (console walk).
    const { entries } = await download(`salesOrderNumber=${encodeURIComponent(` ${so.toLowerCase()} `)}`);
    expect(entries).toHaveLength(4);
    const ticket = entries.find((e) => e.name.endsWith(`生产单_${so}.pdf`))!.bytes;
    expect(await pdfQr(ticket, dir)).toBe(so);
    const text = await pdfText(ticket);
    for (const want of ['生产单', so, '5寸照片冲印', '份数', '2', '照片', '127×89 mm', '页数 2', '收货地址', '广东省', '不调色']) expect(text).toContain(want);
    expect(text.replaceAll(/\s/g, '')).toContain(longName);
    expect(text).not.toContain('客户已确认');
  }, 120_000);

  it('names on a ticket the warning the customer ordered with, as the order\'s page does (the sheet at the press said nothing of it)', async () => {
    // 5寸 at 150 dpi: the size is right, the resolution below the SKU's 300 (dpiAbnormal, 确认使用 before the order).
    const low = await sharp({ create: { width: 750, height: 526, channels: 3, background: '#aa6688' } }).jpeg().withMetadata({ density: 150 }).toBuffer();
    const text = await ticketOfOne(low, '低清合影.jpg', ['PH-5', 'PH5-GL-NB'], 1);
    expect(text).toContain('客户已确认 分辨率低于要求：1 个文件（低清合影.jpg）');
  }, 120_000);

  it('names on a brochure\'s ticket the pages of one PDF that go to each component, with its paper (the sheet said 文件, 页数 24)', async () => {
    const doc = await PDFDocument.create();
    const pt = (mm: number) => (mm / 25.4) * 72;
    for (let i = 0; i < 20; i++) doc.addPage([pt(210), pt(285)]);
    const text = await ticketOfOne(Buffer.from(await doc.save()), '宣传册.pdf', ['BR-A4', 'BR-SS-C157-GL'], 50);
    expect(text).toMatch(/封面 尺寸 \S+ mm 页数 4（第1–2、19–20页） 纸张 \S+/);
    expect(text).toMatch(/内页 尺寸 \S+ mm 页数 16（第3–18页） 纸张 \S+/);
    expect(text).toContain('（50份）');
    expect(text).not.toMatch(/文件 尺寸/);
    // The inner pages' paper is the SKU's choice, named once (it read 纸张 内页纸张:157g铜版纸); the cover's is what
    // its component is made of, not the inner pages'.
    expect(text).toMatch(/内页 尺寸 \S+ mm 页数 16（第3–18页） 纸张 157g铜版纸/);
    expect(text).not.toMatch(/纸张 \S*纸张[:：]/);
    expect(text).not.toMatch(/封面 [^内]*纸张 157g/);
  }, 120_000);

  it('prints on a ticket the size its files were checked against when ordered, after an import changed the product (it read the new size)', async () => {
    const photo = await sharp({ create: { width: 1500, height: 1051, channels: 3, background: '#88aa66' } }).jpeg().withMetadata({ density: 300 }).toBuffer();
    const folderId = randomUUID();
    expect((await uploadFile(t, demo, photo, '改版前.jpg', { folderId })).done).toBeDefined();
    const parsed = (await (await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/改版前.jpg`)}`, { token: demo })).json()) as
      { message: { works: Array<{ uuid: string; articleName: string; filePath: string }> } };
    const work = parsed.message.works[0]!;
    const sku = await findSku(t, demo, 'PH-5', 'PH5-GL-NB');
    expect(((await (await t.call('POST', '/api/sales_order/checkFile', { token: demo, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: work.filePath } })).json()) as { state: number }).state).toBe(200);
    const placed = await t.call('POST', '/api/sales_order/batch', { token: demo, body: { idempotencyKey: randomUUID(), deliveryMethod: 'Unified',
      works: [{ uuid: work.uuid, articleName: work.articleName, filePath: work.filePath, quantity: 1, productId: sku.productId, propertyConfigId: sku.propertyConfigId, toning: 'None' }] } });
    const so = ((await placed.json()) as { message: { orders: PlacedOrder[] } }).message.orders[0]!.salesOrderNumber;
    // The shop's next catalogue makes 5寸 152 mm wide.
    const catalogue = JSON.parse(await readFile(DEMO_CATALOGUE_FILE, 'utf8')) as { products: Array<{ number: string; components: Array<{ width: number }> }> };
    catalogue.products.find((p) => p.number === 'PH-5')!.components[0]!.width = 152;
    const operator = await t.login('operator', 'operator');
    const importCatalogue = (body: string) => fetch(`${t.url}/api/admin/catalogue/import`, { method: 'POST', headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' }, body });
    expect((await importCatalogue(JSON.stringify(catalogue))).status).toBe(200);
    try {
      const { entries } = await download(`salesOrderNumber=${so}`);
      const text = (await pdfText(entries.find((e) => e.name.endsWith(`生产单_${so}.pdf`))!.bytes)).replaceAll(/\s+/g, ' ');
      expect(text).toMatch(/照片 尺寸 127×89 mm/);
    } finally {
      // The demo catalogue again, for the tests after this one.
      expect((await importCatalogue(await readFile(DEMO_CATALOGUE_FILE, 'utf8'))).status).toBe(200);
    }
  }, 120_000);

  it('names on a board\'s ticket the board that was ordered, not every board its component may be (a PVC order read 5mm KT板、3mm PVC板)', async () => {
    const board = await sharp({ create: { width: 2362, height: 3543, channels: 3, background: '#2266aa' } }).jpeg().withMetadata({ density: 100 }).toBuffer();
    const text = await ticketOfOne(board, '展板.jpg', ['KT-6090', 'KT-6090-PVC3'], 1);
    expect(text).toMatch(/画面 尺寸 600×900 mm 页数 1 纸张 3mm PVC板/);
    expect(text).not.toContain('5mm KT板');
  }, 120_000);

  it('prints every address of a work sent to 50 shops on as many A4 pages as they take, each page named with its SO and number, nothing off the paper (it stopped at 收货地址6: walk)', async () => {
    const partial = await t.login('partial', 'partial');
    // The longest a hub's name, a recipient, an address and a work's name may be: each is wrapped within the page.
    const hubName = '分批收货客户'.padEnd(100, '连锁门店');
    expect((await t.call('PATCH', '/api/admin/hubs/2', { token: operator, body: { name: hubName } })).status).toBe(200);
    try {
      const recipients: Recipient[] = Array.from({ length: 50 }, (_, i) => ({
        contact: `第${i + 1}店收件人`.padEnd(50, '王'), phone: `139${String(i).padStart(8, '0')}`,
        province: '浙江省', city: '杭州市', district: '西湖区', address: `文三路${i + 1}号`.padEnd(200, '华星科技大厦东楼'), quantity: 1,
      }));
      const fileName = `${'二〇二六年连锁门店开业海报'.padEnd(251, '（终版）')}.jpg`;
      const [placed] = await placePhotoOrders(t, partial, [{ name: fileName, files: [{ path: fileName, bytes: await photoMm(127, 89, 50) }] }], 50, recipients);
      const so = placed!.salesOrderNumber;
      const { entries } = await download(`salesOrderNumber=${so}`);
      const ticket = entries.find((e) => e.name.endsWith(`生产单_${so}.pdf`))!.bytes;
      const pages = await pdfPages(ticket);
      const text = pages.map((p) => p.text).join('').replaceAll(/\s/g, '');
      const missing = recipients.flatMap((r, i) => (text.includes(`收货地址${i + 1}${r.contact}${r.phone}${r.province}${r.city}${r.district}${r.address}（1份）`) ? [] : [`收货地址${i + 1}`]));
      expect(missing).toEqual([]);
      expect(pages.flatMap(outsidePage)).toEqual([]);
      expect(pages.length).toBeGreaterThan(1);
      pages.forEach((p, i) => {
        expect([Math.round(p.width), Math.round(p.height)]).toEqual([595, 842]);
        // A page dropped from the pile is put back: whose it is and where.
        expect(p.text).toContain(so);
        expect(p.text.replaceAll(/\s/g, '')).toContain(`第${i + 1}页/共${pages.length}页`);
      });
      expect(placed!.articleName.length).toBeGreaterThan(250);
      expect(text).toContain(placed!.articleName);
      expect(text).toContain(hubName);
      expect(await pdfQr(ticket, dir)).toBe(so);
      expect(await pdfQr(ticket, dir, pages.length)).toBe(so);
    } finally {
      expect((await t.call('PATCH', '/api/admin/hubs/2', { token: operator, body: { name: '分批收货客户' } })).status).toBe(200);
    }
  }, 120_000);

  it('zips the orders of a day (China Standard Time)', async () => {
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const { answer, entries } = await download(`day=${today}`);
    expect(answer.orders.map((o) => o.salesOrderNumber)).toEqual(expect.arrayContaining(orders.map((o) => o.salesOrderNumber)));
    expect(entries.filter((e) => e.name.includes('/生产单_')).length).toBe(answer.orders.length);
    expect((await link('day=2001-01-01')).status).toBe(404);
    expect((await link('day=2026-02-31')).status).toBe(400);
    expect((await link('day=2026-13-45')).status).toBe(400);
  }, 120_000);

  it('streams the zip: its first bytes leave before the last file is read, and a paused reader stops the reading', async () => {
    // Six photos of noise (about 1.5 MB each): a zip that buffered would read them all first.
    const noise = async (seed: number) => {
      const width = 1500;
      const height = 1051;
      const raw = Buffer.alloc(width * height * 3);
      for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761 + seed * 97) >>> 24;
      return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 95 }).withMetadata({ density: 300 }).toBuffer();
    };
    const files = await Promise.all([1, 2, 3, 4, 5, 6].map(async (i) => ({ path: `相册/${i}.jpg`, bytes: await noise(i) })));
    const total = files.reduce((n, f) => n + f.bytes.length, 0);
    expect(total).toBeGreaterThan(8_000_000);
    const [order] = await placePhotoOrders(t, demo, [{ name: '大相册', files }], 1);
    const opened: string[] = [];
    const { stream } = await t.app.services.production.zip({ salesOrderNumber: order!.salesOrderNumber }, { fileOpened: (e) => opened.push(e) });
    const first = await new Promise<Buffer>((resolve) => stream.once('data', (d: Buffer) => { stream.pause(); resolve(d); }));
    expect(first.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(opened.length, 'files opened when the first bytes left').toBeLessThan(files.length);
    await new Promise((r) => setTimeout(r, 500));
    expect(opened.length, 'files opened while nobody read').toBeLessThan(files.length);
    // Read the rest: the whole zip holds every photo.
    const parts: Buffer[] = [first];
    stream.on('data', (d: Buffer) => parts.push(d));
    await new Promise((r) => { stream.on('end', r); stream.resume(); });
    const entries = await readZip(Buffer.concat(parts));
    expect(opened).toHaveLength(files.length);
    const hashes = new Set(entries.filter((e) => e.name.endsWith('.jpg')).map((e) => sha256(e.bytes)));
    expect(hashes).toEqual(new Set(files.map((f) => sha256(f.bytes))));
  }, 180_000);

  it('refuses customers, a link that is forged or names nothing, and an unknown order', async () => {
    expect((await link(`salesOrderNumber=${orders[0]!.salesOrderNumber}`, demo)).status).toBe(403);
    const res = await link(`salesOrderNumber=${orders[0]!.salesOrderNumber}`);
    const { url } = (await res.json()) as ProductionLinkAnswer;
    const forged = url.replace(encodeURIComponent(orders[0]!.salesOrderNumber), encodeURIComponent(orders[1]!.salesOrderNumber));
    const refused = await t.call('GET', forged);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe('下载链接无效或已过期，请重新下载');
    const none = await link('');
    expect(none.status).toBe(400);
    expect(((await none.json()) as { message: string }).message).toBe('请选择一个订单、一个批次或一天');
    const unknown = await link('salesOrderNumber=SO000');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toBe('订单不存在');

    // A cancelled order is not for the press: refused by its number (a batch or a day leaves it out).
    const [gone] = await placePhotoOrders(t, demo, [{ name: '已取消相片', files: [{ path: '已取消相片.jpg', bytes: await photoMm(127, 89, 11) }] }]);
    expect((await t.call('POST', `/api/sales_order/${gone!.salesOrderNumber}/cancel`, { token: demo, body: {} })).status).toBe(200);
    const cancelled = await link(`salesOrderNumber=${gone!.salesOrderNumber}`);
    expect(cancelled.status).toBe(409);
    expect(((await cancelled.json()) as { message: string }).message).toBe(`订单 ${gone!.salesOrderNumber} 已取消，不能下载生产文件`);
  }, 60_000);
});
