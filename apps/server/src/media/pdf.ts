import { readFile } from 'node:fs/promises';
import type { PDFDocument, PDFObject } from '@cantoo/pdf-lib';
import { loadPdfDocument, pageSizes as measurePages, collectPages, PdfStructureError, type PdfLib, type PdfPageSize } from '@portal/measure/pdf';
import { MediaError } from './errors.ts';
import { sniffType } from './magic.ts';
import { openPdf } from './pdfjs.ts';

export type { PdfBoxName, PdfPageSize } from '@portal/measure/pdf';
export { MAX_PDF_PAGES, ptToMm } from '@portal/measure/pdf';

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

/**
 * A root /Pages node with more kids than this gets a balanced preview copy (balancedTreeUpdate): pdf.js
 * reads every kid of the root when it opens a document, ≈ 0.1 ms a page, so up to here a flat tree adds
 * ≈ 13 ms to a first preview, against the copy's cost of the file's size again on disk.
 */
export const FLAT_TREE_MAX_KIDS = 128;
/** Kids per node of the balanced copy's tree (pdf.js still reads every kid of the node holding a page). */
export const BALANCED_NODE_KIDS = 100;

/**
 * @cantoo/pdf-lib, loaded with the first PDF: it costs ≈ 32 MB of memory once imported (a bare process
 * 41 → 73 MB), which a shop that uploads photos never needs (bench/HISTORY.md, the upload's peak RSS).
 */
let pdfLib: PdfLib | undefined;

async function loadPdfLib(): Promise<PdfLib> {
  pdfLib ??= await import('@cantoo/pdf-lib');
  return pdfLib;
}

function damaged(cause?: unknown): MediaError {
  return new MediaError('damaged', undefined, cause === undefined ? undefined : { cause });
}

/** The shared rules' refusal as the server's MediaError of the same code. */
function asMediaError(e: unknown): unknown {
  return e instanceof PdfStructureError ? new MediaError(e.code, e.message, e.cause === undefined ? undefined : { cause: e.cause }) : e;
}

function numberOf(obj: PDFObject | undefined): number | undefined {
  return pdfLib && obj instanceof pdfLib.PDFNumber ? obj.asNumber() : undefined;
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

async function loadPdf(filePath: string, options: PdfReadOptions): Promise<{ doc: PDFDocument; encrypted: boolean; strict: boolean }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch (e) {
    throw damaged(e);
  }
  if (sniffType(bytes.subarray(0, 1029)) !== 'pdf') throw new MediaError('wrong-type');
  const { encrypted, deadline } = await openWithPdfJs(bytes, options.budgetMs ?? PDF_PARSE_BUDGET_MS);
  const lib = await loadPdfLib();
  const { doc, strict } = await loadPdfDocument(lib, bytes).catch((e: unknown) => {
    throw asMediaError(e);
  });
  checkDeadline(deadline);
  return { doc, encrypted, strict };
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
function balancedTreeUpdate(lib: PdfLib, doc: PDFDocument): Promise<Uint8Array> | null {
  const { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef } = lib;
  const N = { Pages: PDFName.of('Pages'), Kids: PDFName.of('Kids'), Count: PDFName.of('Count'), Type: PDFName.of('Type'), Page: PDFName.of('Page') };
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
  if (size instanceof PDFNumber && size.asNumber() - 1 > doc.context.largestObjectNumber) return null;
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
  const lib = await loadPdfLib();
  let pageSizes: PdfPageSize[];
  try {
    pageSizes = measurePages(lib, doc);
  } catch (e) {
    throw asMediaError(e);
  }
  const meta: PdfMeta = { pages: pageSizes.length, pageSizes, encrypted };
  if (options.balanceTree && strict && !encrypted) {
    const update = await balancedTreeUpdate(lib, doc);
    if (update) meta.balancedTree = update;
  }
  return meta;
}

/** Counts the leaves of the page tree rather than trusting /Count, which writers get wrong. */
export async function readPdfPageCount(filePath: string, options: PdfReadOptions = {}): Promise<number> {
  const { doc } = await loadPdf(filePath, options);
  try {
    return collectPages(await loadPdfLib(), doc).length;
  } catch (e) {
    throw asMediaError(e);
  }
}
