import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type OutputInfo } from './sharp.ts';
import { MediaError } from './errors.ts';
import { readHead, sniffType } from './magic.ts';
import { readPdfMeta, type PdfMeta } from './pdf.ts';

export interface PreviewOptions {
  /** Longest side in pixels; default 1024. */
  maxSide?: number;
  /** JPEG quality 1-100; default 80. */
  quality?: number;
}

export interface PdfPreviewOptions extends PreviewOptions {
  /** Pages beyond this get no preview; default all. */
  maxPages?: number;
  /** A page whose rendering takes longer gets a placeholder; default 20 s. */
  pageTimeoutMs?: number;
}

export interface PdfPreviewResult {
  /** File names inside destDir, in page order: p0001.jpg, p0002.jpg … */
  files: string[];
  /** 1-based numbers of the pages that got a placeholder instead of a rendering. */
  placeholderPages: number[];
}

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
    if (e instanceof Error && /pixel limit/i.test(e.message)) {
      throw new MediaError('too-large', '图片像素过大，无法处理', { cause: e });
    }
    throw new MediaError('damaged', undefined, { cause: e });
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

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type Canvas = typeof import('@napi-rs/canvas');
type PdfDoc = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDoc['getPage']>>;
type RenderParams = Parameters<PdfPage['render']>[0];
let pdfjsPromise: Promise<PdfJs> | undefined;
let canvasPromise: Promise<Canvas> | undefined;

/** Loaded on first use: it is large and only previews need it. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

/** Loaded on the first page rendered, like pdf.js: its native library is tens of megabytes resident. */
function loadCanvas(): Promise<Canvas> {
  canvasPromise ??= import('@napi-rs/canvas');
  return canvasPromise;
}

function pdfjsAssetDirs(): { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string; iccUrl: string } {
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json, but its main entry is in build/.
  const root = path.resolve(path.dirname(require.resolve('pdfjs-dist')), '..');
  const dir = (name: string) => `${path.join(root, name)}${path.sep}`;
  return { standardFontDataUrl: dir('standard_fonts'), cMapUrl: dir('cmaps'), wasmUrl: dir('wasm'), iccUrl: dir('iccs') };
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new MediaError('timeout'));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One JPEG per page, rendered with pdf.js. Pages that pdf.js cannot render (pdf-lib may still
 * read their boxes, e.g. a page tree listing a page twice, or a file without a trailer) get a
 * numbered placeholder of the right aspect ratio, so that every page has a preview.
 */
export async function makePdfPagePreviews(
  src: string,
  destDir: string,
  options: PdfPreviewOptions = {},
): Promise<PdfPreviewResult> {
  const type = sniffType(await readHead(src));
  if (type !== 'pdf') throw new MediaError('wrong-type');

  let meta: PdfMeta | null = null;
  try {
    meta = await readPdfMeta(src);
  } catch (e) {
    if (e instanceof MediaError && e.code === 'encrypted') throw e;
  }

  const pdfjs = await loadPdfJs();
  let doc: PdfDoc | null = null;
  try {
    const data = new Uint8Array(await readFile(src));
    doc = await pdfjs.getDocument({
      data,
      ...pdfjsAssetDirs(),
      cMapPacked: true,
      isEvalSupported: false,
      verbosity: 0,
    }).promise;
  } catch (e) {
    if (e instanceof Error && e.name === 'PasswordException') throw new MediaError('encrypted', undefined, { cause: e });
    if (!meta) throw new MediaError('damaged', undefined, { cause: e });
  }

  const total = Math.min(meta?.pages ?? doc?.numPages ?? 0, options.maxPages ?? Infinity);
  if (total === 0) throw new MediaError('damaged');
  await mkdir(destDir, { recursive: true });
  const maxSide = options.maxSide ?? DEFAULT_MAX_SIDE;
  const quality = options.quality ?? DEFAULT_QUALITY;
  const files: string[] = [];
  const placeholderPages: number[] = [];
  try {
    for (let n = 1; n <= total; n++) {
      const dest = path.join(destDir, previewFileName(n));
      let done = false;
      if (doc && n <= doc.numPages) {
        done = await renderPage(doc, n, dest, maxSide, quality, options.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS);
      }
      if (!done) {
        const size = meta?.pageSizes[n - 1];
        await makePlaceholderPreview(size?.widthPt ?? 595, size?.heightPt ?? 842, n, dest, { maxSide, quality });
        placeholderPages.push(n);
      }
      files.push(previewFileName(n));
    }
  } finally {
    await doc?.destroy();
  }
  return { files, placeholderPages };
}

async function renderPage(
  doc: PdfDoc,
  pageNumber: number,
  dest: string,
  maxSide: number,
  quality: number,
  timeoutMs: number,
): Promise<boolean> {
  let page: PdfPage | undefined;
  try {
    page = await doc.getPage(pageNumber);
    const { createCanvas } = await loadCanvas();
    const unit = page.getViewport({ scale: 1 });
    const scale = maxSide / Math.max(unit.width, unit.height, 1);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    // pdf.js types its parameters with the DOM canvas; @napi-rs/canvas implements the same API.
    const task = page.render({
      canvas: canvas as unknown as RenderParams['canvas'],
      canvasContext: context as unknown as RenderParams['canvasContext'],
      viewport,
    });
    await withTimeout(task.promise, timeoutMs, () => task.cancel());
    const jpeg = await canvas.encode('jpeg', quality);
    await writeAtomically(dest, (tmp) => writeFile(tmp, jpeg));
    return true;
  } catch {
    return false;
  } finally {
    page?.cleanup();
  }
}
