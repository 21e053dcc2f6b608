import { readFile } from 'node:fs/promises';
import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFObjectParser,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFString,
  decodePDFRawStream,
} from 'pdf-lib';
import { MediaError } from './errors.ts';
import { sniffType } from './magic.ts';
import { checkEmptyUserPassword, decryptStream, type StandardEncryption } from './pdf-crypto.ts';

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
}

/** More pages than any print job; beyond it a page tree is a loop or an attack. */
export const MAX_PDF_PAGES = 10_000;
const MAX_TREE_NODES = 200_000;

const N = {
  Root: PDFName.of('Root'),
  Pages: PDFName.of('Pages'),
  Kids: PDFName.of('Kids'),
  Type: PDFName.of('Type'),
  Page: PDFName.of('Page'),
  ObjStm: PDFName.of('ObjStm'),
  MediaBox: PDFName.of('MediaBox'),
  CropBox: PDFName.of('CropBox'),
  TrimBox: PDFName.of('TrimBox'),
  Rotate: PDFName.of('Rotate'),
  UserUnit: PDFName.of('UserUnit'),
  N: PDFName.of('N'),
  First: PDFName.of('First'),
  Filter: PDFName.of('Filter'),
  Standard: PDFName.of('Standard'),
  V: PDFName.of('V'),
  R: PDFName.of('R'),
  O: PDFName.of('O'),
  U: PDFName.of('U'),
  UE: PDFName.of('UE'),
  P: PDFName.of('P'),
  Length: PDFName.of('Length'),
  EncryptMetadata: PDFName.of('EncryptMetadata'),
  CF: PDFName.of('CF'),
  StmF: PDFName.of('StmF'),
  CFM: PDFName.of('CFM'),
  Identity: PDFName.of('Identity'),
} as const;

export function ptToMm(pt: number): number {
  return Math.round((pt / 72) * 25.4 * 10) / 10;
}

function damaged(cause?: unknown): MediaError {
  return new MediaError('damaged', undefined, cause === undefined ? undefined : { cause });
}

interface ParserInternals {
  bytes: { offset(): number; moveTo(offset: number): void };
  skipWhitespaceAndComments(): void;
  skipJibberish(): void;
  parseDocumentSection(): Promise<void>;
  parseIndirectObject(): Promise<unknown>;
  parseIndirectObjectHeader(): PDFRef;
  tryToParseInvalidIndirectObject(): PDFRef;
  context: PDFContext;
}

/** The next indirect object header or xref keyword; the lookbehind keeps long digit runs linear. */
const NEXT_TOKEN = /(?<![0-9])[0-9]+[\0\t\n\f\r ]+[0-9]+[\0\t\n\f\r ]*obj|xref|trailer|startxref/;
const SCAN_OVERLAP = 64;

/**
 * pdf-lib skips junk between objects one byte at a time, trying (and throwing) an object
 * header parse at every byte: 1 MB of junk took 5 s and 5 MB 50 s. This does the same search
 * with a regular expression over growing windows of the file, so junk costs what reading it
 * costs, and the common case (a token right there) costs a few hundred bytes.
 */
function fastSkipJibberish(bytes: Uint8Array): (this: ParserInternals) => void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return function skipJibberish(this: ParserInternals): void {
    this.skipWhitespaceAndComments();
    let size = 256;
    for (let start = this.bytes.offset(); start < buf.length; start += size, size = Math.min(size * 2, 1 << 16)) {
      const window = buf.toString('latin1', start, Math.min(buf.length, start + size + SCAN_OVERLAP));
      const m = NEXT_TOKEN.exec(window);
      if (m && m.index < size) {
        this.bytes.moveTo(start + m.index);
        return;
      }
    }
    this.bytes.moveTo(buf.length);
  };
}

/** Wall-clock budget for parsing one file, all recovery passes included. */
export const PDF_PARSE_BUDGET_MS = 20_000;

/**
 * pdf-lib's parser runs synchronously between its own awaits, so a time limit cannot come
 * from outside; instead its per-object steps check the deadline and abort the parse.
 */
function parse(bytes: Uint8Array, throwOnInvalidObject: boolean, deadline: number): Promise<PDFContext> {
  const parser = PDFParser.forBytesWithOptions(bytes, Infinity, throwOnInvalidObject);
  const internals = parser as unknown as ParserInternals;
  internals.skipJibberish = fastSkipJibberish(bytes);
  const checkDeadline = () => {
    if (performance.now() > deadline) throw new MediaError('timeout');
  };
  const section = internals.parseDocumentSection.bind(parser);
  internals.parseDocumentSection = () => {
    checkDeadline();
    return section();
  };
  const object = internals.parseIndirectObject.bind(parser);
  internals.parseIndirectObject = () => {
    checkDeadline();
    return object();
  };
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // pdf-lib's own version logs two console.warn lines per object (every object stream of an
  // encrypted file) and looks for "endobj" a byte at a time; this keeps the object just as it
  // does, quietly and with a native search.
  internals.tryToParseInvalidIndirectObject = function tryToParseInvalidIndirectObject(this: ParserInternals) {
    checkDeadline();
    if (throwOnInvalidObject) throw new Error('invalid object');
    const ref = this.parseIndirectObjectHeader();
    this.skipWhitespaceAndComments();
    const start = this.bytes.offset();
    const end = buf.indexOf('endobj', start, 'latin1');
    if (end < 0) throw new Error('invalid object without endobj');
    this.bytes.moveTo(end + 'endobj'.length);
    this.context.assign(ref, PDFInvalidObject.of(bytes.slice(start, end)));
    return ref;
  };
  return parser.parseDocument();
}

function rethrowTimeout(e: unknown): void {
  if (e instanceof MediaError && e.code === 'timeout') throw e;
}

/**
 * pdf-lib reads a file front to back and does not need the xref table, which is what lets it
 * open files with a broken startxref or no trailer at all. A strict pass first; the lenient
 * pass keeps unparsable objects aside (encrypted object streams are restored from them later).
 */
async function parseContext(bytes: Uint8Array, budgetMs: number): Promise<PDFContext> {
  const deadline = performance.now() + budgetMs;
  try {
    return await parse(bytes, true, deadline);
  } catch (e) {
    rethrowTimeout(e);
  }
  try {
    return await parse(bytes, false, deadline);
  } catch (e) {
    rethrowTimeout(e);
    // e.g. "startxref oops": drop the unreadable tail and keep every object before it
  }
  const tail = lastIndexOf(bytes, 'startxref');
  if (tail > 0) {
    try {
      return await parse(bytes.subarray(0, tail), false, deadline);
    } catch (e) {
      rethrowTimeout(e);
      throw damaged(e);
    }
  }
  throw damaged();
}

function lastIndexOf(bytes: Uint8Array, keyword: string): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).lastIndexOf(keyword, undefined, 'latin1');
}

function bytesOf(obj: PDFObject | undefined): Uint8Array | undefined {
  if (obj instanceof PDFString || obj instanceof PDFHexString) return obj.asBytes();
  return undefined;
}

function numberOf(obj: PDFObject | undefined): number | undefined {
  return obj instanceof PDFNumber ? obj.asNumber() : undefined;
}

function readEncryption(ctx: PDFContext, dict: PDFDict): StandardEncryption | null {
  if (dict.lookup(N.Filter) !== N.Standard) return null;
  const v = numberOf(dict.lookup(N.V)) ?? 0;
  const r = numberOf(dict.lookup(N.R)) ?? 0;
  const o = bytesOf(dict.lookup(N.O));
  const u = bytesOf(dict.lookup(N.U));
  const p = numberOf(dict.lookup(N.P));
  if (!o || !u || p === undefined) return null;
  const idArray = ctx.lookup(ctx.trailerInfo.ID);
  const id0 = idArray instanceof PDFArray ? bytesOf(idArray.lookup(0)) : undefined;

  let streamMethod: StandardEncryption['streamMethod'] = 'RC4';
  if (v >= 4) {
    const stmF = dict.lookup(N.StmF);
    if (stmF === undefined || stmF === N.Identity) streamMethod = 'None';
    else {
      const cf = dict.lookup(N.CF);
      const filter = cf instanceof PDFDict && stmF instanceof PDFName ? cf.lookup(stmF) : undefined;
      const cfm = filter instanceof PDFDict ? filter.lookup(N.CFM) : undefined;
      if (cfm === PDFName.of('AESV2')) streamMethod = 'AESV2';
      else if (cfm === PDFName.of('AESV3')) streamMethod = 'AESV3';
      else if (cfm === PDFName.of('V2')) streamMethod = 'RC4';
      else if (cfm === undefined || cfm === PDFName.of('None')) streamMethod = 'None';
      else return null;
    }
  }
  const encryptMetadata = dict.lookup(N.EncryptMetadata);
  return {
    v,
    r,
    keyLength: Math.max(5, Math.min(16, Math.floor((numberOf(dict.lookup(N.Length)) ?? 40) / 8))),
    o,
    u,
    ue: bytesOf(dict.lookup(N.UE)),
    p,
    id0: id0 ?? new Uint8Array(0),
    encryptMetadata: encryptMetadata === undefined || encryptMetadata.toString() !== 'false',
    streamMethod,
  };
}

/**
 * Object streams of an encrypted file are themselves encrypted, so pdf-lib keeps them as
 * invalid objects; decrypting them here brings back the catalog and page dicts they hold.
 * Objects already defined outside (e.g. by a later incremental update) are left alone.
 */
function restoreObjectStreams(ctx: PDFContext, enc: StandardEncryption, fileKey: Buffer): void {
  for (const [ref, obj] of ctx.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFInvalidObject)) continue;
    const raw = new Uint8Array(obj.sizeInBytes());
    obj.copyBytesInto(raw, 0);
    let stream: PDFObject;
    try {
      stream = PDFObjectParser.forBytes(raw, ctx).parseObject();
    } catch {
      continue;
    }
    if (!(stream instanceof PDFRawStream) || stream.dict.lookup(N.Type) !== N.ObjStm) continue;
    let decoded: Uint8Array;
    try {
      const plain = decryptStream(enc, fileKey, ref.objectNumber, ref.generationNumber, stream.contents);
      decoded = decodePDFRawStream(PDFRawStream.of(stream.dict, plain)).decode();
    } catch {
      continue;
    }
    const count = numberOf(stream.dict.lookup(N.N)) ?? 0;
    const first = numberOf(stream.dict.lookup(N.First)) ?? 0;
    const header = Buffer.from(decoded.subarray(0, first)).toString('latin1').trim().split(/\s+/).map(Number);
    for (let i = 0; i < count; i++) {
      const objectNumber = header[i * 2];
      const offset = header[i * 2 + 1];
      if (objectNumber === undefined || offset === undefined || !Number.isInteger(objectNumber) || !Number.isInteger(offset)) break;
      const target = PDFRef.of(objectNumber, 0);
      if (ctx.lookup(target) !== undefined) continue;
      try {
        ctx.assign(target, PDFObjectParser.forBytes(decoded.subarray(first + offset), ctx).parseObject());
      } catch {
        // one bad object must not cost the others
      }
    }
  }
}

export interface PdfReadOptions {
  /** Parsing budget in ms; a file that takes longer is refused with 'timeout'. */
  budgetMs?: number;
}

async function loadPdf(filePath: string, options: PdfReadOptions): Promise<{ ctx: PDFContext; encrypted: boolean }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch (e) {
    throw damaged(e);
  }
  if (sniffType(bytes.subarray(0, 1029)) !== 'pdf') throw new MediaError('wrong-type');
  const ctx = await parseContext(bytes, options.budgetMs ?? PDF_PARSE_BUDGET_MS);
  const encryptObj = ctx.lookup(ctx.trailerInfo.Encrypt);
  if (encryptObj === undefined) return { ctx, encrypted: false };

  // An /Encrypt we cannot evaluate (public-key handler, unknown revision) is treated as locked.
  const enc = encryptObj instanceof PDFDict ? readEncryption(ctx, encryptObj) : null;
  if (!enc) throw new MediaError('encrypted');
  const check = checkEmptyUserPassword(enc);
  if (!check.opensWithoutPassword) throw new MediaError('encrypted');
  restoreObjectStreams(ctx, enc, check.fileKey);
  return { ctx, encrypted: true };
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
function collectPages(ctx: PDFContext): Array<{ page: PDFDict; inherited: Inherited }> {
  const catalog = ctx.lookup(ctx.trailerInfo.Root);
  if (!(catalog instanceof PDFDict)) throw damaged();
  const root = catalog.lookup(N.Pages);
  if (!(root instanceof PDFDict)) throw damaged();

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
    if (node.lookup(N.Type) !== N.Page && kids instanceof PDFArray) {
      const nextAncestors = new Set(ancestors).add(node);
      // Pushed in reverse so that pages pop off the stack in document order.
      for (let i = kids.size() - 1; i >= 0; i--) {
        const kid = kids.lookup(i);
        // A kid that is missing (a truncated file) would silently drop pages: refuse instead.
        if (!(kid instanceof PDFDict)) throw damaged();
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
  if (!(obj instanceof PDFArray) || obj.size() !== 4) return null;
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

/** Page boxes and rotation; content streams are never decoded. */
export async function readPdfMeta(filePath: string, options: PdfReadOptions = {}): Promise<PdfMeta> {
  const { ctx, encrypted } = await loadPdf(filePath, options);
  const pageSizes = collectPages(ctx).map(({ page, inherited }) => pageSize(page, inherited));
  return { pages: pageSizes.length, pageSizes, encrypted };
}

/** Counts the leaves of the page tree rather than trusting /Count, which writers get wrong. */
export async function readPdfPageCount(filePath: string, options: PdfReadOptions = {}): Promise<number> {
  const { ctx } = await loadPdf(filePath, options);
  return collectPages(ctx).length;
}
