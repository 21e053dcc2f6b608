/**
 * Writing a changed picture: the single crop (cropImg) and the bulk fixes (裁切填充, 留白适配, 旋转) share
 * how a file is read (as displayed: EXIF orientation applied) and how the result is written (the input's
 * format; JPEG at quality 95 without chroma subsampling; the density stated).
 */
import sharp, { type Sharp } from './sharp.ts';

export type ImageFormat = 'jpeg' | 'png';
export const formatOf = (rel: string): ImageFormat => (rel.toLowerCase().endsWith('.png') ? 'png' : 'jpeg');

/** The picture as displayed: EXIF orientation applied (and the tag reset). A damaged file fails on the first error. */
export const orientedImage = (src: string | Buffer) => sharp(src, { failOn: 'error' }).rotate();

/** Sets the output: the input's format; `density` null keeps the colour profile and states no density (as the input did). */
function encoder(img: Sharp, format: ImageFormat, density: number | null): Sharp {
  const withMeta = density !== null ? img.withMetadata({ density }) : img.keepIccProfile();
  return format === 'png' ? withMeta.png() : withMeta.jpeg({ quality: 95, chromaSubsampling: '4:4:4' });
}

/** Encodes in the input's format (see encoder). */
export const encode = (img: Sharp, format: ImageFormat, density: number | null): Promise<Buffer> => encoder(img, format, density).toBuffer();

/** cropImg: turns the displayed picture by `rotation`, then cuts `rect` (pixels of the turned picture). */
export async function cropImage(src: string, o: { rotation: 0 | 90 | 180 | 270; rect: { left: number; top: number; width: number; height: number }; format: ImageFormat; density: number | null }) {
  let img = orientedImage(src);
  if (o.rotation) img = sharp(await img.toBuffer()).rotate(o.rotation);
  return encode(img.extract(o.rect), o.format, o.density);
}

export type FixPixels =
  /** Scale to cover width × height and cut the overflow, at the centre or where sharp's attention strategy looks. */
  | { kind: 'fill'; width: number; height: number; position: 'centre' | 'attention' }
  /** Scale to fit inside width × height and pad with white, centred. */
  | { kind: 'fit'; width: number; height: number }
  /** The picture as it is (pictureWidth × pictureHeight as displayed), centred on white of width × height: nothing resampled. */
  | { kind: 'pad'; width: number; height: number; pictureWidth: number; pictureHeight: number }
  /** A quarter turn clockwise. */
  | { kind: 'rotate' };

function pipeline(src: string, fix: Exclude<FixPixels, { kind: 'rotate' }>, scale: number): Sharp {
  const img = orientedImage(src);
  const w = (n: number) => Math.max(1, Math.round(n * scale));
  if (fix.kind === 'fill') {
    return img.resize(w(fix.width), w(fix.height), { fit: 'cover', position: fix.position === 'attention' ? sharp.strategy.attention : 'centre' });
  }
  if (fix.kind === 'pad') {
    // Scaled only for a sample; the fixed file keeps every pixel of the picture.
    const [pw, ph, fw, fh] = [w(fix.pictureWidth), w(fix.pictureHeight), w(fix.width), w(fix.height)];
    const left = Math.floor((fw - pw) / 2);
    const top = Math.floor((fh - ph) / 2);
    const white = { r: 255, g: 255, b: 255, alpha: 1 };
    return (scale === 1 ? img : img.resize(pw, ph)).flatten({ background: '#ffffff' })
      .extend({ left, right: Math.max(0, fw - pw - left), top, bottom: Math.max(0, fh - ph - top), background: white });
  }
  // White padding, also behind a transparent PNG: the print has no transparency.
  return img.resize(w(fix.width), w(fix.height), { fit: 'contain', background: { r: 255, g: 255, b: 255, alpha: 1 } }).flatten({ background: '#ffffff' });
}

/**
 * The fixed file's bytes, in its own format, stating `density`, and its size in pixels: one pipeline from the
 * file to the bytes (a quarter turn too: sharp turns by the angle after the EXIF orientation), whose own
 * account of what it wrote is the fixed file's size, so nothing reads the new file back.
 */
export async function fixImage(src: string, fix: FixPixels, format: ImageFormat, density: number): Promise<{ bytes: Buffer; width: number; height: number }> {
  const img = fix.kind === 'rotate' ? orientedImage(src).rotate(90) : pipeline(src, fix, 1);
  const { data, info } = await encoder(img, format, density).toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

/** A small JPEG of the fix's result (long side `maxSide`) for the sample shown before applying. */
export async function fixSample(src: string, fix: FixPixels, maxSide: number): Promise<Buffer> {
  if (fix.kind === 'rotate') return orientedImage(src).rotate(90).resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
  const scale = Math.min(1, maxSide / Math.max(fix.width, fix.height));
  return pipeline(src, fix, scale).jpeg({ quality: 80 }).toBuffer();
}
