import type * as PdfLibModule from '@cantoo/pdf-lib';
import type { PDFDict, PDFDocument, PDFObject } from '@cantoo/pdf-lib';

/**
 * A PDF's pages and their sizes as the print shop measures them (../shared/spec/decisions.md §5): the
 * page tree walked through @cantoo/pdf-lib's public API, each page's TrimBox → CropBox → MediaBox (the
 * first usable, inherited where the spec lets it be), its /UserUnit and its /Rotate. The server's reader
 * (apps/server/src/media/pdf.ts) and the browser's preflight worker both run these functions, on the
 * library each of them loads (passed in: the server loads it with its first PDF), so the two cannot
 * disagree on a page's size.
 */

export type PdfLib = typeof PdfLibModule;
export type PdfBoxName = 'TrimBox' | 'CropBox' | 'MediaBox';

export interface PdfPageSize {
  /** As the page is displayed: after /Rotate, 90/270 swap width and height. */
  widthMm: number;
  heightMm: number;
  widthPt: number;
  heightPt: number;
  box: PdfBoxName;
  rotate: 0 | 90 | 180 | 270;
}

/** More pages than any print job; beyond it a page tree is a loop or an attack. */
export const MAX_PDF_PAGES = 10_000;
const MAX_TREE_NODES = 200_000;

/** Why a page tree cannot be measured: the server turns it into its MediaError of the same code. */
export class PdfStructureError extends Error {
  override readonly name = 'PdfStructureError';
  constructor(
    public readonly code: 'damaged' | 'too-large',
    options?: { cause?: unknown },
  ) {
    super(code === 'too-large' ? 'PDF页数过多，无法处理' : '文件破损，无法读取', options);
  }
}

export function ptToMm(pt: number): number {
  return Math.round((pt / 72) * 25.4 * 10) / 10;
}

const damaged = (cause?: unknown) => new PdfStructureError('damaged', cause === undefined ? undefined : { cause });

function namesOf(lib: PdfLib) {
  const { PDFName } = lib;
  return {
    Pages: PDFName.of('Pages'),
    Kids: PDFName.of('Kids'),
    Type: PDFName.of('Type'),
    Page: PDFName.of('Page'),
    MediaBox: PDFName.of('MediaBox'),
    CropBox: PDFName.of('CropBox'),
    TrimBox: PDFName.of('TrimBox'),
    Rotate: PDFName.of('Rotate'),
    UserUnit: PDFName.of('UserUnit'),
  } as const;
}
type Names = ReturnType<typeof namesOf>;
const names = new WeakMap<PdfLib, Names>();
function N(lib: PdfLib): Names {
  let n = names.get(lib);
  if (!n) names.set(lib, (n = namesOf(lib)));
  return n;
}

const numberOf = (lib: PdfLib, obj: PDFObject | undefined) => (obj instanceof lib.PDFNumber ? obj.asNumber() : undefined);

/**
 * The page tree through pdf-lib's public API; @cantoo/pdf-lib (a maintained fork of pdf-lib)
 * decrypts a file whose user password is empty, object streams included. A strict pass first,
 * then a lenient one that keeps unparsable objects aside, then one without a broken tail
 * ("startxref oops": every object before it is kept). `strict` tells whether the first pass read it.
 */
export async function loadPdfDocument(lib: PdfLib, bytes: Uint8Array): Promise<{ doc: PDFDocument; strict: boolean }> {
  const load = (b: Uint8Array, throwOnInvalidObject: boolean) =>
    lib.PDFDocument.load(b, { password: '', updateMetadata: false, throwOnInvalidObject, parseSpeed: lib.ParseSpeeds.Fastest });
  let lastError: unknown;
  for (const [i, attempt] of [
    () => load(bytes, true),
    () => load(bytes, false),
    () => {
      const tail = lastIndexOf(bytes, 'startxref');
      if (tail <= 0) throw lastError;
      return load(bytes.subarray(0, tail), false);
    },
  ].entries()) {
    try {
      return { doc: await attempt(), strict: i === 0 };
    } catch (e) {
      lastError = e;
    }
  }
  throw damaged(lastError);
}

function lastIndexOf(bytes: Uint8Array, keyword: string): number {
  const k = Array.from(keyword, (c) => c.charCodeAt(0));
  outer: for (let i = bytes.length - k.length; i >= 0; i--) {
    for (let j = 0; j < k.length; j++) if (bytes[i + j] !== k[j]) continue outer;
    return i;
  }
  return -1;
}

interface Inherited {
  mediaBox: PDFObject | undefined;
  cropBox: PDFObject | undefined;
  rotate: PDFObject | undefined;
}

interface Frame {
  node: PDFDict;
  inherited: Inherited;
  ancestors: ReadonlySet<PDFDict>;
}

export type PdfPageNode = { page: PDFDict; inherited: Inherited };

/**
 * Walks the page tree depth-first in document order. A kid listed twice is two pages (as qpdf
 * and pdf-lib count pdfium_bug_1229106); a kid that is its own ancestor is skipped; a kid that
 * does not resolve to a dictionary makes the file damaged.
 */
export function collectPages(lib: PdfLib, doc: PDFDocument): PdfPageNode[] {
  const n = N(lib);
  const catalog: unknown = doc.catalog;
  if (!(catalog instanceof lib.PDFDict)) throw damaged();
  const root = catalog.lookup(n.Pages);
  if (!(root instanceof lib.PDFDict)) throw damaged();

  const pages: PdfPageNode[] = [];
  const stack: Frame[] = [
    { node: root, inherited: { mediaBox: undefined, cropBox: undefined, rotate: undefined }, ancestors: new Set() },
  ];
  let visited = 0;
  while (stack.length > 0) {
    const { node, inherited, ancestors } = stack.pop()!;
    if (++visited > MAX_TREE_NODES) throw damaged();
    const here: Inherited = {
      mediaBox: node.lookup(n.MediaBox) ?? inherited.mediaBox,
      cropBox: node.lookup(n.CropBox) ?? inherited.cropBox,
      rotate: node.lookup(n.Rotate) ?? inherited.rotate,
    };
    const kids = node.lookup(n.Kids);
    if (node.lookup(n.Type) !== n.Page && kids instanceof lib.PDFArray) {
      const nextAncestors = new Set(ancestors).add(node);
      // Pushed in reverse so that pages pop off the stack in document order.
      for (let i = kids.size() - 1; i >= 0; i--) {
        const kid = kids.lookup(i);
        // A kid that is missing (a truncated file) would silently drop pages: refuse instead.
        if (!(kid instanceof lib.PDFDict)) throw damaged();
        if (!nextAncestors.has(kid)) stack.push({ node: kid, inherited: here, ancestors: nextAncestors });
      }
    } else {
      pages.push({ page: node, inherited: here });
      if (pages.length > MAX_PDF_PAGES) throw new PdfStructureError('too-large');
    }
  }
  if (pages.length === 0) throw damaged();
  return pages;
}

/** Normalised [llx, lly, urx, ury]; inverted corners are swapped. Null when unusable. */
function readBox(lib: PdfLib, obj: PDFObject | undefined): { width: number; height: number } | null {
  if (!(obj instanceof lib.PDFArray) || obj.size() !== 4) return null;
  const v: number[] = [];
  for (let i = 0; i < 4; i++) {
    const x = numberOf(lib, obj.lookup(i));
    if (x === undefined || !Number.isFinite(x)) return null;
    v.push(x);
  }
  const [x1, y1, x2, y2] = v as [number, number, number, number];
  const width = Math.abs(x2 - x1);
  const height = Math.abs(y2 - y1);
  if (width === 0 || height === 0) return null;
  return { width, height };
}

function normaliseRotate(lib: PdfLib, obj: PDFObject | undefined): 0 | 90 | 180 | 270 {
  const raw = numberOf(lib, obj) ?? 0;
  // Like pdf.js, a value that is not a multiple of 90 is ignored.
  if (!Number.isInteger(raw) || raw % 90 !== 0) return 0;
  return (((raw % 360) + 360) % 360) as 0 | 90 | 180 | 270;
}

/**
 * The TrimBox is taken as written, not clipped to the CropBox: it is the finished size the
 * customer designed (pdfium_cropped_text p3 has a TrimBox reaching outside its CropBox).
 */
export function pageSize(lib: PdfLib, { page, inherited }: PdfPageNode): PdfPageSize {
  const n = N(lib);
  const candidates: Array<[PdfBoxName, PDFObject | undefined]> = [
    ['TrimBox', page.lookup(n.TrimBox)],
    ['CropBox', inherited.cropBox],
    ['MediaBox', inherited.mediaBox],
  ];
  let chosen: { name: PdfBoxName; width: number; height: number } | null = null;
  for (const [name, obj] of candidates) {
    const box = readBox(lib, obj);
    if (box) {
      chosen = { name, ...box };
      break;
    }
  }
  if (!chosen) throw damaged();
  const userUnit = numberOf(lib, page.lookup(n.UserUnit)) ?? 1;
  const scale = Number.isFinite(userUnit) && userUnit > 0 ? userUnit : 1;
  const rotate = normaliseRotate(lib, inherited.rotate);
  const swap = rotate === 90 || rotate === 270;
  const widthPt = (swap ? chosen.height : chosen.width) * scale;
  const heightPt = (swap ? chosen.width : chosen.height) * scale;
  return { widthPt, heightPt, widthMm: ptToMm(widthPt), heightMm: ptToMm(heightPt), box: chosen.name, rotate };
}

/** The pages' sizes of a loaded document, in document order. */
export function pageSizes(lib: PdfLib, doc: PDFDocument): PdfPageSize[] {
  return collectPages(lib, doc).map((p) => pageSize(lib, p));
}

/** Where a whole file's `startxref` is looked for (the specification puts it in the last 1,024 bytes). */
const TAIL_BYTES = 2048;

/** What the browser's preflight knows of a PDF: its pages, each with its size in mm. */
export type PdfMeasure = { format: 'pdf'; pages: number; pageSizes: ReadonlyArray<{ widthMm: number; heightMm: number }> };

/**
 * A PDF's pages and sizes for the preflight, by the rules above, or null where only the server can
 * tell: an encrypted file (the server asks pdf.js whether it needs a password), a file without its
 * `startxref` tail or that opens only leniently (the server's pdf.js may call it damaged: pdfium's
 * notrailer file opens in pdf-lib but not in pdf.js), a page tree that is damaged or too large. Never
 * throws. The server, which opens every file with pdf.js first, stays the authority.
 */
export async function measurePdf(lib: PdfLib, bytes: Uint8Array): Promise<PdfMeasure | null> {
  try {
    const latin1 = (b: Uint8Array) => Array.from(b, (c) => String.fromCharCode(c)).join('');
    if (!latin1(bytes.subarray(0, 1024)).includes('%PDF-')) return null;
    if (!latin1(bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES))).includes('startxref')) return null;
    const doc = await lib.PDFDocument.load(bytes, { password: '', updateMetadata: false, throwOnInvalidObject: true, parseSpeed: lib.ParseSpeeds.Fastest });
    if (doc.isEncrypted || doc.context.trailerInfo.Encrypt) return null;
    const sizes = pageSizes(lib, doc);
    return { format: 'pdf', pages: sizes.length, pageSizes: sizes.map((s) => ({ widthMm: s.widthMm, heightMm: s.heightMm })) };
  } catch {
    return null;
  }
}
