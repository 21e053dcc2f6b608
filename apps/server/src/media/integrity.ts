import { open, readFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/**
 * A cheap test that an image is whole, without decoding its pixels (a decode costs far more than the
 * check's budget for a work of hundreds of images):
 * - JPEG: the end-of-image marker must be in the file's tail (a truncated file has none; entropy-coded
 *   data cannot hold FF D9, so finding it there means the scan finished);
 * - PNG: every chunk's CRC must match and the file must end with IEND.
 * Answers null when whole, else the customer's reason.
 */
export async function imageIntegrity(filePath: string, format: 'jpeg' | 'png'): Promise<string | null> {
  return format === 'jpeg' ? jpegIntegrity(filePath) : pngIntegrity(filePath);
}

const TAIL = 64 * 1024;
export const TRUNCATED = '文件破损：图片数据不完整';
export const CORRUPT = '文件破损：图片数据校验错误';

async function jpegIntegrity(filePath: string): Promise<string | null> {
  const fh = await open(filePath, 'r');
  try {
    const { size } = await fh.stat();
    const len = Math.min(size, TAIL);
    const buf = Buffer.alloc(len);
    await fh.read(buf, 0, len, size - len);
    for (let i = len - 2; i >= 0; i--) if (buf[i] === 0xff && buf[i + 1] === 0xd9) return null;
    return TRUNCATED;
  } finally {
    await fh.close();
  }
}

async function pngIntegrity(filePath: string): Promise<string | null> {
  const buf = await readFile(filePath);
  let pos = 8;
  while (pos + 12 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    if (pos + 12 + len > buf.length) return TRUNCATED;
    const typeAndData = buf.subarray(pos + 4, pos + 8 + len);
    if (crc32(typeAndData) !== buf.readUInt32BE(pos + 8 + len)) return CORRUPT;
    if (buf.toString('latin1', pos + 4, pos + 8) === 'IEND') return null;
    pos += 12 + len;
  }
  return TRUNCATED;
}
