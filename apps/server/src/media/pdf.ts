import { readFile } from 'node:fs/promises';
import type { PDFDict, PDFDocument, PDFObject } from '@cantoo/pdf-lib';
import { MediaError } from './errors.ts';
import { sniffType } from './magic.ts';
import { openPdf } from './pdfjs.ts';

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

export interface PdfMeta {
  pages: number;
  pageSizes: PdfPageSize[];
  /** True for a file that has /Encrypt but opens without a password (owner password only). */
  encrypted: boolean;
  /**
   * Asked for with `balanceTree` and made only for a flat, large page tree (balancedTreeUpdate): the
   * bytes that, appended to the file, make a copy whose page tree is balanced, for the previews.
   */
  balancedTree?: Uint8Array;
}

/** More pages than any print job; beyond it a page tree is a loop or an attack. */
export const MAX_PDF_PAGES = 10_000;
const MAX_TREE_NODES = 200_000;
/**
 * A root /Pages node with more kids than this gets a balanced preview copy (balancedTreeUpdate): pdf.js
 * reads every kid of the root when it opens a document, ≈ 0.1 ms a page, so up to here a flat tree adds
 * ≈ 13 ms to a first preview, against the copy's cost of the file's size again on disk.
 */
export const FLAT_TREE_MAX_KIDS = 128;
/** Kids per node of the balanced copy's tree (pdf.js still reads every kid of the node holding a page). */
export const BALANCED_NODE_KIDS = 100;

type PdfLib = typeof import('@cantoo/pdf-lib');

/**
 * @cantoo/pdf-lib, loaded with the first PDF: it costs ≈ 32 MB of memory once imported (a bare process
 * 41 → 73 MB), which a shop that uploads photos never needs (bench/HISTORY.md, the upload's peak RSS).
 */
let pdfLib: PdfLib | undefined;
/** The PDF names the page walk compares with, made by loadPdfLib(). */
let N: ReturnType<typeof namesOf>;

function namesOf(lib: PdfLib) {
  const { PDFName } = lib;
  return {
    Pages: PDFName.of('Pages'),
    Kids: PDFName.of('Kids'),
    Count: PDFName.of('Count'),
    Type: PDFName.of('Type'),
    Page: PDFName.of('Page'),
    MediaBox: PDFName.of('MediaBox'),
    CropBox: PDFName.of('CropBox'),
    TrimBox: PDFName.of('TrimBox'),
    Rotate: PDFName.of('Rotate'),
    UserUnit: PDFName.of('UserUnit'),
  } as const;
}

async function loadPdfLib(): Promise<void> {
  if (!pdfLib) {
    pdfLib = await import('@cantoo/pdf-lib');
    N = namesOf(pdfLib);
  }
}

/** The library, once loadPdfLib() has run (every reader of a page tree awaits it first). */
function L(): PdfLib {
  if (!pdfLib) throw new Error('@cantoo/pdf-lib used before loadPdfLib()');
  return pdfLib;
}

export function ptToMm(pt: number): number {
  return Math.round((pt / 72) * 25.4 * 10) / 10;
}

function damaged(cause?: unknown): MediaError {
  return new MediaError('damaged', undefined, cause === undefined ? undefined : { cause });
}

function numberOf(obj: PDFObject | undefined): number | undefined {
  return obj instanceof L().PDFNumber ? obj.asNumber() : undefined;
}

/** Wall-clock budget for reading one file; a file that takes longer is refused with 'timeout'. */
export const PDF_PARSE_BUDGET_MS = 20_000;

export interface PdfReadOptions {
  /** Parsing budget in ms; a file that takes longer is refused with 'timeout'. */
  budgetMs?: number;
  /** Also make `balancedTree` when the page tree is flat and large (at upload: the previews' copy). */
  balanceTree?: boolean;
}

/** pdf-lib cannot be stopped while it parses (it runs in the server's thread): its time is checked after. */
function checkDeadline(deadline: number): void {
  if (performance.now() > deadline) throw new MediaError('timeout');
}

/**
 * pdf.js opens the file first (media/pdfjs.ts, on a worker thread): it tells a file that needs a
 * password (PasswordException) from one that opens without (owner password only), and it refuses junk
 * and broken structure quickly (it finds objects through the xref table and rebuilds a broken one in
 * one pass). pdf-lib, which reads the boxes afterwards, skips junk a byte at a time (1 MB took 10 s,
 * with the server's thread blocked), so it only ever sees files that pdf.js could open. A file that
 * pdf.js cannot open within the budget has its thread ended.
 */
async function openWithPdfJs(bytes: Uint8Array, budgetMs: number): Promise<{ encrypted: boolean; deadline: number }> {
  const deadline = performance.now() + budgetMs;
  const answer = await openPdf(bytes, budgetMs);
  switch (answer.outcome) {
    case 'opened':
      return { encrypted: answer.encrypted, deadline };
    case 'encrypted':
      throw new MediaError('encrypted');
    case 'timeout':
      throw new MediaError('timeout');
    case 'no-document':
      throw damaged(new Error(answer.reason));
    case 'thread-died':
      throw damaged(answer.cause);
  }
}

function lastIndexOf(bytes: Buffer, keyword: string): number {
  return bytes.lastIndexOf(keyword, undefined, 'latin1');
}

/**
 * The page tree through pdf-lib's public API; @cantoo/pdf-lib (a maintained fork of pdf-lib)
 * decrypts a file whose user password is empty, object streams included. A strict pass first,
 * then a lenient one that keeps unparsable objects aside, then one without a broken tail
 * ("startxref oops": every object before it is kept).
 */
async function loadDocument(bytes: Buffer): Promise<{ doc: PDFDocument; strict: boolean }> {
  await loadPdfLib();
  const load = (b: Uint8Array, throwOnInvalidObject: boolean) =>
    L().PDFDocument.load(b, { password: '', updateMetadata: false, throwOnInvalidObject, parseSpeed: L().ParseSpeeds.Fastest });
  let lastError: unknown;
  // Only a file read strictly, whole, may get an update appended (balancedTreeUpdate).
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

async function loadPdf(filePath: string, options: PdfReadOptions): Promise<{ doc: PDFDocument; encrypted: boolean; strict: boolean }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch (e) {
    throw damaged(e);
  }
  if (sniffType(bytes.subarray(0, 1029)) !== 'pdf') throw new MediaError('wrong-type');
  const { encrypted, deadline } = await openWithPdfJs(bytes, options.budgetMs ?? PDF_PARSE_BUDGET_MS);
  const { doc, strict } = await loadDocument(bytes);
  checkDeadline(deadline);
  return { doc, encrypted, strict };
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

/**
 * Walks the page tree depth-first in document order. A kid listed twice is two pages (as qpdf
 * and pdf-lib count pdfium_bug_1229106); a kid that is its own ancestor is skipped; a kid that
 * does not resolve to a dictionary makes the file damaged.
 */
function collectPages(doc: PDFDocument): Array<{ page: PDFDict; inherited: Inherited }> {
  const catalog: unknown = doc.catalog;
  if (!(catalog instanceof L().PDFDict)) throw damaged();
  const root = catalog.lookup(N.Pages);
  if (!(root instanceof L().PDFDict)) throw damaged();

  const pages: Array<{ page: PDFDict; inherited: Inherited }> = [];
  const stack: Frame[] = [
    { node: root, inherited: { mediaBox: undefined, cropBox: undefined, rotate: undefined }, ancestors: new Set() },
  ];
  let visited = 0;
  while (stack.length > 0) {
    const { node, inherited, ancestors } = stack.pop()!;
    if (++visited > MAX_TREE_NODES) throw damaged();
    const here: Inherited = {
      mediaBox: node.lookup(N.MediaBox) ?? inherited.mediaBox,
      cropBox: node.lookup(N.CropBox) ?? inherited.cropBox,
      rotate: node.lookup(N.Rotate) ?? inherited.rotate,
    };
    const kids = node.lookup(N.Kids);
    if (node.lookup(N.Type) !== N.Page && kids instanceof L().PDFArray) {
      const nextAncestors = new Set(ancestors).add(node);
      // Pushed in reverse so that pages pop off the stack in document order.
      for (let i = kids.size() - 1; i >= 0; i--) {
        const kid = kids.lookup(i);
        // A kid that is missing (a truncated file) would silently drop pages: refuse instead.
        if (!(kid instanceof L().PDFDict)) throw damaged();
        if (!nextAncestors.has(kid)) stack.push({ node: kid, inherited: here, ancestors: nextAncestors });
      }
    } else {
      pages.push({ page: node, inherited: here });
      if (pages.length > MAX_PDF_PAGES) throw new MediaError('too-large', 'PDF页数过多，无法处理');
    }
  }
  if (pages.length === 0) throw damaged();
  return pages;
}

/** Normalised [llx, lly, urx, ury]; inverted corners are swapped. Null when unusable. */
function readBox(obj: PDFObject | undefined): { width: number; height: number } | null {
  if (!(obj instanceof L().PDFArray) || obj.size() !== 4) return null;
  const v: number[] = [];
  for (let i = 0; i < 4; i++) {
    const n = numberOf(obj.lookup(i));
    if (n === undefined || !Number.isFinite(n)) return null;
    v.push(n);
  }
  const [x1, y1, x2, y2] = v as [number, number, number, number];
  const width = Math.abs(x2 - x1);
  const height = Math.abs(y2 - y1);
  if (width === 0 || height === 0) return null;
  return { width, height };
}

function normaliseRotate(obj: PDFObject | undefined): 0 | 90 | 180 | 270 {
  const raw = numberOf(obj) ?? 0;
  // Like pdf.js, a value that is not a multiple of 90 is ignored.
  if (!Number.isInteger(raw) || raw % 90 !== 0) return 0;
  return (((raw % 360) + 360) % 360) as 0 | 90 | 180 | 270;
}

/**
 * The TrimBox is taken as written, not clipped to the CropBox: it is the finished size the
 * customer designed (pdfium_cropped_text p3 has a TrimBox reaching outside its CropBox).
 */
function pageSize(page: PDFDict, inherited: Inherited): PdfPageSize {
  const candidates: Array<[PdfBoxName, PDFObject | undefined]> = [
    ['TrimBox', page.lookup(N.TrimBox)],
    ['CropBox', inherited.cropBox],
    ['MediaBox', inherited.mediaBox],
  ];
  let chosen: { name: PdfBoxName; width: number; height: number } | null = null;
  for (const [name, obj] of candidates) {
    const box = readBox(obj);
    if (box) {
      chosen = { name, ...box };
      break;
    }
  }
  if (!chosen) throw damaged();
  const userUnit = numberOf(page.lookup(N.UserUnit)) ?? 1;
  const scale = Number.isFinite(userUnit) && userUnit > 0 ? userUnit : 1;
  const rotate = normaliseRotate(inherited.rotate);
  const swap = rotate === 90 || rotate === 270;
  const widthPt = (swap ? chosen.height : chosen.width) * scale;
  const heightPt = (swap ? chosen.width : chosen.height) * scale;
  return { widthPt, heightPt, widthMm: ptToMm(widthPt), heightMm: ptToMm(heightPt), box: chosen.name, rotate };
}

/**
 * For a flat, large page tree (the root /Pages node holds more than FLAT_TREE_MAX_KIDS pages, as pdf-lib
 * and many tools write it): the bytes of an incremental update which, appended to the file's bytes,
 * give the same document with its root's kids in nodes of BALANCED_NODE_KIDS pages, each with its
 * /Count. Written with @cantoo/pdf-lib's public snapshot API (saveIncremental); only the tree's nodes
 * are new or changed, never a page or its content. Keep in mind:
 * - the pages keep their /Parent (the root): pdf.js reads a page's /Parent only to inherit its
 *   attributes (Resources, MediaBox, CropBox, Rotate), which the new nodes do not hold, so every page
 *   inherits what it did; rewriting 3,000 pages' dictionaries would make the update ≈ the file's size;
 * - a classic cross-reference section: a reader that rebuilds a damaged file's table from its objects
 *   finds the update's nodes last, so they win there too;
 * - null for anything else: an encrypted file (the nodes would have to be written encrypted), a tree
 *   with nodes under its root, a root whose /Count disagrees with its kids (a reader may believe either).
 */
function balancedTreeUpdate(doc: PDFDocument): Promise<Uint8Array> | null {
  const { PDFArray, PDFDict, PDFRef } = L();
  if (doc.context.trailerInfo.Encrypt) return null;
  const rootRef = doc.catalog.get(N.Pages);
  if (!(rootRef instanceof PDFRef)) return null;
  const root = doc.context.lookup(rootRef);
  if (!(root instanceof PDFDict)) return null;
  const kids = root.lookup(N.Kids);
  if (!(kids instanceof PDFArray) || kids.size() <= FLAT_TREE_MAX_KIDS || numberOf(root.lookup(N.Count)) !== kids.size()) return null;
  const leaves = kids.asArray();
  for (const kid of leaves) {
    if (!(kid instanceof PDFRef)) return null;
    const page = doc.context.lookup(kid);
    if (!(page instanceof PDFDict) || (page.lookup(N.Type) !== N.Page && page.lookup(N.Kids) instanceof PDFArray)) return null;
  }
  // New objects must be numbered above every number the file's xref knows, free ones included.
  const size = doc.context.trailerInfo.Size;
  if (size instanceof L().PDFNumber && size.asNumber() - 1 > doc.context.largestObjectNumber) return null;
  const nodes = [];
  for (let i = 0; i < leaves.length; i += BALANCED_NODE_KIDS) {
    const group = leaves.slice(i, i + BALANCED_NODE_KIDS);
    nodes.push(doc.context.register(doc.context.obj({ Type: 'Pages', Parent: rootRef, Kids: group, Count: group.length })));
  }
  root.set(N.Kids, doc.context.obj(nodes));
  // The snapshot is taken after the changes and told what they were: one taken before (or a document
  // loaded forIncrementalUpdate) tracks every change by searching the whole document for its owner,
  // which for the kids of 10,000 pages never ended.
  const snapshot = doc.takeSnapshot();
  snapshot.markRefsForSave([rootRef, ...nodes]);
  return doc.saveIncremental(snapshot, { useObjectStreams: false });
}

/** Page boxes and rotation; content streams are never decoded. */
export async function readPdfMeta(filePath: string, options: PdfReadOptions = {}): Promise<PdfMeta> {
  const { doc, encrypted, strict } = await loadPdf(filePath, options);
  const pageSizes = collectPages(doc).map(({ page, inherited }) => pageSize(page, inherited));
  const meta: PdfMeta = { pages: pageSizes.length, pageSizes, encrypted };
  if (options.balanceTree && strict && !encrypted) {
    const update = await balancedTreeUpdate(doc);
    if (update) meta.balancedTree = update;
  }
  return meta;
}

/** Counts the leaves of the page tree rather than trusting /Count, which writers get wrong. */
export async function readPdfPageCount(filePath: string, options: PdfReadOptions = {}): Promise<number> {
  const { doc } = await loadPdf(filePath, options);
  return collectPages(doc).length;
}
