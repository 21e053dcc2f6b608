import { open, type FileHandle } from 'node:fs/promises';
import sharp, { type Metadata } from './sharp.ts';
import { MediaError, tooManyPixels } from './errors.ts';
import { readHead, sniffType } from './magic.ts';
import { DEFAULT_DPI, DENSITY_RULE, displayed, IMAGE_HEAD_BYTES, walkHeaders, type ByteSource, type Density, type ImageMeasure } from '@portal/measure';

/** What the server reads of an image: @portal/measure's measure (the shared rules), and what sharp decodes. */
export interface ImageMeta extends ImageMeasure {
  /** libvips interpretation as sharp names it: 'srgb', 'cmyk', 'b-w', 'grey16', 'rgb16' … */
  colourSpace: string;
  channels: number;
  /** Bits per sample of the decoded pixels (8 or 16; a 1-bit PNG decodes to 8). */
  depth: number;
  hasIccProfile: boolean;
}

export { DEFAULT_DPI, DENSITY_RULE, IMAGE_HEAD_BYTES };

/**
 * The first bytes of a file, read once, and the file behind them for what lies further. Headers,
 * density segments and the JPEG/PNG structure sharp needs are nearly always in the first IMAGE_HEAD_BYTES.
 */
class Source implements ByteSource {
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
 *
 * The density and its precedence are @portal/measure's (the browser's preflight reads them with the
 * same code): sharp reports 72 when a file states none, gives PNG pHYs without a resolutionUnit and
 * drops pHYs of 1000 px/m entirely. Size and orientation are sharp's, which the corpus test
 * (measure-parity.test.ts) holds equal to the package's reading of the headers.
 */
export async function readImageMeta(filePath: string, options: { head?: Buffer } = {}): Promise<ImageMeta> {
  const src = new Source(filePath, options.head ?? (await readHead(filePath, IMAGE_HEAD_BYTES)));
  let meta: Metadata;
  let density: Density | null;
  let format: 'jpeg' | 'png';
  try {
    const type = sniffType(src.head);
    if (type !== 'jpeg' && type !== 'png') throw new MediaError('wrong-type');
    format = type;
    const found = await walkHeaders(src, format);
    density = found.density;
    try {
      meta = await sharp(src.whole || found.headerInHead ? src.head : filePath).metadata();
    } catch (e) {
      throw tooManyPixels(e, found.size ?? undefined) ?? damaged(e);
    }
  } finally {
    await src.close();
  }
  if (meta.format !== format || !meta.width || !meta.height) throw new MediaError('damaged');

  return {
    ...displayed(format, { width: meta.width, height: meta.height }, meta.orientation, density),
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
