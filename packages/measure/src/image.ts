/**
 * What a JPEG's or PNG's headers say: stored pixel size, EXIF orientation and density, read from
 * bytes only (no Node, no DOM), so the browser's preflight worker (apps/web) and the server's image
 * reader (apps/server media/image.ts) apply one set of rules and cannot disagree. The server still
 * lets sharp read the size and the orientation it decodes by; the corpus test
 * (apps/server/src/media/measure-parity.test.ts) holds the two readings equal.
 *
 * Density precedence (DENSITY_RULE): JPEG EXIF over JFIF; PNG pHYs in metres, then eXIf.
 */

export type ImageFormat = 'jpeg' | 'png';

/**
 * The bytes of a file: its first bytes, read once, and a way to read further (a large EXIF block or
 * ICC profile can push the headers past them).
 */
export interface ByteSource {
  /** The file's first IMAGE_HEAD_BYTES bytes, or the whole file when it is shorter. */
  readonly head: Uint8Array;
  /** `length` bytes from `position` (fewer at the end of the file). */
  at(position: number, length: number): Promise<Uint8Array>;
}

/** Enough for the headers of nearly every JPEG and PNG (a large ICC profile or EXIF thumbnail aside). */
export const IMAGE_HEAD_BYTES = 64 * 1024;

export const DEFAULT_DPI = 72;

/**
 * Which reading of the density a stored file's metadata holds (`dpiRule` in its meta). 2: EXIF over
 * JFIF, PNG eXIf after pHYs (2026-11-25); metadata without it was read with JFIF first and is read
 * again, once, the next time the file is parsed or checked.
 */
export const DENSITY_RULE = 2;

export interface Density {
  x: number;
  y: number;
  source: 'jfif' | 'exif' | 'phys';
}

/** What the headers hold, as stored (before the orientation is applied). */
export interface HeaderWalk {
  density: Density | null;
  /** Every header segment (up to the first JPEG scan or PNG IDAT) lies in the head. */
  headerInHead: boolean;
  /** Stored width and height (JPEG's first frame header, PNG's IHDR), when the walk met them. */
  size: { width: number; height: number } | null;
  /** EXIF orientation as written (IFD0 tag 0x0112), when there is one. */
  orientation: number | null;
}

/** An image as it is displayed (the orientation applied). */
export interface ImageMeasure {
  format: ImageFormat;
  /** Pixels as displayed, i.e. after EXIF orientation (5-8 swap the stored width and height). */
  width: number;
  height: number;
  /** EXIF orientation 1-8; 1 when absent or out of range. */
  orientation: number;
  /** min(dpiX, dpiY); DEFAULT_DPI when the file states no density. */
  dpi: number;
  dpiX: number;
  dpiY: number;
  /** False when the file gives no usable density (none, JFIF units 0, pHYs unit unknown). */
  dpiStated: boolean;
  dpiSource: 'jfif' | 'exif' | 'phys' | 'none';
}

const INCH_PER_METRE = 0.0254;
const CM_PER_INCH = 2.54;

// Readers that throw on bytes past the end, as Node's Buffer does: a header cut short costs the density.
function u8(b: Uint8Array, o: number): number {
  const v = b[o];
  if (v === undefined) throw new RangeError('past the end');
  return v;
}
function u16(b: Uint8Array, o: number, le = false): number {
  const a = u8(b, o);
  const c = u8(b, o + 1);
  return le ? a | (c << 8) : (a << 8) | c;
}
function u32(b: Uint8Array, o: number, le = false): number {
  return le ? (u16(b, o, true) + u16(b, o + 2, true) * 0x10000) : (u16(b, o) * 0x10000 + u16(b, o + 2));
}
function latin1(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to));
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffImage(head: Uint8Array): ImageFormat | null {
  if (head.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((v, i) => head[i] === v)) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  return null;
}

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

function parseJfif(seg: Uint8Array): Density | null {
  // "JFIF\0", version (2), units (1), Xdensity (2), Ydensity (2)
  if (seg.length < 12 || latin1(seg, 0, 5) !== 'JFIF\0') return null;
  const units = seg[7];
  const x = u16(seg, 8);
  const y = u16(seg, 10);
  if (units === 1) return { x, y, source: 'jfif' };
  if (units === 2) return { x: x * CM_PER_INCH, y: y * CM_PER_INCH, source: 'jfif' };
  // units 0: the numbers are only a pixel aspect ratio
  return null;
}

interface TiffFacts {
  density: Density | null;
  orientation: number | null;
}

/**
 * XResolution/YResolution and Orientation of IFD0 of a TIFF structure (the body of a JPEG's EXIF
 * segment or of a PNG's eXIf chunk). ResolutionUnit 2 is inches (also when absent: TIFF's default, as
 * libvips and exiftool read it), 3 centimetres; 1 (no absolute unit) states nothing.
 */
export function parseTiff(tiff: Uint8Array): TiffFacts {
  const none = { density: null, orientation: null };
  if (tiff.length < 8) return none;
  const order = latin1(tiff, 0, 2);
  if (order !== 'II' && order !== 'MM') return none;
  const le = order === 'II';
  const ifd = u32(tiff, 4, le);
  if (ifd + 2 > tiff.length) return none;
  const count = u16(tiff, ifd, le);
  let xres: number | undefined;
  let yres: number | undefined;
  let unit = 2; // TIFF default when ResolutionUnit is absent: inch
  let orientation: number | null = null;
  const rational = (entry: number): number | undefined => {
    const off = u32(tiff, entry + 8, le);
    if (off + 8 > tiff.length) return undefined;
    const den = u32(tiff, off + 4, le);
    return den === 0 ? undefined : u32(tiff, off, le) / den;
  };
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) break;
    const tag = u16(tiff, entry, le);
    if (tag === 0x011a) xres = rational(entry);
    else if (tag === 0x011b) yres = rational(entry);
    else if (tag === 0x0128) unit = u16(tiff, entry + 8, le);
    else if (tag === 0x0112) orientation = u16(tiff, entry + 8, le);
  }
  if (xres === undefined) return { density: null, orientation };
  const y = yres ?? xres;
  if (unit === 2) return { density: { x: xres, y, source: 'exif' }, orientation };
  if (unit === 3) return { density: { x: xres * CM_PER_INCH, y: y * CM_PER_INCH, source: 'exif' }, orientation };
  return { density: null, orientation };
}

function parseExif(seg: Uint8Array): TiffFacts | null {
  if (seg.length < 14 || latin1(seg, 0, 6) !== 'Exif\0\0') return null;
  return parseTiff(seg.subarray(6));
}

/**
 * Walks the JPEG markers up to the first scan. When EXIF states a density in inches or centimetres
 * it wins over JFIF, as libvips and ImageMagick read it: cameras write JFIF 72 dpi beside their real
 * figure in EXIF (180, 300), and taking JFIF measured such photos 2.5-4 times too large. JFIF
 * counts only where EXIF states none (Pillow reads JFIF first; we do not follow it there).
 */
async function jpegWalk(src: ByteSource): Promise<HeaderWalk> {
  let pos = 2;
  let jfif: Density | null = null;
  let exif: Density | null = null;
  let sawExif = false;
  let orientation: number | null = null;
  let size: HeaderWalk['size'] = null;
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
      headerInHead = marker === 0xda && hdr.length === 4 && pos + 2 + u16(hdr, 2) <= src.head.length;
      break;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    if (hdr.length < 4) break;
    const len = u16(hdr, 2);
    if (len < 2) break;
    if (marker === 0xe0 && !jfif) jfif = plausible(parseJfif(await src.at(pos + 4, Math.min(len - 2, 64))));
    else if (marker === 0xe1 && (!exif || !sawExif)) {
      const facts = parseExif(await src.at(pos + 4, len - 2));
      if (facts && !sawExif) {
        // The first EXIF segment is the one readers take the orientation from.
        sawExif = true;
        orientation = facts.orientation;
      }
      if (facts && !exif) exif = plausible(facts.density);
    } else if (!size && marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      // SOFn: length (2), precision (1), height (2), width (2)
      const sof = await src.at(pos + 4, 5);
      if (sof.length === 5) size = { width: u16(sof, 3), height: u16(sof, 1) };
    }
    pos += 2 + len;
  }
  return { density: exif ?? jfif, headerInHead, size, orientation };
}

/**
 * Walks the PNG chunks up to the first IDAT: pHYs in metres first, else an eXIf chunk's resolution
 * (libvips reads both; pHYs is the PNG's own). Chunks after IDAT are not read: that would mean
 * reading the whole file, and writers put both before it.
 */
async function pngWalk(src: ByteSource): Promise<HeaderWalk> {
  let pos = 8;
  // undefined until the first pHYs (or eXIf); a later one is not looked at.
  let phys: Density | null | undefined;
  let exif: Density | null | undefined;
  let orientation: number | null = null;
  let size: HeaderWalk['size'] = null;
  const done = (headerInHead: boolean): HeaderWalk => ({ density: phys ?? exif ?? null, headerInHead, size, orientation });
  for (let guard = 0; guard < 10_000; guard++) {
    const hdr = await src.at(pos, 8);
    if (hdr.length < 8) break;
    const len = u32(hdr, 0);
    const type = latin1(hdr, 4, 8);
    // pHYs must precede IDAT, so there is no need to read past it
    if (type === 'IDAT' || type === 'IEND') return done(type === 'IDAT' && pos + 8 <= src.head.length);
    if (type === 'IHDR' && !size && len >= 8) {
      const data = await src.at(pos + 8, 8);
      if (data.length === 8) size = { width: u32(data, 0), height: u32(data, 4) };
    } else if (type === 'pHYs' && len >= 9 && phys === undefined) {
      const data = await src.at(pos + 8, 9);
      // unit 0: aspect ratio only
      phys = data.length >= 9 && data[8] === 1
        ? plausible({ x: u32(data, 0) * INCH_PER_METRE, y: u32(data, 4) * INCH_PER_METRE, source: 'phys' })
        : null;
    } else if (type === 'eXIf' && exif === undefined && len <= 1024 * 1024) {
      const facts = parseTiff(await src.at(pos + 8, len));
      exif = plausible(facts.density);
      orientation = facts.orientation;
    }
    pos += 12 + len;
  }
  return done(false);
}

/** The headers of a JPEG or PNG; a broken header yields what was read before it (no density). */
export async function walkHeaders(src: ByteSource, format: ImageFormat): Promise<HeaderWalk> {
  try {
    return format === 'jpeg' ? await jpegWalk(src) : await pngWalk(src);
  } catch {
    return { density: null, headerInHead: false, size: null, orientation: null };
  }
}

/** Orientations 5-8 turn the picture a quarter: width and height, and the two densities, swap. */
export function displayed(
  format: ImageFormat,
  stored: { width: number; height: number },
  rawOrientation: number | null | undefined,
  density: Density | null,
): ImageMeasure {
  const orientation = rawOrientation && rawOrientation >= 1 && rawOrientation <= 8 ? rawOrientation : 1;
  const swap = orientation >= 5;
  const storedX = density?.x ?? DEFAULT_DPI;
  const storedY = density?.y ?? DEFAULT_DPI;
  const dpiX = swap ? storedY : storedX;
  const dpiY = swap ? storedX : storedY;
  return {
    format,
    width: swap ? stored.height : stored.width,
    height: swap ? stored.width : stored.height,
    orientation,
    dpi: Math.min(dpiX, dpiY),
    dpiX,
    dpiY,
    dpiStated: density !== null,
    dpiSource: density?.source ?? 'none',
  };
}

/**
 * Measures a JPEG or PNG from its headers alone, as the server will (the browser's preflight).
 * Null when the bytes are no JPEG or PNG or the headers give no size.
 */
export async function measureImage(src: ByteSource): Promise<ImageMeasure | null> {
  const format = sniffImage(src.head);
  if (!format) return null;
  const walk = await walkHeaders(src, format);
  if (!walk.size || walk.size.width <= 0 || walk.size.height <= 0) return null;
  return displayed(format, walk.size, walk.orientation, walk.density);
}

/** A ByteSource over bytes already in memory (a whole file, or a head that is all there is). */
export function bytesSource(bytes: Uint8Array, headBytes = IMAGE_HEAD_BYTES): ByteSource {
  return {
    head: bytes.subarray(0, headBytes),
    at: async (position, length) => bytes.subarray(position, position + length),
  };
}
