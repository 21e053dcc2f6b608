import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/**
 * An image of random pixels: noise barely compresses, so the file size follows the pixel count
 * (a 1650×1100 JPEG at quality 100 is ≈ 2.5 MB, 560×380 ≈ 300 kB).
 */
export function noiseImage(o: { width: number; height: number; format: 'jpeg' | 'png'; quality?: number; density?: number }): Promise<Buffer> {
  let img = sharp(randomBytes(o.width * o.height * 3), { raw: { width: o.width, height: o.height, channels: 3 } });
  if (o.density) img = img.withMetadata({ density: o.density });
  return (o.format === 'jpeg' ? img.jpeg({ quality: o.quality ?? 100 }) : img.png({ compressionLevel: 1 })).toBuffer();
}
