import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import iconv from 'iconv-lite';
import yauzl from 'yauzl';
import { MediaError } from './errors.ts';

export interface ZipLimits {
  /** Most entries (files and folders) an archive may hold. */
  maxEntries: number;
  /** Most bytes all entries may expand to, declared and actually written. */
  maxTotalBytes: number;
  /** Highest uncompressed/compressed ratio of one entry. */
  maxRatio: number;
  /**
   * Entries expanding to fewer bytes than this skip the ratio check: a small run of blank
   * text compresses 1000:1 and is harmless. Default 1 MiB.
   */
  ratioMinBytes?: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 4 * 1024 ** 3,
  maxRatio: 200,
  ratioMinBytes: 1024 ** 2,
};

export type ZipNameEncoding = 'utf8-flag' | 'unicode-path-extra' | 'utf8' | 'gbk';

export interface ZipEntryInfo {
  /** Decoded, '/'-separated, without '.' or empty segments or a trailing slash; NFC. */
  name: string;
  isDirectory: boolean;
  uncompressedSize: number;
  compressedSize: number;
  nameEncoding: ZipNameEncoding;
}

export interface ZipListing {
  entries: ZipEntryInfo[];
}

/** Return false to leave an entry out of the extraction. */
export type OnZipEntry = (entry: ZipEntryInfo, index: number, total: number) => boolean | void | Promise<boolean | void>;

/** yauzl 3 fields that @types/yauzl (2.x) does not declare. */
interface RawEntry extends yauzl.Entry {
  fileNameRaw?: Buffer;
}

interface Listed {
  raw: yauzl.Entry;
  info: ZipEntryInfo;
  segments: string[];
}

const UTF8_FLAG = 0x800;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function openZip(zipPath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      zipPath,
      // decodeStrings:false so that names are decoded here, before any '\' is treated as a separator
      { lazyEntries: true, decodeStrings: false, autoClose: false, validateEntrySizes: true },
      (err, zipfile) => {
        if (err || !zipfile) reject(zipError(err));
        else resolve(zipfile);
      },
    );
  });
}

function zipError(err: unknown): MediaError {
  if (err instanceof MediaError) return err;
  if (err instanceof Error && /encrypt/i.test(err.message)) return new MediaError('zip-encrypted', undefined, { cause: err });
  return new MediaError('damaged', undefined, { cause: err });
}

function readRawEntries(zipfile: yauzl.ZipFile, limits: ZipLimits): Promise<yauzl.Entry[]> {
  // The count comes from the end-of-central-directory record, before any entry is read.
  if (zipfile.entryCount > limits.maxEntries) return Promise.reject(new MediaError('zip-too-many-entries'));
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zipfile.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      if (entries.length > limits.maxEntries) {
        zipfile.removeAllListeners();
        // An 'error' event without a listener would crash the process.
        zipfile.on('error', () => {});
        reject(new MediaError('zip-too-many-entries'));
        return;
      }
      zipfile.readEntry();
    });
    zipfile.once('end', () => resolve(entries));
    zipfile.once('error', (err: unknown) => reject(zipError(err)));
    zipfile.readEntry();
  });
}

function rawName(entry: yauzl.Entry): Buffer {
  const raw = (entry as RawEntry).fileNameRaw;
  if (Buffer.isBuffer(raw)) return raw;
  const name: unknown = entry.fileName;
  return Buffer.isBuffer(name) ? name : Buffer.from(String(name), 'utf8');
}

/** Info-ZIP Unicode Path Extra Field (0x7075), honoured only while its CRC matches the name. */
function unicodePathExtra(entry: yauzl.Entry, raw: Buffer): string | null {
  for (const field of entry.extraFields ?? []) {
    if (field.id !== 0x7075 || field.data.length < 6 || field.data[0] !== 1) continue;
    if (field.data.readUInt32LE(1) !== crc32(raw)) continue;
    try {
      return strictUtf8.decode(field.data.subarray(5));
    } catch {
      continue;
    }
  }
  return null;
}

function isUtf8(bytes: Buffer): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Names without the UTF-8 flag: UTF-8 when valid (macOS and 7-Zip write UTF-8 without the flag),
 * else GBK/CP936 (Windows in Chinese). The choice is made once per archive, because an archiver
 * uses one code page for every name: otherwise a folder whose GBK bytes happen to be valid UTF-8
 * would decode two ways and split into two folders. Shift-JIS and CP866 names are not guessed;
 * GBK decodes them into other characters, but never splits them at a 0x5C trail byte.
 */
function decodeNames(entries: readonly yauzl.Entry[]): Array<{ name: string; encoding: ZipNameEncoding }> {
  const legacy = entries.some(
    (e) => (e.generalPurposeBitFlag & UTF8_FLAG) === 0 && unicodePathExtra(e, rawName(e)) === null && !isUtf8(rawName(e)),
  );
  return entries.map((e) => {
    const raw = rawName(e);
    if (e.generalPurposeBitFlag & UTF8_FLAG) {
      if (isUtf8(raw)) return { name: raw.toString('utf8'), encoding: 'utf8-flag' };
      // A false flag: fall back to the code page rather than refuse the archive.
      return { name: iconv.decode(raw, 'cp936'), encoding: 'gbk' };
    }
    const extra = unicodePathExtra(e, raw);
    if (extra !== null) return { name: extra, encoding: 'unicode-path-extra' };
    if (!legacy) return { name: raw.toString('utf8'), encoding: 'utf8' };
    return { name: iconv.decode(raw, 'cp936'), encoding: 'gbk' };
  });
}

/** Segments of a safe relative path, or a 'zip-slip' error. */
function safeSegments(decoded: string): { segments: string[]; isDirectory: boolean } {
  if (decoded.includes('\0')) throw new MediaError('zip-slip');
  const p = decoded.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) throw new MediaError('zip-slip');
  const segments = p.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new MediaError('zip-slip');
  return { segments: segments.map((s) => s.normalize('NFC')), isDirectory: p.endsWith('/') };
}

function checkEntry(entry: yauzl.Entry, segments: string[]): void {
  if (entry.generalPurposeBitFlag & 0x1) throw new MediaError('zip-encrypted');
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) throw new MediaError('zip-symlink');
  if (segments.length === 0 && entry.uncompressedSize > 0) throw new MediaError('zip-slip');
}

function checkSizes(listed: readonly Listed[], limits: ZipLimits): void {
  let total = 0;
  for (const { info } of listed) total += info.uncompressedSize;
  if (total > limits.maxTotalBytes) throw new MediaError('zip-too-large');
  const minBytes = limits.ratioMinBytes ?? DEFAULT_ZIP_LIMITS.ratioMinBytes ?? 0;
  for (const { info } of listed) {
    if (info.uncompressedSize < minBytes) continue;
    if (info.uncompressedSize / Math.max(info.compressedSize, 1) > limits.maxRatio) throw new MediaError('zip-ratio');
  }
}

async function listOpen(zipfile: yauzl.ZipFile, limits: ZipLimits): Promise<Listed[]> {
  const raws = await readRawEntries(zipfile, limits);
  const names = decodeNames(raws);
  const listed: Listed[] = [];
  raws.forEach((raw, i) => {
    const { name, encoding } = names[i]!;
    const { segments, isDirectory } = safeSegments(name);
    checkEntry(raw, segments);
    // "./" and the like name the root itself: nothing to list or create.
    if (segments.length === 0) return;
    listed.push({
      raw,
      segments,
      info: {
        name: segments.join('/'),
        isDirectory,
        uncompressedSize: raw.uncompressedSize,
        compressedSize: raw.compressedSize,
        nameEncoding: encoding,
      },
    });
  });
  checkSizes(listed, limits);
  return listed;
}

/** Reads the central directory only; refuses the whole archive on the first unsafe entry. */
export async function readZipEntries(zipPath: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipListing> {
  const zipfile = await openZip(zipPath);
  try {
    return { entries: (await listOpen(zipfile, limits)).map((l) => l.info) };
  } finally {
    zipfile.close();
  }
}

function openReadStream(zipfile: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (err, stream) => {
      if (err || !stream) reject(zipError(err));
      else resolve(stream);
    });
  });
}

/**
 * Counts what really comes out of the inflater (declared sizes can lie) and checks the CRC,
 * which yauzl does not.
 */
class Meter extends Transform {
  private crc = 0;
  private bytes = 0;

  constructor(
    private readonly budget: { used: number; max: number },
    private readonly expectedCrc: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.budget.used += chunk.length;
    this.bytes += chunk.length;
    if (this.budget.used > this.budget.max) {
      cb(new MediaError('zip-too-large'));
      return;
    }
    this.crc = crc32(chunk, this.crc);
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    if ((this.crc >>> 0) !== (this.expectedCrc >>> 0)) cb(new MediaError('damaged'));
    else cb();
  }
}

/**
 * Validates the whole archive first (nothing is written for a refused one), then streams each
 * entry to a temporary name beside its target and renames it, so that a reader never sees half
 * a file. On failure the files written so far are removed. Returns the written files' paths,
 * relative to destDir, '/'-separated.
 */
export async function extractZip(
  zipPath: string,
  destDir: string,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
  onEntry?: OnZipEntry,
): Promise<string[]> {
  const root = path.resolve(destDir);
  const zipfile = await openZip(zipPath);
  const written: string[] = [];
  try {
    const listed = await listOpen(zipfile, limits);
    await mkdir(root, { recursive: true });
    const budget = { used: 0, max: limits.maxTotalBytes };
    for (let i = 0; i < listed.length; i++) {
      const { raw, info, segments } = listed[i]!;
      if (onEntry && (await onEntry(info, i, listed.length)) === false) continue;
      const target = path.resolve(root, ...segments);
      if (!target.startsWith(root + path.sep)) throw new MediaError('zip-slip');
      if (info.isDirectory) {
        await mkdir(target, { recursive: true });
        continue;
      }
      await mkdir(path.dirname(target), { recursive: true });
      await writeEntry(zipfile, raw, target, budget);
      written.push(info.name);
    }
    return written;
  } catch (e) {
    await Promise.all(written.map((rel) => rm(path.join(root, rel), { force: true })));
    throw e;
  } finally {
    zipfile.close();
  }
}

async function writeEntry(
  zipfile: yauzl.ZipFile,
  entry: yauzl.Entry,
  target: string,
  budget: { used: number; max: number },
): Promise<void> {
  const tmp = path.join(path.dirname(target), `.unzip-${randomUUID()}.part`);
  const input = await openReadStream(zipfile, entry);
  let readFailed: unknown;
  input.once('error', (err: unknown) => {
    readFailed = err;
  });
  try {
    await pipeline(input, new Meter(budget, entry.crc32), createWriteStream(tmp, { flags: 'wx' }));
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true });
    if (e instanceof MediaError) throw e;
    // Inflate errors and size mismatches are the archive's fault; disk errors are ours.
    if (readFailed !== undefined) throw zipError(readFailed);
    throw e;
  }
}
