import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type OutputInfo } from './sharp.ts';
import { MediaError, tooManyPixels } from './errors.ts';
import { readHead, sniffType } from './magic.ts';
import { readPdfMeta, type PdfMeta } from './pdf.ts';
import { renderPdfPage } from './pdfjs.ts';

export interface PreviewOptions {
  /** Longest side in pixels; default 1024. */
  maxSide?: number;
  /** JPEG quality 1-100; default 80. */
  quality?: number;
}

export interface PdfPreviewOptions extends PreviewOptions {
  /** A page whose rendering takes longer gets a placeholder; default 20 s. */
  pageTimeoutMs?: number;
  /**
   * The page's size in points, for its placeholder (the upload stored it). Without it the placeholder's
   * shape is read with pdf-lib, which parses the whole file.
   */
  pageSizePt?: { widthPt: number; heightPt: number };
  /**
   * A copy of the file with the same pages to render from (its page tree balanced: services/preview-copies.ts);
   * the file itself when pdf.js cannot open the copy.
   */
  renderFrom?: string;
}

/**
 * Images inside a page larger than this (pixels) are left out of its preview: pdf.js decodes an image
 * whole, about 4 bytes a pixel, whatever the preview's size. 100 MP is an A1 poster at 300 dpi with room.
 */
export const MAX_PAGE_IMAGE_PIXELS = 100_000_000;

const DEFAULT_MAX_SIDE = 1024;
const DEFAULT_QUALITY = 80;
const DEFAULT_PAGE_TIMEOUT_MS = 20_000;

export function previewFileName(pageNumber: number): string {
  return `p${String(pageNumber).padStart(4, '0')}.jpg`;
}

/**
 * Written beside the target and renamed, so a reader never sees half a JPEG. The temporary name is
 * short and its own: the target's name may already be as long as the file system allows.
 */
async function writeAtomically(dest: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = path.join(path.dirname(dest), `.${randomUUID()}.tmp`);
  try {
    await write(tmp);
    await rename(tmp, dest);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

export async function makeImagePreview(
  src: string,
  dest: string,
  options: PreviewOptions = {},
): Promise<{ width: number; height: number }> {
  const type = sniffType(await readHead(src));
  if (type !== 'jpeg' && type !== 'png') throw new MediaError('wrong-type');
  const maxSide = options.maxSide ?? DEFAULT_MAX_SIDE;
  await mkdir(path.dirname(dest), { recursive: true });
  let info: OutputInfo | undefined;
  try {
    await writeAtomically(dest, async (tmp) => {
      info = await sharp(src, { failOn: 'none' })
        .rotate()
        .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
        // Transparent PNG areas would turn black in a JPEG.
        .flatten({ background: '#ffffff' })
        // CMYK (with or without a profile), 16-bit and greyscale all end up as 8-bit sRGB.
        .toColourspace('srgb')
        .jpeg({ quality: options.quality ?? DEFAULT_QUALITY, mozjpeg: false })
        .toFile(tmp);
    });
  } catch (e) {
    throw tooManyPixels(e) ?? new MediaError('damaged', undefined, { cause: e });
  }
  return { width: info?.width ?? 0, height: info?.height ?? 0 };
}

/* Seven-segment digits: the placeholder must not depend on which fonts a machine has. */
const SEGMENTS: Record<string, string> = {
  '0': 'abcdef',
  '1': 'bc',
  '2': 'abged',
  '3': 'abgcd',
  '4': 'fgbc',
  '5': 'afgcd',
  '6': 'afgedc',
  '7': 'abc',
  '8': 'abcdefg',
  '9': 'abcdfg',
};

function digitPaths(text: string, x0: number, y0: number, h: number): string {
  const w = h / 2;
  const t = h / 10;
  const gap = w * 0.5;
  const seg = (x: number, y: number, horizontal: boolean): string =>
    horizontal
      ? `<rect x="${x + t / 2}" y="${y - t / 2}" width="${w - t}" height="${t}" rx="${t / 2}"/>`
      : `<rect x="${x - t / 2}" y="${y + t / 2}" width="${t}" height="${h / 2 - t}" rx="${t / 2}"/>`;
  let out = '';
  [...text].forEach((ch, i) => {
    const x = x0 + i * (w + gap);
    const on = SEGMENTS[ch] ?? '';
    if (on.includes('a')) out += seg(x, y0, true);
    if (on.includes('b')) out += seg(x + w, y0, false);
    if (on.includes('c')) out += seg(x + w, y0 + h / 2, false);
    if (on.includes('d')) out += seg(x, y0 + h, true);
    if (on.includes('e')) out += seg(x, y0 + h / 2, false);
    if (on.includes('f')) out += seg(x, y0, false);
    if (on.includes('g')) out += seg(x, y0 + h / 2, true);
  });
  return out;
}

/** A white page of the page's aspect ratio with its number, for pages that cannot be rendered. */
export async function makePlaceholderPreview(
  widthPt: number,
  heightPt: number,
  pageNumber: number,
  dest: string,
  options: PreviewOptions = {},
): Promise<void> {
  const maxSide = options.maxSide ?? DEFAULT_MAX_SIDE;
  const ratio = widthPt > 0 && heightPt > 0 ? widthPt / heightPt : 210 / 297;
  const width = Math.max(1, Math.round(ratio >= 1 ? maxSide : maxSide * ratio));
  const height = Math.max(1, Math.round(ratio >= 1 ? maxSide / ratio : maxSide));
  const label = String(pageNumber);
  const digitH = Math.min(height * 0.2, (width * 0.6) / (label.length * 0.75));
  const labelW = label.length * digitH * 0.75 - digitH * 0.25;
  const border = Math.max(1, Math.round(Math.min(width, height) / 100));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<rect x="${border / 2}" y="${border / 2}" width="${width - border}" height="${height - border}" fill="none" stroke="#c8c8c8" stroke-width="${border}"/>` +
    `<g fill="#9a9a9a">${digitPaths(label, (width - labelW) / 2, (height - digitH) / 2, digitH)}</g>` +
    `</svg>`;
  await mkdir(path.dirname(dest), { recursive: true });
  await writeAtomically(dest, async (tmp) => {
    await sharp(Buffer.from(svg))
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: options.quality ?? DEFAULT_QUALITY })
      .toFile(tmp);
  });
}

/**
 * The JPEG of one page, rendered with pdf.js on a worker thread (media/pdfjs.ts renderPdfPage), which
 * keeps the document open a short while for the file's next pages. A page that pdf.js cannot render (pdf-lib may still read
 * its boxes, e.g. a page tree listing a page twice, or a file without a trailer) gets a numbered
 * placeholder of the right aspect ratio, so that every page has a preview.
 */
export async function makePdfPagePreview(
  src: string,
  pageNumber: number,
  dest: string,
  options: PdfPreviewOptions = {},
): Promise<{ placeholder: boolean }> {
  const type = sniffType(await readHead(src));
  if (type !== 'pdf') throw new MediaError('wrong-type');
  const maxSide = options.maxSide ?? DEFAULT_MAX_SIDE;
  const quality = options.quality ?? DEFAULT_QUALITY;
  await mkdir(path.dirname(dest), { recursive: true });

  // Over its time, or its thread died (out of heap): the page gets a placeholder.
  const render = (file: string) => renderPdfPage(file, {
    pageNumber,
    maxSide,
    quality,
    maxImagePixels: MAX_PAGE_IMAGE_PIXELS,
    timeoutMs: options.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS,
  });
  let answer = await render(options.renderFrom ?? src);
  if (options.renderFrom && answer.outcome === 'no-document') answer = await render(src);
  if (answer.outcome === 'encrypted') throw new MediaError('encrypted');
  if (answer.outcome === 'rendered') {
    await writeAtomically(dest, (tmp) => writeFile(tmp, answer.jpeg));
    return { placeholder: false };
  }

  let size = options.pageSizePt;
  if (!size) {
    let meta: PdfMeta | null = null;
    try {
      meta = await readPdfMeta(src);
    } catch (e) {
      if (e instanceof MediaError && e.code === 'encrypted') throw e;
      // Neither pdf.js nor pdf-lib reads it: nothing says the page exists.
      if (answer.outcome === 'no-document') throw new MediaError('damaged', undefined, { cause: e });
    }
    size = meta?.pageSizes[pageNumber - 1];
  }
  await makePlaceholderPreview(size?.widthPt ?? 595, size?.heightPt ?? 842, pageNumber, dest, { maxSide, quality });
  return { placeholder: true };
}
