import yazl from 'yazl';

/** A zip made in memory: entries of [name, bytes]; compress false stores them. */
export async function makeZip(entries: Array<[string, Buffer]>, compress = true): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of entries) zip.addBuffer(bytes, name, { compress });
  zip.end();
  const parts: Buffer[] = [];
  for await (const c of zip.outputStream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** A zip whose one entry expands to `bytes` of zeros: a bomb when large. */
export async function makeBomb(bytes: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const { Readable } = await import('node:stream');
  const block = Buffer.alloc(1024 * 1024);
  let left = bytes;
  const stream = new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const n = Math.min(left, block.length);
      left -= n;
      this.push(n === block.length ? block : block.subarray(0, n));
    },
  });
  zip.addReadStream(stream, 'zeros.jpg', { size: bytes, compressionLevel: 9 } as never);
  zip.end();
  const parts: Buffer[] = [];
  for await (const c of zip.outputStream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}
