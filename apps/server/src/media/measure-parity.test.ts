/**
 * The browser's preflight (@portal/measure on the bytes of a picked file) and the server's readers give
 * the same answers for every image and every PDF of the shared corpus and of our fixtures:
 * - images: readImageMeta (sharp's size and orientation, the same package's density rules), the camera
 *   photos included;
 * - PDFs: readPdfMeta (pdf.js opens the file, the page tree's rules of @portal/measure/pdf size its
 *   pages) against measurePdf, as the browser's worker runs it on a picked file's bytes. Where the
 *   server refuses a file (encrypted, damaged) the preflight says nothing (null); where the preflight
 *   answers, it gives the server's pages and sizes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as pdfLib from '@cantoo/pdf-lib';
import { IMAGE_HEAD_BYTES, measureImage, type ByteSource } from '@portal/measure';
import { measurePdf } from '@portal/measure/pdf';
import { FIXTURES } from '../../test/helpers/corpus.ts';
import { readImageMeta } from './image.ts';
import { readPdfMeta } from './pdf.ts';
import { CORPUS_DIR } from './test-corpus.ts';

function filesUnder(dir: string, kind: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => kind.test(f) && statSync(f).isFile())
    .sort();
}
const imagesUnder = (dir: string) => filesUnder(dir, /\.(jpe?g|png)$/i);

/** As the browser's worker reads a File: the first IMAGE_HEAD_BYTES, the rest only when asked for. */
function headFirst(bytes: Uint8Array): { src: ByteSource; beyondHead: () => number } {
  let beyond = 0;
  return {
    src: {
      head: bytes.subarray(0, IMAGE_HEAD_BYTES),
      at: async (position, length) => {
        if (position + length > IMAGE_HEAD_BYTES) beyond++;
        return bytes.subarray(position, position + length);
      },
    },
    beyondHead: () => beyond,
  };
}

const images = [...imagesUnder(CORPUS_DIR), ...imagesUnder(FIXTURES)];

describe('@portal/measure against the server reader', () => {
  it('finds the corpus and the camera photos', () => {
    expect(images.length).toBeGreaterThan(40);
    expect(images.some((f) => f.includes(`${path.sep}camera${path.sep}`))).toBe(true);
  });

  for (const file of images) {
    it(path.relative(path.dirname(CORPUS_DIR), file), async () => {
      const server = await readImageMeta(file).catch(() => null);
      const browser = await measureImage(headFirst(readFileSync(file)).src);
      if (!server) {
        // A file the server refuses (not an image, broken IHDR) is refused by the preflight or left for the server
        // to judge; it is never given a different size.
        if (browser) expect(file).toMatch(/damaged/);
        return;
      }
      expect(browser).toEqual({
        format: server.format,
        width: server.width,
        height: server.height,
        orientation: server.orientation,
        dpi: server.dpi,
        dpiX: server.dpiX,
        dpiY: server.dpiY,
        dpiStated: server.dpiStated,
        dpiSource: server.dpiSource,
      });
    });
  }

  it('reads past the head only for what lies beyond it (a large EXIF block)', async () => {
    const counts = images.map((f) => {
      const h = headFirst(readFileSync(f));
      return measureImage(h.src).then(() => h.beyondHead());
    });
    const beyond = await Promise.all(counts);
    expect(beyond.filter((n) => n > 0).length).toBeLessThan(images.length / 4);
  });
});

const pdfs = [...filesUnder(CORPUS_DIR, /\.pdf$/i), ...filesUnder(FIXTURES, /\.pdf$/i)];

describe('@portal/measure/pdf against the server reader', () => {
  it('finds the corpus PDFs, rotated, boxed, encrypted and damaged ones among them', () => {
    expect(pdfs.length).toBeGreaterThanOrEqual(14);
    for (const name of ['pdfjs_rotation', 'qpdf_boxes', 'qpdf_inherited-rotate', 'encrypted', 'damaged']) expect(pdfs.some((f) => f.includes(name))).toBe(true);
  });

  const answered: string[] = [];
  for (const file of pdfs) {
    it(path.relative(path.dirname(CORPUS_DIR), file), async () => {
      const server = await readPdfMeta(file).catch(() => null);
      const browser = await measurePdf(pdfLib, new Uint8Array(readFileSync(file)));
      if (!server || server.encrypted) {
        // The server refuses it, or needs pdf.js to know it opens without a password: the preflight says nothing.
        expect(browser).toBeNull();
        return;
      }
      if (!browser) return;
      answered.push(file);
      expect(browser).toEqual({ format: 'pdf', pages: server.pages, pageSizes: server.pageSizes.map((p) => ({ widthMm: p.widthMm, heightMm: p.heightMm })) });
    });
  }

  it('answers for the PDFs the server reads cleanly (all but the damaged and encrypted ones)', () => {
    expect(answered.length).toBeGreaterThanOrEqual(pdfs.filter((f) => !/damaged|broken|error|encrypted|enc-/i.test(f)).length);
  });

  it('says nothing of junk, a truncated file or an empty one, without throwing', async () => {
    const good = readFileSync(pdfs.find((f) => f.includes('qpdf_boxes'))!);
    for (const bytes of [new Uint8Array(0), new TextEncoder().encode('%PDF-1.4 junk'), good.subarray(0, good.length / 2)]) {
      expect(await measurePdf(pdfLib, bytes)).toBeNull();
    }
  });
});
