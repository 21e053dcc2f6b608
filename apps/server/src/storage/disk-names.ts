import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The names stored files get on disk (issue #19, item 3). A customer's name is kept as it is
 * wherever the file system takes it, so the stores of before read the same; a name it may refuse
 * gets a short name of its own, and a small record beside it keeps the customer's name, from which
 * listings give it back. Callers never see these names: they speak in the customer's paths.
 *
 * A name is kept as it is when:
 * - it has at most NAME_MAX_BYTES bytes in UTF-8 (NAME_MAX of ext4, XFS, btrfs and ZFS; 84 Chinese
 *   characters and ".jpg" are 256);
 * - it holds no `.tmp-` (the store's own unfinished files, which listings skip);
 * - it holds no `~` and 16 hex digits (the mark of a short name), so that no name the customer
 *   chose can be taken for one.
 * Nothing may add to a stored name on disk: temporary files have short names of their own.
 */
export const NAME_MAX_BYTES = 255;

/** A short name: up to 60 bytes of the name's start, `~`, 16 hex digits of its hash, its extension. */
const SHORT = /~[0-9a-f]{16}(\.[A-Za-z0-9]{1,8})?$/;
const MARK = /~[0-9a-f]{16}/;
const PREFIX_BYTES = 60;

export function keepsItsName(name: string): boolean {
  // A UTF-16 unit is at most 3 bytes in UTF-8: most names need no count of their bytes.
  const fits = name.length * 3 <= NAME_MAX_BYTES || Buffer.byteLength(name) <= NAME_MAX_BYTES;
  return fits && !name.includes('.tmp-') && !(name.includes('~') && MARK.test(name));
}

/** The name one file or folder gets on disk: its own, or a short one made from it. */
export function diskName(name: string): string {
  if (keepsItsName(name)) return name;
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? '';
  let prefix = '';
  let bytes = 0;
  for (const ch of name.slice(0, name.length - ext.length)) {
    // Dots, tildes, separators and control characters become '_': the prefix can never read as a
    // dot-file, a temporary file or a short name.
    const c = /[\p{Cc}.~/\\]/u.test(ch) ? '_' : ch;
    bytes += Buffer.byteLength(c);
    if (bytes > PREFIX_BYTES) break;
    prefix += c;
  }
  return `${prefix}~${createHash('sha256').update(name).digest('hex').slice(0, 16)}${ext}`;
}

/** A path relative to a root, with each name as it is on disk. */
export const diskPath = (rel: string) => rel.split('/').map(diskName).join('/');

/** Whether a name found on disk is a short one (whose record holds the customer's name). */
export const isShortName = (onDisk: string) => SHORT.test(onDisk);

/** The record beside a short name, holding the customer's name. */
const recordOf = (shortName: string) => `.${shortName}.name`;
export const isNameRecord = (onDisk: string) => onDisk.startsWith('.') && onDisk.endsWith('.name') && isShortName(onDisk.slice(1, -'.name'.length));

/**
 * Writes, in the folder `dir` (absolute, existing), the record of `name` when it gets a short name.
 * Written to a temporary name and renamed, so a record is whole or absent; writing it again is harmless.
 */
export async function recordName(dir: string, name: string): Promise<void> {
  const short = diskName(name);
  if (short === name) return;
  const tmp = path.join(dir, `.tmp-${randomBytes(6).toString('hex')}`);
  try {
    await writeFile(tmp, name);
    await rename(tmp, path.join(dir, recordOf(short)));
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * The customer's name of a name found in the folder `dir`: itself (at once, without a promise: a
 * listing asks for every file), or for a short name the one its record holds; null for a record, or
 * for a short name without a whole record (it cannot be named).
 */
export function nameOnDisk(dir: string, onDisk: string): string | null | Promise<string | null> {
  if (!onDisk.includes('~')) return onDisk;
  if (isNameRecord(onDisk)) return null;
  if (!isShortName(onDisk)) return onDisk;
  return readName(dir, onDisk);
}

async function readName(dir: string, onDisk: string): Promise<string | null> {
  const name = await readFile(path.join(dir, recordOf(onDisk)), 'utf8').catch(() => null);
  return name !== null && diskName(name) === onDisk ? name : null;
}
