import { open, type FileHandle } from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import { MediaError } from './errors.ts';
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

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
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

function parseExifResolution(seg: Buffer): Density | null {
  if (seg.length < 14 || seg.toString('latin1', 0, 6) !== 'Exif\0\0') return null;
  const tiff = seg.subarray(6);
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

/**
 * Walks the JPEG markers up to the first scan. When JFIF and EXIF both state a density and
 * disagree, JFIF wins: that is what Pillow reports and what the corpus MANIFEST records
 * (imagesize_1x2…_jfif300_exif72.jpg → 300), though exiftool and libvips prefer EXIF (72).
 */
async function jpegDensity(fh: FileHandle): Promise<Density | null> {
  let pos = 2;
  let jfif: Density | null = null;
  let exif: Density | null = null;
  for (let guard = 0; guard < 256; guard++) {
    const hdr = await readAt(fh, pos, 4);
    if (hdr.length < 4 || hdr[0] !== 0xff) break;
    const marker = hdr[1] ?? 0;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    // SOS/EOI: metadata segments all come before the first scan
    if (marker === 0xda || marker === 0xd9) break;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    const len = hdr.readUInt16BE(2);
    if (len < 2) break;
    if (marker === 0xe0 && !jfif) jfif = plausible(parseJfif(await readAt(fh, pos + 4, Math.min(len - 2, 64))));
    else if (marker === 0xe1 && !exif) exif = plausible(parseExifResolution(await readAt(fh, pos + 4, len - 2)));
    pos += 2 + len;
  }
  return jfif ?? exif;
}

async function pngDensity(fh: FileHandle): Promise<Density | null> {
  let pos = 8;
  for (let guard = 0; guard < 10_000; guard++) {
    const hdr = await readAt(fh, pos, 8);
    if (hdr.length < 8) break;
    const len = hdr.readUInt32BE(0);
    const type = hdr.toString('latin1', 4, 8);
    // pHYs must precede IDAT, so there is no need to read past it
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'pHYs' && len >= 9) {
      const data = await readAt(fh, pos + 8, 9);
      if (data.length < 9 || data[8] !== 1) return null; // unit 0: aspect ratio only
      return plausible({ x: data.readUInt32BE(0) * INCH_PER_METRE, y: data.readUInt32BE(4) * INCH_PER_METRE, source: 'phys' });
    }
    pos += 12 + len;
  }
  return null;
}

/**
 * sharp is not used for the density: it reports 72 when a file states none, gives PNG pHYs
 * without a resolutionUnit, drops pHYs of 1000 px/m entirely, and prefers EXIF over JFIF.
 */
async function readDensity(filePath: string, format: 'jpeg' | 'png'): Promise<Density | null> {
  const fh = await open(filePath, 'r');
  try {
    return format === 'jpeg' ? await jpegDensity(fh) : await pngDensity(fh);
  } catch {
    // A broken header only costs us the density: dimensions still come from sharp.
    return null;
  } finally {
    await fh.close();
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

/** Reads headers only; pixels are never decoded. */
export async function readImageMeta(filePath: string): Promise<ImageMeta> {
  const format = await requireImageType(filePath);
  let meta: Metadata;
  try {
    meta = await sharp(filePath).metadata();
  } catch (e) {
    throw damaged(e);
  }
  if (meta.format !== format || !meta.width || !meta.height) throw new MediaError('damaged');

  const orientation = meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : 1;
  const swap = orientation >= 5;
  const density = await readDensity(filePath, format);
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
    if (e instanceof Error && /pixel limit/i.test(e.message)) {
      throw new MediaError('too-large', '图片像素过大，无法处理', { cause: e });
    }
    throw damaged(e);
  }
}
