import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

/**
 * Just enough of the PDF standard security handler (ISO 32000-2 §7.6.4) to tell whether a file
 * opens without a password, and if so to decrypt its object streams so the page tree can be read.
 * pdf-lib parses encrypted files but cannot decrypt anything.
 */

export interface StandardEncryption {
  v: number;
  r: number;
  /** Key length in bytes (R2-4). */
  keyLength: number;
  o: Uint8Array;
  u: Uint8Array;
  ue: Uint8Array | undefined;
  p: number;
  id0: Uint8Array;
  encryptMetadata: boolean;
  /** How streams are encrypted: the V4/V5 StmF crypt filter's method, or RC4 for V1/V2. */
  streamMethod: 'None' | 'RC4' | 'AESV2' | 'AESV3';
}

const PAD = Buffer.from(
  '28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a',
  'hex',
);

function md5(...parts: Uint8Array[]): Buffer {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** RC4 is disabled in OpenSSL 3's default provider, so it is done by hand (it is tiny). */
export function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    const t = s[i]!;
    s[i] = s[j]!;
    s[j] = t;
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let k = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    const t = s[i]!;
    s[i] = s[j]!;
    s[j] = t;
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

function int32le(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n | 0);
  return b;
}

/** Algorithm 2: file key from the (here always empty) user password, R2-R4. */
function legacyFileKey(enc: StandardEncryption): Buffer {
  const n = enc.r === 2 ? 5 : enc.keyLength;
  const parts: Uint8Array[] = [PAD, enc.o.subarray(0, 32), int32le(enc.p), enc.id0];
  if (enc.r >= 4 && !enc.encryptMetadata) parts.push(Buffer.from([0xff, 0xff, 0xff, 0xff]));
  let key = md5(...parts);
  if (enc.r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, n));
  return key.subarray(0, n);
}

/** Algorithms 4/5: does the empty password reproduce /U? */
function legacyEmptyUserPasswordWorks(enc: StandardEncryption, key: Buffer): boolean {
  if (enc.r === 2) return rc4(key, PAD).equals(Buffer.from(enc.u.subarray(0, 32)));
  let x = rc4(key, md5(PAD, enc.id0));
  for (let i = 1; i <= 19; i++) {
    x = rc4(
      key.map((b) => b ^ i),
      x,
    );
  }
  return x.equals(Buffer.from(enc.u.subarray(0, 16)));
}

/** Algorithm 2.B (R6); R5 uses the plain SHA-256 of the same input. */
function hash2B(password: Uint8Array, salt: Uint8Array, udata: Uint8Array, r: number): Buffer {
  let k = createHash('sha256').update(password).update(salt).update(udata).digest();
  if (r === 5) return k;
  for (let round = 0; ; round++) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k, udata])));
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    // The first 16 bytes of E as a big-endian number mod 3 equals the sum of those bytes mod 3.
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    const alg = ['sha256', 'sha384', 'sha512'][sum % 3]!;
    k = createHash(alg).update(e).digest();
    if (round >= 63 && e[e.length - 1]! <= round + 1 - 32) break;
  }
  return k.subarray(0, 32);
}

export type PasswordCheck =
  | { opensWithoutPassword: true; fileKey: Buffer }
  | { opensWithoutPassword: false };

export function checkEmptyUserPassword(enc: StandardEncryption): PasswordCheck {
  const empty = new Uint8Array(0);
  if (enc.r >= 2 && enc.r <= 4) {
    if (enc.o.length < 32 || enc.u.length < (enc.r === 2 ? 32 : 16)) return { opensWithoutPassword: false };
    const key = legacyFileKey(enc);
    return legacyEmptyUserPasswordWorks(enc, key)
      ? { opensWithoutPassword: true, fileKey: key }
      : { opensWithoutPassword: false };
  }
  if (enc.r === 5 || enc.r === 6) {
    if (enc.u.length < 48 || !enc.ue || enc.ue.length < 32) return { opensWithoutPassword: false };
    const check = hash2B(empty, enc.u.subarray(32, 40), empty, enc.r);
    if (!check.equals(Buffer.from(enc.u.subarray(0, 32)))) return { opensWithoutPassword: false };
    const intermediate = hash2B(empty, enc.u.subarray(40, 48), empty, enc.r);
    const decipher = createDecipheriv('aes-256-cbc', intermediate, Buffer.alloc(16));
    decipher.setAutoPadding(false);
    const fileKey = Buffer.concat([decipher.update(enc.ue.subarray(0, 32)), decipher.final()]);
    return { opensWithoutPassword: true, fileKey };
  }
  // Unknown revision: we cannot tell, so we must not pretend the file is readable.
  return { opensWithoutPassword: false };
}

/** Algorithm 1 (R2-4 per-object key) and the AES-CBC/RC4 stream ciphers. */
export function decryptStream(
  enc: StandardEncryption,
  fileKey: Buffer,
  objectNumber: number,
  generation: number,
  data: Uint8Array,
): Buffer {
  if (enc.streamMethod === 'None') return Buffer.from(data);
  if (enc.streamMethod === 'AESV3') return aesCbc('aes-256-cbc', fileKey, data);
  const salt = enc.streamMethod === 'AESV2' ? Buffer.from('sAlT', 'latin1') : Buffer.alloc(0);
  const objKey = md5(
    fileKey,
    Buffer.from([objectNumber & 0xff, (objectNumber >> 8) & 0xff, (objectNumber >> 16) & 0xff]),
    Buffer.from([generation & 0xff, (generation >> 8) & 0xff]),
    salt,
  ).subarray(0, Math.min(fileKey.length + 5, 16));
  return enc.streamMethod === 'AESV2' ? aesCbc('aes-128-cbc', objKey, data) : rc4(objKey, data);
}

function aesCbc(alg: 'aes-128-cbc' | 'aes-256-cbc', key: Buffer, data: Uint8Array): Buffer {
  if (data.length < 32 || data.length % 16 !== 0) throw new Error('AES stream has an invalid length');
  const decipher = createDecipheriv(alg, key, data.subarray(0, 16));
  return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
}
