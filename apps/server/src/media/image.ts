import { open, type FileHandle } from 'node:fs/promises';
import sharp, { type Metadata } from './sharp.ts';
import { MediaError, tooManyPixels } from './errors.ts';
import { readHead, sniffType } from './magic.ts';

export interface ImageMeta {
  format: 'jpeg' | 'png';
  /** Pixels as displayed, i.e. after EXIF orientation (5-8 swap the stored width and height). */
  width: number;
  height: number;
  /** EXIF orientation 1-8; 1 when absent or out of range. */
  orientation: number;
  /** min(dpiX, dpiY); 72 when the file states no density. */
  dpi: number;
  /** Horizontal/vertical density as displayed (swapped with width/height for orientation 5-8). */
  dpiX: number;
  dpiY: number;
  /** False when the file gives no usable density (none, JFIF units 0, pHYs unit unknown). */
  dpiStated: boolean;
  /** Where the density came from. */
  dpiSource: 'jfif' | 'exif' | 'phys' | 'none';
  /** libvips interpretation as sharp names it: 'srgb', 'cmyk', 'b-w', 'grey16', 'rgb16' … */
  colourSpace: string;
  channels: number;
  /** Bits per sample of the decoded pixels (8 or 16; a 1-bit PNG decodes to 8). */
  depth: number;
  hasIccProfile: boolean;
}

export const DEFAULT_DPI = 72;

/**
 * Which reading of the density a stored file's metadata holds (`dpiRule` in its meta). 2: EXIF over
 * JFIF, PNG eXIf after pHYs (2026-11-25); metadata without it was read with JFIF first and is read
 * again, once, the next time the file is parsed or checked.
 */
export const DENSITY_RULE = 2;

interface Density {
  x: number;
  y: number;
  source: 'jfif' | 'exif' | 'phys';
}

const INCH_PER_METRE = 0.0254;
const CM_PER_INCH = 2.54;

/**
 * pHYs stores whole pixels per metre, so a 300 dpi file says 11811 (299.9994 dpi) and some
 * writers truncate instead of rounding (3779 → 95.99 for 96). Snapping within one px/m of an
 * integer dpi gives back what the author chose; anything else keeps two decimals (25.4 stays).
 */
function tidyDpi(dpi: number): number {
  const nearest = Math.round(dpi);
  if (Math.abs(dpi - nearest) <= INCH_PER_METRE + 1e-9) return nearest;
  return Math.round(dpi * 100) / 100;
}

/** Rejects zero, NaN and absurd values some writers leave in the header. */
function plausible(d: Density | null): Density | null {
  if (!d) return null;
  const ok = (v: number) => Number.isFinite(v) && v >= 1 && v <= 100_000;
  if (!ok(d.x) || !ok(d.y)) return null;
  return { x: tidyDpi(d.x), y: tidyDpi(d.y), source: d.source };
}

/** Enough for the headers of nearly every JPEG and PNG (a large ICC profile or EXIF thumbnail aside). */
export const IMAGE_HEAD_BYTES = 64 * 1024;

/**
 * The first bytes of a file, read once, and the file behind them for what lies further. Headers,
 * density segments and the JPEG/PNG structure sharp needs are nearly always in the first IMAGE_HEAD_BYTES.
 */
class Source {
  private fh: FileHandle | undefined;

  constructor(
    private readonly filePath: string,
    readonly head: Buffer,
  ) {}

  /** True when the head is the whole file. */
  get whole(): boolean {
    return this.head.length < IMAGE_HEAD_BYTES;
  }

  async at(position: number, length: number): Promise<Buffer> {
    if (position + length <= this.head.length || this.whole) return this.head.subarray(position, position + length);
    this.fh ??= await open(this.filePath, 'r');
    const buf = Buffer.alloc(length);
    const { bytesRead } = await this.fh.read(buf, 0, length, position);
    return buf.subarray(0, bytesRead);
  }

  async close(): Promise<void> {
    await this.fh?.close();
  }
}

function parseJfif(seg: Buffer): Density | null {
  // "JFIF\0", version (2), units (1), Xdensity (2), Ydensity (2)
  if (seg.length < 12 || seg.toString('latin1', 0, 5) !== 'JFIF\0') return null;
  const units = seg[7];
  const x = seg.readUInt16BE(8);
  const y = seg.readUInt16BE(10);
  if (units === 1) return { x, y, source: 'jfif' };
  if (units === 2) return { x: x * CM_PER_INCH, y: y * CM_PER_INCH, source: 'jfif' };
  // units 0: the numbers are only a pixel aspect ratio
  return null;
}

/** The resolution of an APP1 "Exif" segment. */
function parseExifResolution(seg: Buffer): Density | null {
  if (seg.length < 14 || seg.toString('latin1', 0, 6) !== 'Exif\0\0') return null;
  return parseTiffResolution(seg.subarray(6));
}

/**
 * XResolution/YResolution of IFD0 of a TIFF structure (the body of a JPEG's EXIF segment or of a
 * PNG's eXIf chunk). ResolutionUnit 2 is inches (also when absent: TIFF's default, as libvips and
 * exiftool read it), 3 centimetres; 1 (no absolute unit) states nothing.
 */
function parseTiffResolution(tiff: Buffer): Density | null {
  if (tiff.length < 8) return null;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  let xres: number | undefined;
  let yres: number | undefined;
  let unit = 2; // TIFF default when ResolutionUnit is absent: inch
  const rational = (entry: number): number | undefined => {
    const off = u32(entry + 8);
    if (off + 8 > tiff.length) return undefined;
    const den = u32(off + 4);
    return den === 0 ? undefined : u32(off) / den;
  };
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) break;
    const tag = u16(entry);
    if (tag === 0x011a) xres = rational(entry);
    else if (tag === 0x011b) yres = rational(entry);
    else if (tag === 0x0128) unit = u16(entry + 8);
  }
  if (xres === undefined) return null;
  const y = yres ?? xres;
  if (unit === 2) return { x: xres, y, source: 'exif' };
  if (unit === 3) return { x: xres * CM_PER_INCH, y: y * CM_PER_INCH, source: 'exif' };
  return null;
}

/** Where the JPEG markers that precede the first scan end, as far as the head shows them. */
interface JpegWalk {
  density: Density | null;
  /** The start-of-scan marker lies in the head: every header segment is in it. */
  headerInHead: boolean;
}

/**
 * Walks the JPEG markers up to the first scan. When EXIF states a density in inches or centimetres
 * it wins over JFIF, as libvips and ImageMagick read it: cameras write JFIF 72 dpi beside their real
 * figure in EXIF (180, 300), and taking JFIF measured such photos 2.5-4 times too large. JFIF
 * counts only where EXIF states none (Pillow reads JFIF first; we do not follow it there).
 */
async function jpegWalk(src: Source): Promise<JpegWalk> {
  let pos = 2;
  let jfif: Density | null = null;
  let exif: Density | null = null;
  let headerInHead = false;
  for (let guard = 0; guard < 256; guard++) {
    const hdr = await src.at(pos, 4);
    if (hdr.length < 2 || hdr[0] !== 0xff) break;
    const marker = hdr[1] ?? 0;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    // SOS/EOI: metadata segments all come before the first scan
    if (marker === 0xda || marker === 0xd9) {
      headerInHead = marker === 0xda && hdr.length === 4 && pos + 2 + hdr.readUInt16BE(2) <= src.head.length;
      break;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    if (hdr.length < 4) break;
    const len = hdr.readUInt16BE(2);
    if (len < 2) break;
    if (marker === 0xe0 && !jfif) jfif = plausible(parseJfif(await src.at(pos + 4, Math.min(len - 2, 64))));
    else if (marker === 0xe1 && !exif) exif = plausible(parseExifResolution(await src.at(pos + 4, len - 2)));
    pos += 2 + len;
  }
  return { density: exif ?? jfif, headerInHead };
}

interface PngWalk {
  density: Density | null;
  /** The first IDAT (or IEND) chunk starts in the head: every header chunk is in it. */
  headerInHead: boolean;
}

/**
 * Walks the PNG chunks up to the first IDAT: pHYs in metres first, else an eXIf chunk's resolution
 * (libvips reads both; pHYs is the PNG's own). Chunks after IDAT are not read: that would mean
 * reading the whole file, and writers put both before it.
 */
async function pngWalk(src: Source): Promise<PngWalk> {
  let pos = 8;
  // undefined until the first pHYs (or eXIf); a later one is not looked at.
  let phys: Density | null | undefined;
  let exif: Density | null | undefined;
  const found = () => phys ?? exif ?? null;
  for (let guard = 0; guard < 10_000; guard++) {
    const hdr = await src.at(pos, 8);
    if (hdr.length < 8) break;
    const len = hdr.readUInt32BE(0);
    const type = hdr.toString('latin1', 4, 8);
    // pHYs must precede IDAT, so there is no need to read past it
    if (type === 'IDAT' || type === 'IEND') return { density: found(), headerInHead: type === 'IDAT' && pos + 8 <= src.head.length };
    if (type === 'pHYs' && len >= 9 && phys === undefined) {
      const data = await src.at(pos + 8, 9);
      // unit 0: aspect ratio only
      phys = data.length >= 9 && data[8] === 1
        ? plausible({ x: data.readUInt32BE(0) * INCH_PER_METRE, y: data.readUInt32BE(4) * INCH_PER_METRE, source: 'phys' })
        : null;
    } else if (type === 'eXIf' && exif === undefined && len <= 1024 * 1024) {
      exif = plausible(parseTiffResolution(await src.at(pos + 8, len)));
    }
    pos += 12 + len;
  }
  return { density: found(), headerInHead: false };
}

/**
 * sharp is not used for the density: it reports 72 when a file states none, gives PNG pHYs
 * without a resolutionUnit and drops pHYs of 1000 px/m entirely. Where a file states one, the
 * figure read here is libvips' (EXIF over JFIF; pHYs, then EXIF).
 */
async function walk(src: Source, format: 'jpeg' | 'png'): Promise<{ density: Density | null; headerInHead: boolean }> {
  try {
    return format === 'jpeg' ? await jpegWalk(src) : await pngWalk(src);
  } catch {
    // A broken header only costs us the density: dimensions still come from sharp.
    return { density: null, headerInHead: false };
  }
}

const DEPTH_BITS: Record<string, number> = {
  uchar: 8,
  char: 8,
  ushort: 16,
  short: 16,
  uint: 32,
  int: 32,
  float: 32,
  complex: 64,
  double: 64,
  dpcomplex: 128,
};

async function requireImageType(filePath: string): Promise<'jpeg' | 'png'> {
  const type = sniffType(await readHead(filePath));
  if (type === 'jpeg' || type === 'png') return type;
  throw new MediaError('wrong-type');
}

function damaged(cause: unknown): MediaError {
  return new MediaError('damaged', undefined, { cause });
}

/**
 * Reads headers only; pixels are never decoded. The file's first bytes are read once and serve
 * the type check, the density and sharp: sharp gets those bytes instead of the file whenever
 * they hold every header segment it reads (up to the first JPEG scan or PNG IDAT), so it answers
 * exactly what it would from the file; otherwise it reads the file itself. A caller that has
 * already read the file's first IMAGE_HEAD_BYTES bytes (fewer only when that is the whole file)
 * passes them as `head`.
 */
/** Width and height from the header sharp refused: a PNG's IHDR, or a JPEG's first frame header (SOFn). */
function headerSize(head: Buffer, format: 'jpeg' | 'png'): { width: number; height: number } | undefined {
  if (format === 'png') return head.length >= 24 ? { width: head.readUInt32BE(16), height: head.readUInt32BE(20) } : undefined;
  for (let i = 2; i + 9 < head.length; ) {
    if (head[i] !== 0xff) return undefined;
    const marker = head[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: head.readUInt16BE(i + 7), height: head.readUInt16BE(i + 5) };
    }
    i += 2 + head.readUInt16BE(i + 2);
  }
  return undefined;
}

export async function readImageMeta(filePath: string, options: { head?: Buffer } = {}): Promise<ImageMeta> {
  const src = new Source(filePath, options.head ?? (await readHead(filePath, IMAGE_HEAD_BYTES)));
  let meta: Metadata;
  let density: Density | null;
  let format: 'jpeg' | 'png';
  try {
    const type = sniffType(src.head);
    if (type !== 'jpeg' && type !== 'png') throw new MediaError('wrong-type');
    format = type;
    const found = await walk(src, format);
    density = found.density;
    try {
      meta = await sharp(src.whole || found.headerInHead ? src.head : filePath).metadata();
    } catch (e) {
      throw tooManyPixels(e, headerSize(src.head, format)) ?? damaged(e);
    }
  } finally {
    await src.close();
  }
  if (meta.format !== format || !meta.width || !meta.height) throw new MediaError('damaged');

  const orientation = meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : 1;
  const swap = orientation >= 5;
  const storedX = density?.x ?? DEFAULT_DPI;
  const storedY = density?.y ?? DEFAULT_DPI;
  const dpiX = swap ? storedY : storedX;
  const dpiY = swap ? storedX : storedY;
  return {
    format,
    width: swap ? meta.height : meta.width,
    height: swap ? meta.width : meta.height,
    orientation,
    dpi: Math.min(dpiX, dpiY),
    dpiX,
    dpiY,
    dpiStated: density !== null,
    dpiSource: density?.source ?? 'none',
    colourSpace: meta.space ?? 'unknown',
    channels: meta.channels ?? 0,
    depth: DEPTH_BITS[meta.depth ?? ''] ?? 8,
    hasIccProfile: meta.icc !== undefined,
  };
}

/**
 * Decodes every pixel (at a reduced size where the codec allows) so that truncated data and
 * bad CRCs surface; metadata() alone accepts all of the corpus' damaged PNG/JPEG files.
 * failOn 'error' is the weakest level that flags all four of them.
 */
export async function verifyImageDecodes(filePath: string): Promise<void> {
  await requireImageType(filePath);
  try {
    await sharp(filePath, { failOn: 'error', sequentialRead: true })
      .resize(256, 256, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer();
  } catch (e) {
    throw tooManyPixels(e) ?? damaged(e);
  }
}
