import zlib from 'node:zlib';
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

/**
 * A zip whose one entry expands to `bytes` of zeros: a bomb when large. Deflating gigabytes takes zlib
 * seconds, so the entry is one deflated mebibyte of zeros repeated: each piece ends on a full flush
 * (byte-aligned, nothing referring back), so the pieces one after another are one deflate stream.
 */
export function makeBomb(bytes: number, entryName = 'zeros.jpg'): Buffer {
  const MIB = 1024 * 1024;
  const zeros = Buffer.alloc(MIB);
  const piece = zlib.deflateRawSync(zeros, { finishFlush: zlib.constants.Z_FULL_FLUSH });
  const pieces: Buffer[] = [];
  let crc = 0;
  for (let left = bytes; left > 0; left -= MIB) {
    const n = Math.min(left, MIB);
    pieces.push(n === MIB ? piece : zlib.deflateRawSync(zeros.subarray(0, n), { finishFlush: zlib.constants.Z_FULL_FLUSH }));
    crc = zlib.crc32(zeros.subarray(0, n), crc);
  }
  pieces.push(zlib.deflateRawSync(Buffer.alloc(0))); // the final block
  const data = Buffer.concat(pieces);
  const name = Buffer.from(entryName);
  // The fields a local header and a central directory record share (APPNOTE 4.3.7, 4.3.12).
  const common = Buffer.alloc(26);
  common.writeUInt16LE(20, 0); // version needed
  common.writeUInt16LE(8, 4); // deflated
  common.writeUInt16LE(0x21, 8); // 1980-01-01
  common.writeUInt32LE(crc >>> 0, 10);
  common.writeUInt32LE(data.length, 14);
  common.writeUInt32LE(bytes, 18);
  common.writeUInt16LE(name.length, 22);
  const local = Buffer.concat([u32(0x04034b50), common, name]);
  const central = Buffer.concat([u32(0x02014b50), Buffer.from([20, 0]), common, Buffer.alloc(14), name]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(local.length + data.length, 16);
  return Buffer.concat([local, data, central, end]);
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
