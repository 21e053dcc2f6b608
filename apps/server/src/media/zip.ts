import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { crc32, inflateRaw } from 'node:zlib';
import iconv from 'iconv-lite';
import yauzl from 'yauzl';
import { diskName, recordName } from '../storage/disk-names.ts';
import { hasControlChars } from '../storage/paths.ts';
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
  /** Longest entry path kept, in characters (the spec's 255); longer ones are left out. */
  maxPathChars?: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 4 * 1024 ** 3,
  maxRatio: 200,
  ratioMinBytes: 1024 ** 2,
  maxPathChars: 255,
};

export type ZipNameEncoding = 'utf8-flag' | 'unicode-path-extra' | 'utf8' | 'gbk' | 'shift-jis';

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

/**
 * Called once an entry's file is in place, with its bytes when they were held in memory (entries
 * up to a few MiB), so that a caller can read what it needs from them instead of from the disk.
 */
export type OnZipWritten = (entry: ZipEntryInfo, data: Buffer | null) => void | Promise<void>;

/** yauzl 3 fields that @types/yauzl (2.x) does not declare. */
interface RawEntry extends yauzl.Entry {
  fileNameRaw?: Buffer;
}

interface Listed {
  raw: yauzl.Entry;
  info: ZipEntryInfo;
  segments: string[];
  /** The name as decoded, before NFC: tells a name written twice from one written two ways. */
  decoded: string;
}

/**
 * Why an entry was left out of the extraction, while the rest is extracted:
 * - 'same-name', 'normalisation': an earlier file entry has its name, written the same, or written
 *   another way that NFC makes one (é as one code point and as e + U+0301); the first is kept;
 * - 'folder-name': a file named like a folder of the archive (`W/a` beside `W/a/b.jpg`): the folder is kept;
 * - 'path-too-long': its path is longer than `maxPathChars`;
 * - 'unreadable-name': its name holds bytes no code page of the archive reads (U+FFFD once decoded): two such
 *   names would become one, the second file lost under the first's name (API probe, 2026-11-30);
 * - 'control-chars': its name holds control characters or bidirectional overrides (storage/paths.ts hasControlChars).
 */
export type ZipLeftOut = 'same-name' | 'normalisation' | 'folder-name' | 'path-too-long' | 'unreadable-name' | 'control-chars';

/** Called for each entry left out of the extraction (ZipLeftOut says why). */
export type OnZipLeftOut = (entry: ZipEntryInfo, why: ZipLeftOut) => void | Promise<void>;

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

const KANA = /[\u3041-\u30ff]/;
const HALF_WIDTH_KATAKANA = /[\uff61-\uff9f]/;
/**
 * Shift-JIS (Windows in Japanese, CP932) rather than GBK: every name decodes as Shift-JIS, with kana and
 * without half-width katakana. GBK's Chinese names have bytes in 0xA1-0xDF, which Shift-JIS reads as
 * half-width katakana (中文路径 → ﾖﾐﾎﾄﾂｷｾｶ); Japanese names nearly always hold kana, whose lead bytes
 * 0x82/0x83 begin rare characters in GBK.
 */
function looksShiftJis(names: readonly Buffer[]): boolean {
  let kana = false;
  for (const raw of names) {
    const s = iconv.decode(raw, 'cp932');
    if (s.includes('\ufffd') || HALF_WIDTH_KATAKANA.test(s)) return false;
    kana ||= KANA.test(s);
  }
  return kana;
}

/**
 * Names without the UTF-8 flag: UTF-8 when valid (macOS and 7-Zip write UTF-8 without the flag),
 * else GBK/CP936 (Windows in Chinese), or Shift-JIS when the names say so (`looksShiftJis`). The
 * choice is made once per archive, because an archiver uses one code page for every name: otherwise
 * a folder whose GBK bytes happen to be valid UTF-8 would decode two ways and split into two folders.
 * CP866 names are not guessed; GBK decodes them into other characters. Neither code page splits a
 * name at a 0x5C trail byte.
 */
function decodeNames(entries: readonly yauzl.Entry[]): Array<{ name: string; encoding: ZipNameEncoding }> {
  const legacyRaw = entries
    .filter((e) => (e.generalPurposeBitFlag & UTF8_FLAG) === 0 && unicodePathExtra(e, rawName(e)) === null)
    .map(rawName);
  const legacy = legacyRaw.some((raw) => !isUtf8(raw));
  const codePage = legacy && looksShiftJis(legacyRaw) ? 'shift-jis' : 'gbk';
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
    return codePage === 'shift-jis' ? { name: iconv.decode(raw, 'cp932'), encoding: 'shift-jis' } : { name: iconv.decode(raw, 'cp936'), encoding: 'gbk' };
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
      decoded: name.replace(/\\/g, '/').split('/').filter((x) => x !== '' && x !== '.').join('/'),
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

/** Entries extracted at once: inflating runs in libuv's pool while the CRC and writes of others go on. */
const EXTRACT_CONCURRENCY = 4;
/** Entries up to this size are inflated in memory and written with one call; larger ones stream. */
const BUFFERED_ENTRY_BYTES = 4 * 1024 * 1024;

/**
 * Validates the whole archive first (nothing is written for a refused one), then extracts a few
 * entries at a time, each to a temporary name beside its target, renamed once complete, so that
 * a reader never sees half a file. Folders are made once each. `onEntry` is called for every
 * entry in order, before it is extracted; `onWritten` after each file is in place (its failure
 * fails the extraction); `onLeftOut` for each entry that is not extracted (ZipLeftOut). Names go
 * to disk as the file store writes them (storage/disk-names.ts: a name too long for the file
 * system gets a short one, with its record beside it). On failure the files and folders made so far are removed. Returns the
 * written files' paths, relative to destDir, '/'-separated, in archive order.
 */
export async function extractZip(
  zipPath: string,
  destDir: string,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
  onEntry?: OnZipEntry,
  onWritten?: OnZipWritten,
  onLeftOut?: OnZipLeftOut,
): Promise<string[]> {
  const root = path.resolve(destDir);
  const zipfile = await openZip(zipPath);
  const written: Array<string | undefined> = [];
  const folders = new Map<string, Promise<unknown>>();
  const madeFolders: string[] = [];
  /** Each folder once: later entries of a folder wait on the same mkdir. */
  const folder = (dir: string): Promise<unknown> => {
    let made = folders.get(dir);
    if (!made) {
      made = mkdir(dir, { recursive: true }).then((first) => {
        if (first !== undefined) madeFolders.push(first);
      });
      folders.set(dir, made);
    }
    return made;
  };
  let failure: unknown;
  const running = new Set<Promise<void>>();
  let fh: FileHandle | undefined;
  try {
    // The small entries' bytes are read through a handle of our own, with positional reads.
    fh = await open(zipPath, 'r');
    const archive = { fh, bytes: (await fh.stat()).size };
    const listed = await listOpen(zipfile, limits);
    await mkdir(root, { recursive: true });
    folders.set(root, Promise.resolve());
    const maxChars = limits.maxPathChars ?? DEFAULT_ZIP_LIMITS.maxPathChars ?? Infinity;
    const tooLong = (info: ZipEntryInfo) => [...info.name].length > maxChars;
    // Every folder of the entries kept: a file of one of these names cannot be written beside it.
    const folderNames = new Set<string>();
    for (const { info, segments } of listed) {
      if (tooLong(info)) continue;
      for (let k = 1; k < segments.length; k++) folderNames.add(segments.slice(0, k).join('/'));
      if (info.isDirectory) folderNames.add(info.name);
    }
    // The records of the short names on disk, each written once (in the folder that holds it).
    const records = new Map<string, Promise<unknown>>();
    const named = (segments: readonly string[], onDisk: readonly string[]) => Promise.all(segments.map((name, k) => {
      if (onDisk[k] === name) return undefined;
      const dir = path.join(root, ...onDisk.slice(0, k));
      const key = path.join(dir, onDisk[k]!);
      let made = records.get(key);
      if (!made) {
        made = folder(dir).then(() => recordName(dir, name));
        records.set(key, made);
      }
      return made;
    }));
    const budget = { used: 0, max: limits.maxTotalBytes };
    // File names taken so far (NFC) and how each was written: a later entry of a taken name would
    // overwrite the first (or race it), so it is left out and reported.
    const taken = new Map<string, string>();
    for (let i = 0; i < listed.length && failure === undefined; i++) {
      const { raw, info, segments, decoded } = listed[i]!;
      if (onEntry && (await onEntry(info, i, listed.length)) === false) continue;
      const nameRefused = info.name.includes('\ufffd') ? 'unreadable-name' : hasControlChars(info.name) ? 'control-chars' : tooLong(info) ? 'path-too-long' : null;
      if (nameRefused) {
        // A folder is said through its files.
        if (!info.isDirectory) await onLeftOut?.(info, nameRefused);
        continue;
      }
      if (!info.isDirectory) {
        if (folderNames.has(info.name)) {
          await onLeftOut?.(info, 'folder-name');
          continue;
        }
        const first = taken.get(info.name);
        if (first !== undefined) {
          await onLeftOut?.(info, first === decoded ? 'same-name' : 'normalisation');
          continue;
        }
        taken.set(info.name, decoded);
      }
      const onDisk = segments.map(diskName);
      const target = path.resolve(root, ...onDisk);
      if (!target.startsWith(root + path.sep)) throw new MediaError('zip-slip');
      if (info.isDirectory) {
        await folder(target);
        await named(segments, onDisk);
        continue;
      }
      const job = folder(path.dirname(target))
        .then(() => named(segments, onDisk))
        .then(() => writeEntry(zipfile, archive, raw, target, budget))
        .then(async (data) => {
          written[i] = info.name;
          await onWritten?.(info, data);
        })
        .catch((e: unknown) => {
          failure ??= e;
        });
      running.add(job);
      void job.finally(() => running.delete(job));
      // Not p-limit: it would queue every entry at once, and this loop must wait for a free slot
      // before it reads the next entry (onEntry is called just before an entry is extracted).
      if (running.size >= EXTRACT_CONCURRENCY) await Promise.race(running);
    }
    await Promise.all(running);
    if (failure !== undefined) throw failure;
    return written.filter((w): w is string => w !== undefined);
  } catch (e) {
    await Promise.all(running);
    await Promise.all(written.map((rel) => (rel === undefined ? undefined : rm(path.join(root, rel), { force: true }))));
    await Promise.all(madeFolders.map((dir) => rm(dir, { recursive: true, force: true })));
    throw e;
  } finally {
    zipfile.close();
    await fh?.close();
  }
}

const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const LOCAL_HEADER_BYTES = 30;
/** Read beyond the name and extra field the central directory gives: a local extra field may be longer. */
const LOCAL_EXTRA_SLACK = 512;

/**
 * The entry's bytes as stored in the archive (still deflated for method 8), read with one
 * positional read of its local header and data together (a second only for an unusually long
 * local extra field), instead of a stream of 64 KiB reads.
 */
async function readStored(archive: FileHandle, archiveBytes: number, entry: yauzl.Entry): Promise<Buffer> {
  const start = entry.relativeOffsetOfLocalHeader;
  const guess = LOCAL_HEADER_BYTES + entry.fileNameLength + entry.extraFieldLength + LOCAL_EXTRA_SLACK + entry.compressedSize;
  const buf = Buffer.allocUnsafe(Math.min(guess, Math.max(0, archiveBytes - start)));
  const { bytesRead } = await archive.read(buf, 0, buf.length, start);
  if (bytesRead < LOCAL_HEADER_BYTES || buf.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) throw new MediaError('damaged');
  const dataStart = LOCAL_HEADER_BYTES + buf.readUInt16LE(26) + buf.readUInt16LE(28);
  const dataEnd = dataStart + entry.compressedSize;
  if (start + dataEnd > archiveBytes) throw new MediaError('damaged');
  if (dataEnd <= bytesRead) return buf.subarray(dataStart, dataEnd);
  const data = Buffer.allocUnsafe(entry.compressedSize);
  const again = await archive.read(data, 0, data.length, start + dataStart);
  if (again.bytesRead !== data.length) throw new MediaError('damaged');
  return data;
}

const inflateRawAsync = promisify(inflateRaw);

/**
 * A small entry in one go: its stored bytes are read at once, inflated by one call in libuv's pool
 * (never past the declared size, which caps a lying entry), then counted and checked against the
 * declared size and the CRC, as yauzl's stream and Meter do for large entries.
 */
async function inflateEntry(archive: { fh: FileHandle; bytes: number }, entry: yauzl.Entry, budget: { used: number; max: number }): Promise<Buffer> {
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) throw new MediaError('damaged');
  const stored = await readStored(archive.fh, archive.bytes, entry);
  let data: Buffer;
  if (entry.compressionMethod === 0) data = stored;
  else {
    try {
      // One byte more than declared, so that a longer output shows as a lie instead of being cut;
      // and an output buffer that size, so that the pool is asked once, not once per 16 KiB.
      const most = entry.uncompressedSize + 1;
      data = await inflateRawAsync(stored, { maxOutputLength: most, chunkSize: Math.max(64 * 1024, most) });
    } catch (err) {
      throw zipError(err);
    }
  }
  if (data.length !== entry.uncompressedSize) throw new MediaError('damaged');
  budget.used += data.length;
  if (budget.used > budget.max) throw new MediaError('zip-too-large');
  if ((crc32(data) >>> 0) !== (entry.crc32 >>> 0)) throw new MediaError('damaged');
  return data;
}

/** Writes one entry to its target; answers its bytes when they were held in memory. */
async function writeEntry(
  zipfile: yauzl.ZipFile,
  archive: { fh: FileHandle; bytes: number },
  entry: yauzl.Entry,
  target: string,
  budget: { used: number; max: number },
): Promise<Buffer | null> {
  const tmp = path.join(path.dirname(target), `.unzip-${randomUUID()}.part`);
  // Both sizes bound what is held in memory; a lying compressed size streams like a large entry.
  if (entry.uncompressedSize <= BUFFERED_ENTRY_BYTES && entry.compressedSize <= BUFFERED_ENTRY_BYTES) {
    const data = await inflateEntry(archive, entry, budget);
    try {
      await writeFile(tmp, data, { flag: 'wx' });
      await rename(tmp, target);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    return data;
  }
  const input = await openReadStream(zipfile, entry);
  let readFailed: unknown;
  input.once('error', (err: unknown) => {
    readFailed = err;
  });
  try {
    await pipeline(input, new Meter(budget, entry.crc32), createWriteStream(tmp, { flags: 'wx' }));
    await rename(tmp, target);
    return null;
  } catch (e) {
    await rm(tmp, { force: true });
    if (e instanceof MediaError) throw e;
    // Inflate errors and size mismatches are the archive's fault; disk errors are ours.
    if (readFailed !== undefined) throw zipError(readFailed);
    throw e;
  }
}
