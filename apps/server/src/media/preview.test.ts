import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdfMeta } from './pdf.ts';
import { closePdfJs, renderPdfPage } from './pdfjs.ts';
import { MAX_PAGE_IMAGE_PIXELS, makeImagePreview, makePdfPagePreview, makePlaceholderPreview, previewFileName } from './preview.ts';
import { corpusPath } from './test-corpus.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'media-preview-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function jpegInfo(file: string) {
  const meta = await sharp(file).metadata();
  const stats = await sharp(file).stats();
  return { meta, stats };
}

describe('makeImagePreview', () => {
  it('applies EXIF orientation and bounds the long side to 1024', async () => {
    for (const name of ['Landscape_6', 'Portrait_8', 'Landscape_3']) {
      const dest = path.join(dir, `${name}.jpg`);
      const size = await makeImagePreview(corpusPath(`orientation/${name}.jpg`), dest);
      const { meta } = await jpegInfo(dest);
      const expected = name.startsWith('Landscape') ? [1024, 683] : [683, 1024];
      expect([meta.width, meta.height]).toEqual(expected);
      expect([size.width, size.height]).toEqual(expected);
      expect(meta.format).toBe('jpeg');
      expect(meta.orientation ?? 1).toBe(1);
    }
  });

  it('converts CMYK to sRGB with the same colours as the RGB twin of the picture', async () => {
    const cmykDest = path.join(dir, 'cmyk.jpg');
    const rgbDest = path.join(dir, 'rgb.jpg');
    await makeImagePreview(corpusPath('images/pillow_pil_sample_cmyk.jpg'), cmykDest);
    await makeImagePreview(corpusPath('images/pillow_pil_sample_rgb_srgb_icc.jpg'), rgbDest);
    const cmyk = await jpegInfo(cmykDest);
    const rgb = await jpegInfo(rgbDest);
    expect([cmyk.meta.space, cmyk.meta.channels]).toEqual(['srgb', 3]);
    for (let c = 0; c < 3; c++) {
      expect(Math.abs(cmyk.stats.channels[c]!.mean - rgb.stats.channels[c]!.mean)).toBeLessThan(30);
    }
  });

  it('flattens transparency onto white and turns 16-bit and grey images into 8-bit sRGB', async () => {
    for (const f of ['images/sharp_blackbug_no_phys.png', 'images/pngsuite_basn0g16_gray16.png', 'images/sharp_Flag_of_the_Netherlands-16bit.png', 'images/pillow_hopper_gray.jpg']) {
      const dest = path.join(dir, `${path.basename(f)}.jpg`);
      await makeImagePreview(corpusPath(f), dest);
      const { meta } = await jpegInfo(dest);
      expect([meta.format, meta.space, meta.channels, meta.depth]).toEqual(['jpeg', 'srgb', 3, 'uchar']);
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(1024);
    }
  });

  it('does not enlarge small images and leaves no temporary file behind', async () => {
    const sub = path.join(dir, 'small');
    await makeImagePreview(corpusPath('images/sharp_prophoto_icc_phys240.png'), path.join(sub, 'one.jpg'));
    const { meta } = await jpegInfo(path.join(sub, 'one.jpg'));
    expect([meta.width, meta.height]).toEqual([1, 1]);
    expect(await readdir(sub)).toEqual(['one.jpg']);
  });

  it('refuses what is not an image, and broken images, without leaving files', async () => {
    const sub = path.join(dir, 'bad');
    await expect(makeImagePreview(corpusPath('damaged/pdf_disguised_as.jpg'), path.join(sub, 'a.jpg'))).rejects.toMatchObject({ code: 'wrong-type' });
    await expect(makeImagePreview(corpusPath('damaged/imagesize_invalid_sample.png'), path.join(sub, 'b.jpg'))).rejects.toMatchObject({ code: 'damaged' });
    expect(await readdir(sub).catch(() => [])).toEqual([]);
  });
});

/** Every page's preview, one call a page, as the preview service makes them. */
async function previewPages(file: string, out: string, pages: number) {
  const files: string[] = [];
  const placeholderPages: number[] = [];
  for (let n = 1; n <= pages; n++) {
    const { placeholder } = await makePdfPagePreview(file, n, path.join(out, previewFileName(n)));
    files.push(previewFileName(n));
    if (placeholder) placeholderPages.push(n);
  }
  return { files, placeholderPages };
}

describe('makePdfPagePreview', () => {
  it('renders a page, rotated, long side 1024, named p0001.jpg …', async () => {
    const out = path.join(dir, 'boxes');
    const result = await previewPages(corpusPath('pdf/qpdf_boxes.pdf'), out, 8);
    expect(result.placeholderPages).toEqual([]);
    expect((await readdir(out)).sort()).toEqual(result.files);
    const portrait = await jpegInfo(path.join(out, 'p0001.jpg'));
    const landscape = await jpegInfo(path.join(out, 'p0002.jpg')); // /Rotate 90
    expect(portrait.meta.height).toBe(1024);
    expect(portrait.meta.width).toBeLessThan(1024);
    expect(landscape.meta.width).toBe(1024);
    expect(landscape.meta.height).toBeLessThan(1024);
    // Not blank: the page draws coloured boxes.
    expect(portrait.stats.channels[0]!.min).toBeLessThan(200);
  });

  it('renders only the page asked for', async () => {
    const out = path.join(dir, 'one-page');
    await makePdfPagePreview(corpusPath('pdf/qpdf_boxes.pdf'), 5, path.join(out, previewFileName(5)));
    expect(await readdir(out)).toEqual(['p0005.jpg']);
  });

  it('renders an owner-password-only PDF and refuses one that needs a password', async () => {
    const result = await previewPages(corpusPath('pdf/qpdf_enc-R6-owner-password-only.pdf'), path.join(dir, 'enc'), 3);
    expect(result).toEqual({ files: ['p0001.jpg', 'p0002.jpg', 'p0003.jpg'], placeholderPages: [] });
    await expect(
      makePdfPagePreview(corpusPath('pdf/pikepdf_graph-encrypted_pw-user_owner.pdf'), 1, path.join(dir, 'locked', 'p0001.jpg')),
    ).rejects.toMatchObject({ code: 'encrypted' });
  });

  it('renders raster pages with their image', async () => {
    const out = path.join(dir, 'raster');
    await makePdfPagePreview(corpusPath('pdf/pikepdf_congress_raster.pdf'), 1, path.join(out, 'p0001.jpg'));
    const { meta, stats } = await jpegInfo(path.join(out, 'p0001.jpg'));
    expect([meta.width, meta.height]).toEqual([674, 1024]);
    expect(stats.channels[0]!.mean).toBeLessThan(250);
  });

  it('gives pages that pdf.js cannot render a placeholder of the right shape', async () => {
    // pdf.js calls the repeated kid of this page tree circular; pdf-lib and qpdf read 4 pages.
    const out = path.join(dir, 'mixed');
    const file = corpusPath('pdf/pdfium_bug_1229106_mixed_orientation.pdf');
    const result = await previewPages(file, out, 4);
    const meta = await readPdfMeta(file);
    for (let i = 0; i < 4; i++) {
      const { meta: img } = await jpegInfo(path.join(out, result.files[i]!));
      const page = meta.pageSizes[i]!;
      expect(Math.sign(img.width! - img.height!)).toBe(Math.sign(page.widthPt - page.heightPt));
    }
    expect(result.placeholderPages.length).toBeGreaterThan(0);
    expect(result.placeholderPages.length).toBeLessThan(4);
  });

  it('refuses a file without a trailer as damaged (neither pdf.js nor the page reader can open it)', async () => {
    const out = path.join(dir, 'notrailer');
    await expect(previewPages(corpusPath('pdf/pdfium_parser_rebuildxref_error_notrailer.pdf'), out, 1)).rejects.toMatchObject({ code: 'damaged' });
  });

  it('renders a file written anew at the same path, not the document a thread kept open', async () => {
    const file = path.join(dir, 'rewritten.pdf');
    const out = path.join(dir, 'rewritten');
    const onePage = async (size: [number, number]) => {
      const doc = await PDFDocument.create();
      doc.addPage(size).drawRectangle({ x: 10, y: 10, width: 50, height: 50 });
      await writeFile(file, await doc.save());
    };
    await onePage([400, 600]);
    await makePdfPagePreview(file, 1, path.join(out, 'a.jpg'));
    await onePage([600, 400]);
    await makePdfPagePreview(file, 1, path.join(out, 'b.jpg'));
    expect((await jpegInfo(path.join(out, 'a.jpg'))).meta).toMatchObject({ width: 683, height: 1024 });
    expect((await jpegInfo(path.join(out, 'b.jpg'))).meta).toMatchObject({ width: 1024, height: 683 });
  });

  it('lets a page being rendered finish when the pdf.js threads are closed (as the app closes), and renders later pages on new ones', async () => {
    const out = path.join(dir, 'closing');
    // Handed to the pool at once (makePdfPagePreview first reads the file's head).
    const running = renderPdfPage(corpusPath('pdf/pikepdf_congress_raster.pdf'), { pageNumber: 1, maxSide: 256, quality: 80, maxImagePixels: MAX_PAGE_IMAGE_PIXELS, timeoutMs: 60_000 });
    await closePdfJs();
    expect(await running).toMatchObject({ outcome: 'rendered' });
    expect(await makePdfPagePreview(corpusPath('pdf/qpdf_boxes.pdf'), 2, path.join(out, 'p0002.jpg'))).toEqual({ placeholder: false });
  });

  it('refuses what is not a PDF', async () => {
    await expect(makePdfPagePreview(corpusPath('images/pillow_rgb_jfif300.jpg'), 1, path.join(dir, 'nope', 'p0001.jpg'))).rejects.toMatchObject({
      code: 'wrong-type',
    });
  });
});

describe('makePlaceholderPreview', () => {
  it('draws a white page of the given aspect ratio with its number', async () => {
    const dest = path.join(dir, 'ph', 'p0012.jpg');
    await makePlaceholderPreview(595.28, 841.89, 12, dest);
    const { meta, stats } = await jpegInfo(dest);
    expect([meta.width, meta.height]).toEqual([724, 1024]);
    expect(stats.channels[0]!.max).toBeGreaterThan(250);
    expect(stats.channels[0]!.min).toBeLessThan(200); // the digits are drawn
  });
});
