import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDocument, PDFName, PDFNumber, StandardFonts, type PDFDict } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from './errors.ts';
import { MAX_PDF_PAGES, ptToMm, readPdfMeta, readPdfPageCount } from './pdf.ts';
import { closePdfJs, renderPdfPage } from './pdfjs.ts';
import { corpusPath, manifestPageCount, manifestPdfPages, row, rowsUnder } from './test-corpus.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'media-pdf-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const USER_PASSWORD_FILE = 'pdf/pikepdf_graph-encrypted_pw-user_owner.pdf';
const NO_TRAILER_FILE = 'pdf/pdfium_parser_rebuildxref_error_notrailer.pdf';

describe('readPdfMeta against MANIFEST', () => {
  for (const { localFile, measured } of rowsUnder('pdf')) {
    if (localFile === USER_PASSWORD_FILE || localFile === NO_TRAILER_FILE) continue;
    it(`${localFile}`, async () => {
      const expectedPages = manifestPdfPages(measured);
      const meta = await readPdfMeta(corpusPath(localFile));
      expect(meta.pages).toBe(manifestPageCount(measured));
      expect(meta.pageSizes).toHaveLength(expectedPages.length);
      expectedPages.forEach((page, i) => {
        const name = page.boxes.TrimBox ? 'TrimBox' : page.boxes.CropBox ? 'CropBox' : 'MediaBox';
        const box = page.boxes[name]!;
        const swap = page.rotate % 180 !== 0;
        const got = meta.pageSizes[i]!;
        expect({ page: i + 1, box: got.box, rotate: got.rotate }).toEqual({ page: i + 1, box: name, rotate: page.rotate });
        expect([got.widthPt, got.heightPt]).toEqual(swap ? [box.heightPt, box.widthPt] : [box.widthPt, box.heightPt]);
        expect([got.widthMm, got.heightMm]).toEqual(swap ? [box.heightMm, box.widthMm] : [box.widthMm, box.heightMm]);
      });
      expect(await readPdfPageCount(corpusPath(localFile))).toBe(meta.pages);
    });
  }

  it('also reads a PDF that was named .jpg', async () => {
    const meta = await readPdfMeta(corpusPath('damaged/pdf_disguised_as.jpg'));
    expect(meta.pageSizes).toEqual([{ widthPt: 612, heightPt: 792, widthMm: 215.9, heightMm: 279.4, box: 'MediaBox', rotate: 0 }]);
  });
});

describe('encryption', () => {
  it('refuses a PDF that needs a user password', async () => {
    expect(row(USER_PASSWORD_FILE).category).toContain('user-password');
    const err = await readPdfMeta(corpusPath(USER_PASSWORD_FILE)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect(err).toMatchObject({ code: 'encrypted', message: 'PDF文件已加密，请去除密码后重新上传' });
  });

  it('reads an owner-password-only PDF (its pages sit in AES-256 encrypted object streams)', async () => {
    const meta = await readPdfMeta(corpusPath('pdf/qpdf_enc-R6-owner-password-only.pdf'));
    expect(meta.encrypted).toBe(true);
    expect(meta.pages).toBe(30);
  });

  // qpdf is not a dependency of the project; where it is installed, check R2-R4 as well.
  const qpdf = (() => {
    try {
      execFileSync('qpdf', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!qpdf)('handles RC4-40, RC4-128, AES-128 and AES-256 with and without a user password', async () => {
    const src = corpusPath('pdf/qpdf_boxes.pdf');
    const variants: Array<[string, string[]]> = [
      ['rc4-40', ['40']],
      ['rc4-128', ['128', '--use-aes=n']],
      ['aes-128', ['128', '--use-aes=y']],
      ['aes-256', ['256']],
    ];
    const plain = await readPdfMeta(src);
    for (const [name, args] of variants) {
      for (const user of ['', 'secret']) {
        const out = path.join(dir, `${name}-${user || 'none'}.pdf`);
        execFileSync('qpdf', ['--allow-weak-crypto', '--object-streams=generate', '--encrypt', user, 'owner', ...args, '--', src, out]);
        if (user) await expect(readPdfMeta(out)).rejects.toMatchObject({ code: 'encrypted' });
        else expect((await readPdfMeta(out)).pageSizes).toEqual(plain.pageSizes);
      }
    }
  });
});

describe('damaged files', () => {
  it('recovers the 30 pages of a file whose startxref is garbage', async () => {
    expect(await readPdfPageCount(corpusPath('pdf/qpdf_append-page-content-damaged.pdf'))).toBe(30);
  });

  it('calls a file without xref or trailer damaged (pdf.js, pdfinfo and qpdf cannot open it either)', async () => {
    await expect(readPdfMeta(corpusPath(NO_TRAILER_FILE))).rejects.toMatchObject({ code: 'damaged', message: '文件破损，无法读取' });
  });

  it('answers damaged (never hangs or crashes) for truncated and garbage files', async () => {
    const whole = await readFile(corpusPath('pdf/qpdf_boxes.pdf'));
    const cases: Array<[string, Buffer]> = [
      ['header-only.pdf', Buffer.from('%PDF-1.7\n')],
      ['garbage.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(50_000, 0x41)])],
      ['first-kb.pdf', whole.subarray(0, 1024)],
    ];
    for (const [name, bytes] of cases) {
      const file = path.join(dir, name);
      await writeFile(file, bytes);
      await expect(readPdfMeta(file)).rejects.toMatchObject({ code: 'damaged' });
    }
  });

  it('reads what is left of a file cut in half, or calls it damaged', async () => {
    const whole = await readFile(corpusPath('pdf/qpdf_page-labels-and-outlines_30p.pdf'));
    const file = path.join(dir, 'half.pdf');
    await writeFile(file, whole.subarray(0, whole.length >> 1));
    try {
      const meta = await readPdfMeta(file);
      expect(meta.pages).toBeGreaterThan(0);
    } catch (e) {
      expect(e).toMatchObject({ code: 'damaged' });
    }
  });

  it('answers every damaged copy of an encrypted file (pdf.js leaves promises of its own rejected on some)', async () => {
    const whole = await readFile(corpusPath('pdf/qpdf_enc-R6-owner-password-only.pdf'));
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const file = path.join(dir, 'flipped.pdf');
    for (let n = 0; n < 40; n++) {
      const copy = Buffer.from(whole);
      for (let i = 0; i < 16; i++) {
        const at = Math.floor(random() * copy.length);
        copy[at] = copy[at]! ^ (1 + Math.floor(random() * 255));
      }
      await writeFile(file, copy);
      const verdict = await readPdfMeta(file).then(
        (meta) => `${meta.pages} pages`,
        (e: unknown) => (e instanceof MediaError ? e.code : `crash: ${String(e)}`),
      );
      expect(verdict).toMatch(/^(\d+ pages|damaged|encrypted|wrong-type)$/);
    }
  });

  it('refuses content that is not a PDF', async () => {
    await expect(readPdfMeta(corpusPath('images/pillow_rgb_jfif300.jpg'))).rejects.toMatchObject({ code: 'wrong-type' });
  });
});

describe('boxes and rotation built by hand', () => {
  it('normalises inverted boxes, negative origins, odd /Rotate values and inherits /Rotate', async () => {
    const doc = await PDFDocument.create();
    const box = (...v: number[]) => doc.context.obj(v);
    const a = doc.addPage([100, 100]);
    a.node.set(PDFName.of('MediaBox'), box(600, 800, 0, 0));
    a.node.set(PDFName.of('Rotate'), PDFNumber.of(-90));
    const b = doc.addPage([100, 100]);
    b.node.set(PDFName.of('MediaBox'), box(-300, -400, 300, 400));
    b.node.set(PDFName.of('TrimBox'), box(250, 350, -250, -350));
    b.node.set(PDFName.of('Rotate'), PDFNumber.of(450));
    const c = doc.addPage([100, 100]);
    c.node.delete(PDFName.of('MediaBox'));
    c.node.set(PDFName.of('CropBox'), box(10, 10, 10, 300)); // zero width: unusable, fall back
    const d = doc.addPage([100, 100]);
    d.node.set(PDFName.of('Rotate'), PDFNumber.of(45)); // not a multiple of 90: ignored like pdf.js
    // Inherited by c (no /Rotate of its own, and no MediaBox either).
    doc.catalog.Pages().set(PDFName.of('Rotate'), PDFNumber.of(270));
    doc.catalog.Pages().set(PDFName.of('MediaBox'), box(0, 0, 595.28, 841.89));
    const file = path.join(dir, 'hand.pdf');
    await writeFile(file, await doc.save({ useObjectStreams: false }));

    const meta = await readPdfMeta(file);
    expect(meta.pageSizes).toEqual([
      { widthPt: 800, heightPt: 600, widthMm: 282.2, heightMm: 211.7, box: 'MediaBox', rotate: 270 },
      { widthPt: 700, heightPt: 500, widthMm: 246.9, heightMm: 176.4, box: 'TrimBox', rotate: 90 },
      { widthPt: 841.89, heightPt: 595.28, widthMm: 297, heightMm: 210, box: 'MediaBox', rotate: 270 },
      { widthPt: 100, heightPt: 100, widthMm: 35.3, heightMm: 35.3, box: 'MediaBox', rotate: 0 },
    ]);
  });

  it('survives a page tree that contains itself', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 300]);
    const pagesRef = doc.catalog.get(PDFName.of('Pages'));
    (doc.catalog.Pages().lookup(PDFName.of('Kids')) as PDFArray).push(pagesRef!);
    const file = path.join(dir, 'cycle.pdf');
    await writeFile(file, await doc.save({ useObjectStreams: false }));
    expect((await readPdfMeta(file)).pages).toBe(1);
  });

  it('scales by /UserUnit and takes the TrimBox over the MediaBox', async () => {
    const doc = await PDFDocument.create();
    const a = doc.addPage([1000, 500]);
    a.node.set(PDFName.of('UserUnit'), PDFNumber.of(2));
    const b = doc.addPage([612, 792]);
    b.setTrimBox(36, 36, 540, 720);
    const file = path.join(dir, 'user-unit.pdf');
    await writeFile(file, await doc.save());
    expect((await readPdfMeta(file)).pageSizes).toEqual([
      { widthPt: 2000, heightPt: 1000, widthMm: 705.6, heightMm: 352.8, box: 'MediaBox', rotate: 0 },
      { widthPt: 540, heightPt: 720, widthMm: 190.5, heightMm: 254, box: 'TrimBox', rotate: 0 },
    ]);
  });

  it(`refuses more than ${MAX_PDF_PAGES} pages with a clear message`, async () => {
    // One page listed over and over is that many pages to print (as qpdf counts them).
    const doc = await PDFDocument.create();
    doc.addPage([200, 300]);
    const kids = doc.catalog.Pages().lookup(PDFName.of('Kids')) as PDFArray;
    const page = kids.get(0);
    const file = path.join(dir, 'many.pdf');
    for (let i = 1; i < MAX_PDF_PAGES; i++) kids.push(page);
    await writeFile(file, await doc.save({ useObjectStreams: false }));
    expect(await readPdfPageCount(file)).toBe(MAX_PDF_PAGES);
    kids.push(page);
    await writeFile(file, await doc.save({ useObjectStreams: false }));
    await expect(readPdfMeta(file)).rejects.toMatchObject({ code: 'too-large', message: 'PDF页数过多，无法处理' });
  });

  it('converts points to millimetres rounded to 0.1', () => {
    expect(ptToMm(612)).toBe(215.9);
    expect(ptToMm(792)).toBe(279.4);
    expect(ptToMm(72)).toBe(25.4);
  });
});

describe('large and slow files', () => {
  it('refuses megabytes of junk as damaged (pdf-lib alone took 50 s for 5 MB; pdf.js refuses it first)', async () => {
    const cases: Array<[string, Buffer]> = [
      ['junk-a.pdf', Buffer.alloc(5_000_000, 0x41)],
      ['junk-xref.pdf', Buffer.from('xref\n'.repeat(400_000), 'latin1')],
      ['junk-objs.pdf', Buffer.from('1 0 obj 5 endobj junk '.repeat(100_000), 'latin1')],
    ];
    for (const [name, body] of cases) {
      const file = path.join(dir, name);
      await writeFile(file, Buffer.concat([Buffer.from('%PDF-1.4\n'), body]));
      await expect(readPdfMeta(file)).rejects.toMatchObject({ code: 'damaged' });
    }
  });

  it('gives up with timeout when the parsing budget is spent', async () => {
    const file = path.join(dir, 'junk-budget.pdf');
    await writeFile(file, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from('1 0 obj 5 endobj junk '.repeat(100_000), 'latin1')]));
    await expect(readPdfMeta(file, { budgetMs: 1 })).rejects.toMatchObject({ code: 'timeout' });
  });

  it('reads 300 pages with content (its time is measured by bench check-pdf)', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 0; i < 300; i++) {
      const page = doc.addPage(i % 2 ? [595.28, 841.89] : [841.89, 595.28]);
      for (let l = 0; l < 40; l++) page.drawText(`Page ${i + 1} line ${l} lorem ipsum dolor sit amet`, { x: 20, y: 20 + l * 12, size: 9, font });
      page.setTrimBox(9, 9, page.getWidth() - 18, page.getHeight() - 18);
    }
    const file = path.join(dir, '300p.pdf');
    await writeFile(file, await doc.save());
    const meta = await readPdfMeta(file);
    expect(meta.pages).toBe(300);
    expect(meta.pageSizes[0]).toMatchObject({ box: 'TrimBox', widthMm: 290.7, heightMm: 203.7 });
  });
});

describe('a balanced page tree for the previews (balancedTree)', () => {
  afterAll(closePdfJs);
  const qpdfInstalled = (() => {
    try {
      execFileSync('qpdf', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  /**
   * A PDF of `pages` pages in one flat /Pages node, as pdf-lib writes it; page i is (200 + i) × 300 pt
   * and says its number, so that a page shown in the place of another is seen.
   */
  async function flatPdf(pages: number, edit?: (doc: PDFDocument) => void): Promise<Buffer> {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 1; i <= pages; i++) doc.addPage([200 + i, 300]).drawText(`Page ${i}`, { x: 20, y: 150, size: 40, font });
    edit?.(doc);
    return Buffer.from(await doc.save());
  }
  const file = async (name: string, bytes: Uint8Array) => {
    const p = path.join(dir, name);
    await writeFile(p, bytes);
    return p;
  };
  /** The kids of the root /Pages node as @cantoo/pdf-lib reads the file: each a page, or a node and its /Count. */
  async function rootKids(p: string) {
    const doc = await PDFDocument.load(await readFile(p));
    const kids = doc.catalog.Pages().lookup(PDFName.of('Kids'), PDFArray);
    return kids.asArray().map((_, i) => {
      const kid = kids.lookup(i) as PDFDict;
      return kid.get(PDFName.of('Type'))?.toString() === '/Pages' ? (kid.lookup(PDFName.of('Count')) as PDFNumber).asNumber() : 'page';
    });
  }
  const jpegOf = async (p: string, pageNumber: number) => {
    const a = await renderPdfPage(p, { pageNumber, maxSide: 256, quality: 80, maxImagePixels: 1e8, timeoutMs: 20_000 });
    expect(a.outcome).toBe('rendered');
    return a.outcome === 'rendered' ? Buffer.from(a.jpeg) : Buffer.alloc(0);
  };

  it('appends to a flat tree of 300 pages an update that puts them in nodes of 100, each page in its place', async () => {
    const bytes = await flatPdf(300);
    const original = await file('flat300.pdf', bytes);
    const meta = await readPdfMeta(original, { balanceTree: true });
    expect(meta.balancedTree).toBeDefined();
    // The file itself is not touched; the copy is its bytes and then the update.
    expect(Buffer.compare(await readFile(original), bytes)).toBe(0);
    const copy = await file('flat300-copy.pdf', Buffer.concat([bytes, meta.balancedTree!]));
    expect(meta.balancedTree!.length).toBeLessThan(bytes.length / 10);

    expect(await rootKids(original)).toEqual(Array(300).fill('page'));
    expect(await rootKids(copy)).toEqual([100, 100, 100]);
    expect((await readPdfMeta(copy)).pageSizes).toEqual(meta.pageSizes);
    for (const n of [1, 150, 300]) expect(await jpegOf(copy, n), `page ${n}`).toEqual(await jpegOf(original, n));
    if (qpdfInstalled) {
      expect(execFileSync('qpdf', ['--show-npages', copy]).toString().trim()).toBe('300');
      execFileSync('qpdf', ['--check', copy], { stdio: 'ignore' });
    }
  });

  it('keeps what the pages inherit from the root (MediaBox, Rotate)', async () => {
    const bytes = await flatPdf(200, (doc) => {
      const root = doc.catalog.Pages();
      root.set(PDFName.of('MediaBox'), doc.context.obj([0, 0, 400, 250]));
      root.set(PDFName.of('Rotate'), doc.context.obj(90));
      for (const page of doc.getPages().slice(0, 100)) page.node.delete(PDFName.of('MediaBox'));
    });
    const original = await file('inherit.pdf', bytes);
    const meta = await readPdfMeta(original, { balanceTree: true });
    const copy = await file('inherit-copy.pdf', Buffer.concat([bytes, meta.balancedTree!]));
    expect(meta.pageSizes[0]).toMatchObject({ widthPt: 250, heightPt: 400, rotate: 90 });
    expect((await readPdfMeta(copy)).pageSizes).toEqual(meta.pageSizes);
    for (const n of [1, 101, 200]) expect(await jpegOf(copy, n), `page ${n}`).toEqual(await jpegOf(original, n));
  });

  it('makes none unless asked, for a small or already balanced tree, or a root whose /Count disagrees', async () => {
    const flat = await file('flat200.pdf', await flatPdf(200));
    expect((await readPdfMeta(flat)).balancedTree).toBeUndefined();
    expect((await readPdfMeta(await file('flat128.pdf', await flatPdf(128)), { balanceTree: true })).balancedTree).toBeUndefined();
    expect((await readPdfMeta(await file('flat129.pdf', await flatPdf(129)), { balanceTree: true })).balancedTree).toBeDefined();

    const flatMeta = await readPdfMeta(flat, { balanceTree: true });
    const balanced = await file('balanced.pdf', Buffer.concat([await readFile(flat), flatMeta.balancedTree!]));
    expect((await readPdfMeta(balanced, { balanceTree: true })).balancedTree).toBeUndefined();

    const wrongCount = await file('count.pdf', await flatPdf(200, (doc) => doc.catalog.Pages().set(PDFName.of('Count'), PDFNumber.of(199))));
    expect((await readPdfMeta(wrongCount, { balanceTree: true })).balancedTree).toBeUndefined();
  });

  it.skipIf(!qpdfInstalled)('makes none for an encrypted file (owner password only)', async () => {
    const plain = await file('plain200.pdf', await flatPdf(200));
    const encrypted = path.join(dir, 'enc200.pdf');
    execFileSync('qpdf', ['--encrypt', '', 'owner', '256', '--', plain, encrypted]);
    const meta = await readPdfMeta(encrypted, { balanceTree: true });
    expect(meta).toMatchObject({ encrypted: true, pages: 200 });
    expect(meta.balancedTree).toBeUndefined();
  });
});
