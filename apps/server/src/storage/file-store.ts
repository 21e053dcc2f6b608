import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { link, mkdir, open, readdir, rename, rm, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { diskName, diskPath, nameOnDisk, recordName } from './disk-names.ts';
import { cleanRelativePath, resolveUnder } from './paths.ts';

export type StoredEntry = { path: string; size: number; isDirectory: boolean };

/**
 * The hub-scoped file store. Every path is relative to one hub's root; nothing outside it can be named.
 * Local disk now (DATA_DIR/files/<hubId>/…); an object store can implement the same calls.
 * Writes go to a temporary name first and are renamed into place, so a reader never sees half a file.
 * Paths are the customer's, in any script and up to the spec's length: a name the file system may
 * refuse is stored under a short name of its own (disk-names.ts), which no caller ever sees.
 */
export interface FileStore {
  /** Absolute path on local disk, for the media readers (sharp, pdf-lib, yauzl). */
  localPath(hubId: number, rel: string): string;
  write(hubId: number, rel: string, data: Readable | Buffer): Promise<number>;
  read(hubId: number, rel: string): ReadStream;
  stat(hubId: number, rel: string): Promise<{ size: number; isDirectory: boolean; mtimeMs: number } | null>;
  /** Every file below a folder, recursively, with paths relative to the hub root. */
  list(hubId: number, relDir: string): Promise<StoredEntry[]>;
  remove(hubId: number, rel: string): Promise<void>;
  move(hubId: number, from: string, to: string): Promise<void>;
  /**
   * Gives `to` the bytes of `from` without copying them (a hard link; every write of a stored file is a
   * rename over it, so the two never change each other), atomically replacing a file at `to`.
   */
  linkFile(hubId: number, from: string, to: string): Promise<void>;
  /**
   * Uploads in progress, kept apart from stored files: one folder per upload (its key) holding a
   * `<name>.part` file into which every chunk is written at its own offset. Keep in mind:
   * - writes of one chunk never touch another chunk's bytes, so chunks may be written in any order,
   *   in parallel, by several processes sharing the folder, and more than once;
   * - the folder of an upload is removed only by whoever refuses, completes or sweeps the upload.
   */
  /**
   * `isStale` is asked when the part on disk is also a stored file (a second name: a process died between the file's
   * record and the part folder's removal, or between its link and its record): true drops that name and starts a new
   * part, so that no chunk changes a stored file; false keeps it, the complete part of a file still to be recorded.
   */
  openPart(hubId: number, uploadKey: string, name: string, isStale?: () => Promise<boolean>): Promise<PartFile>;
  /**
   * Removes an upload's folder with whatever it holds; `expected` names the part it should hold
   * alone, which makes it two calls instead of a recursive walk.
   */
  removeParts(hubId: number, uploadKey: string, expected?: string): Promise<void>;
  /** Removes uploads' folders whose files were all last written before `before` (answers how many), and what removals left behind. */
  sweepParts(before: Date): Promise<number>;
}

/** One open part file of an upload. */
export interface PartFile {
  /** Absolute path on local disk, for the media readers. */
  readonly path: string;
  /** Writes the buffers at `offset` with one positional writev (libuv loops over partial writes and over more buffers than IOV_MAX). */
  write(offset: number, data: readonly Buffer[]): Promise<void>;
  /** Its size, its first `headBytes` bytes, and the names of the other parts of its upload. */
  inspect(headBytes: number): Promise<{ size: number; head: Buffer; others: string[] }>;
  /** Flushes its bytes and size to disk (fdatasync): a row that records them afterwards never claims bytes a power cut could take back. */
  datasync(): Promise<void>;
  /**
   * Gives it, atomically, the name of the stored file `rel`: false, doing nothing, when that name is taken and `replace`
   * is false; a file there is replaced when it is true.
   */
  publish(rel: string, options: { replace: boolean }): Promise<boolean>;
  /**
   * This request's bytes are of no use (its upload is done, refused or another file's): the upload's
   * folder goes, unless another request of this process is writing or completing a part of it right
   * now (the same file sent twice at once). That one completes or refuses the upload and removes the
   * folder then; what a process leaves behind goes with the sweep.
   */
  discard(): Promise<void>;
  /** Done with it (the file is closed soon after the last chunk sharing it is done, at once once published or removed). */
  close(): Promise<void>;
}

type SharedPart = { handle: Promise<FileHandle>; users: number; retired: boolean; idle?: NodeJS.Timeout };

/**
 * How long a part file stays open after its last chunk is written: the next chunk of the file
 * usually comes sooner, and then costs no open (an open waits behind the chunks being written).
 */
const PART_IDLE_MS = 2000;

/** A temporary name beside `p`, as short as can be: a name of 255 bytes has no room for a suffix. */
const tmpName = (p: string) => path.join(path.dirname(p), `.tmp-${randomBytes(6).toString('hex')}`);

/** A file where a folder of the path must be, or a folder where the file must be. */
const NAME_TAKEN = new Set(['ENOTDIR', 'EISDIR', 'EEXIST']);
/** Whether a write failed because its path is taken by a file or folder of another kind (the caller's 4xx). */
export const isNameTaken = (err: unknown) => NAME_TAKEN.has((err as NodeJS.ErrnoException)?.code ?? '');
/** Whether an upload's part file was gone when it was to be read or published (its folder removed meanwhile). */
export const isPartGone = (err: unknown) => (err as NodeJS.ErrnoException)?.code === 'EPARTGONE';
const partGone = (file: string) => Object.assign(new Error(`the part file is gone: ${file}`), { code: 'EPARTGONE' });
/** Rethrows `err`, as EPARTGONE when it is a missing path and `file` is gone. */
const unlessGone = async (err: unknown, file: string): Promise<never> => {
  if ((err as NodeJS.ErrnoException)?.code === 'ENOENT' && !(await stat(file).then(() => true, () => false))) throw partGone(file);
  throw err;
};

export function createLocalFileStore(filesRoot: string): FileStore {
  const hubRoot = (hubId: number) => path.join(filesRoot, String(hubId));
  const abs = (hubId: number, rel: string) => resolveUnder(hubRoot(hubId), rel, diskPath);
  /** Makes the folders of a file about to be written, with the records of the names that are short on disk. */
  const prepare = async (hubId: number, rel: string) => {
    const target = abs(hubId, rel);
    await mkdir(path.dirname(target), { recursive: true });
    const names = cleanRelativePath(rel).split('/');
    let dir = hubRoot(hubId);
    for (const name of names) {
      if (diskName(name) !== name) await recordName(dir, name);
      dir = path.join(dir, diskName(name));
    }
    return target;
  };
  /** Where removed files and folders go to be deleted (what a crash left there is emptied by sweepParts). */
  const trash = path.join(filesRoot, '.trash');
  const chunkDir = (hubId: number, key: string) => path.join(filesRoot, '.chunks', String(hubId), key);
  const partFile = (hubId: number, key: string, name: string) => path.join(chunkDir(hubId, key), `${name}.part`);
  // Part files open in this process, shared by the chunks of one file (one open instead of one
  // per chunk); closed PART_IDLE_MS after the last of them is done with it, or at once when retired.
  const openParts = new Map<string, SharedPart>();
  // The requests of this process holding a part of each upload's folder (retired parts too, until closed).
  const holders = new Map<string, number>();
  const shut = (entry: SharedPart) => {
    clearTimeout(entry.idle);
    // Nothing is waiting on the close: a failed one leaves nothing to do.
    entry.handle.then((fh) => fh.close()).catch(() => {});
  };
  /** No chunk takes this part from now on; it is closed when the chunks writing it are done. */
  const retire = (file: string, entry: SharedPart) => {
    if (openParts.get(file) === entry) openParts.delete(file);
    if (entry.retired) return;
    entry.retired = true;
    if (entry.users === 0) shut(entry);
  };

  async function removeParts(hubId: number, key: string, expected?: string): Promise<void> {
    const dir = chunkDir(hubId, key);
    for (const [file, entry] of openParts) if (file.startsWith(dir + path.sep)) retire(file, entry);
    if (expected !== undefined) {
      const gone = await unlink(partFile(hubId, key, expected)).then(() => rmdir(dir)).then(() => true, () => false);
      if (gone) return;
    }
    // Another process may be writing a chunk sent again into this folder right now (its
    // ENOTEMPTY): rm tries again a few times, and that process removes what it wrote itself.
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  }

  async function writeAtomic(target: string, data: Readable | Buffer): Promise<number> {
    const tmp = tmpName(target);
    try {
      if (Buffer.isBuffer(data)) {
        const fh = await open(tmp, 'w');
        try { await fh.writeFile(data); await fh.sync(); } finally { await fh.close(); }
      } else {
        await pipeline(data, createWriteStream(tmp));
      }
      const { size } = await stat(tmp);
      await rename(tmp, target);
      return size;
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  return {
    localPath: abs,
    write: async (hubId, rel, data) => writeAtomic(await prepare(hubId, rel), data),
    read: (hubId, rel) => createReadStream(abs(hubId, rel)),
    async stat(hubId, rel) {
      try {
        const s = await stat(abs(hubId, rel));
        return { size: s.size, isDirectory: s.isDirectory(), mtimeMs: s.mtimeMs };
      } catch {
        return null;
      }
    },
    async list(hubId, relDir) {
      // Siblings are read in parallel (a zip's folder holds hundreds of files), in readdir order.
      // Paths are the customer's: a short name on disk is given back its record's name.
      async function walk(dir: string, relOf: string): Promise<StoredEntry[]> {
        let entries;
        try { entries = await readdir(dir, { withFileTypes: true }); } catch { return []; }
        const parts = await Promise.all(entries.map(async (e): Promise<StoredEntry[]> => {
          const p = path.join(dir, e.name);
          if (e.name.includes('.tmp-')) return [];
          const known = nameOnDisk(dir, e.name);
          const name = typeof known === 'object' && known !== null ? await known : known;
          if (name === null) return [];
          const rel = `${relOf}/${name}`;
          if (e.isDirectory()) return [{ path: rel, size: 0, isDirectory: true }, ...(await walk(p, rel))];
          if (!e.isFile()) return [];
          const s = await stat(p).catch(() => null);
          return s ? [{ path: rel, size: s.size, isDirectory: false }] : [];
        }));
        return parts.flat();
      }
      return walk(abs(hubId, relDir), cleanRelativePath(relDir));
    },
    async remove(hubId, rel) {
      // Moved out of the hub in one step, then removed: a file written into a folder meanwhile (a
      // preview being made for a file of it) either went with it or finds no folder, so rm never
      // meets a folder being filled (its ENOTEMPTY). A writer that makes the folder again removes
      // what it wrote itself (services/previews.ts make).
      const away = path.join(trash, randomBytes(8).toString('hex'));
      await mkdir(trash, { recursive: true });
      try {
        await rename(abs(hubId, rel), away);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // Nothing there: the path is gone, or one of its folders is a file.
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        // A hub's folder on another file system than files/.trash (a mount): removed where it is.
        if (code === 'EXDEV') return rm(abs(hubId, rel), { recursive: true, force: true });
        throw err;
      }
      await rm(away, { recursive: true, force: true });
    },
    async linkFile(hubId, from, to) {
      const source = abs(hubId, from);
      const target = await prepare(hubId, to);
      const tmp = tmpName(target);
      await link(source, tmp);
      try {
        await rename(tmp, target);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async move(hubId, from, to) {
      await rename(abs(hubId, from), await prepare(hubId, to));
    },
    async openPart(hubId, key, name, isStale) {
      const file = partFile(hubId, key, name);
      let shared = openParts.get(file);
      if (!shared) {
        // Not open here: most likely the upload's first chunk, whose folder does not exist yet.
        const flags = constants.O_RDWR | constants.O_CREAT;
        const openIt = async () => {
          await mkdir(path.dirname(file), { recursive: true });
          // A part made here and now is no other file's: nothing to look at.
          const made = await open(file, flags | constants.O_EXCL, 0o644).catch((err: NodeJS.ErrnoException) => (err.code === 'EEXIST' ? null : Promise.reject(err)));
          if (made) return made;
          const fh = await open(file, flags, 0o644);
          // A chunk of a new upload written into a finished one's part changed that stored file, an ordered one too
          // (crash probe, 2026-11-30); the part of a file a dead process linked but did not record is kept.
          if (!isStale || (await fh.stat()).nlink < 2 || !(await isStale())) return fh;
          await fh.close();
          await rm(file, { force: true });
          return open(file, flags, 0o644);
        };
        // Another process may remove the folder between our mkdir and open (it just completed the file): once more.
        const opening = openIt().catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? openIt() : Promise.reject(err)));
        const entry: SharedPart = { handle: opening, users: 0, retired: false };
        shared = entry;
        openParts.set(file, entry);
        opening.catch(() => retire(file, entry));
      }
      const entry = shared;
      entry.users++;
      clearTimeout(entry.idle);
      const folder = path.dirname(file);
      holders.set(folder, (holders.get(folder) ?? 0) + 1);
      const letGo = () => {
        const left = holders.get(folder)! - 1;
        if (left > 0) holders.set(folder, left);
        else holders.delete(folder);
      };
      let fh: FileHandle;
      try {
        fh = await entry.handle;
      } catch (err) {
        entry.users--;
        letGo();
        throw err;
      }
      let released = false;
      const close = async () => {
        if (released) return;
        released = true;
        letGo();
        if (--entry.users > 0) return;
        if (entry.retired) return shut(entry);
        entry.idle = setTimeout(() => entry.users === 0 && retire(file, entry), PART_IDLE_MS);
        entry.idle.unref();
      };
      return {
        path: file,
        async write(offset, data) {
          const total = data.reduce((n, b) => n + b.length, 0);
          if (total === 0) return;
          // A full disk can answer a positional writev with a short count instead of an error: what was
          // not written must never be recorded as received.
          const { bytesWritten } = await fh.writev(data as Buffer[], offset);
          if (bytesWritten < total) throw Object.assign(new Error('short write: no space left on device'), { code: 'ENOSPC' });
        },
        async inspect(headBytes) {
          const head = Buffer.allocUnsafe(headBytes);
          const [s, read, names] = await Promise.all([fh.stat(), fh.read(head, 0, headBytes, 0), readdir(folder)]).catch((err: unknown) => unlessGone(err, file));
          const others = names.filter((n) => n.endsWith('.part') && n !== `${name}.part`).map((n) => n.slice(0, -'.part'.length));
          return { size: s.size, head: head.subarray(0, read.bytesRead), others };
        },
        datasync: () => fh.datasync(),
        async publish(rel, { replace }) {
          // Chunks that come from now on start a part of their own, never write into the stored file.
          retire(file, entry);
          return publishAs(rel, replace).catch((err: unknown) => unlessGone(err, file));
        },
        async discard() {
          if ((holders.get(folder) ?? 0) > (released ? 0 : 1)) return;
          await removeParts(hubId, key, name);
        },
        close,
      };
      async function publishAs(rel: string, replace: boolean): Promise<boolean> {
        // A second name for the part: the part itself stays until the upload is recorded as done,
        // so a claimant that dies here leaves a complete part. A new name is linked in place at
        // once; a name already taken is replaced by a rename of a temporary link over it.
        const dest = abs(hubId, rel);
        // The records of short names come first: a file on disk is always listed by its name.
        const named = diskPath(cleanRelativePath(rel)) !== cleanRelativePath(rel);
        if (named) await prepare(hubId, rel);
        const linkTo = async (name: string) => {
          try {
            await link(file, name);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || named) throw err;
            // The folder of the stored file does not exist yet (the first file of a folder).
            await mkdir(path.dirname(dest), { recursive: true });
            await link(file, name);
          }
        };
        try {
          await linkTo(dest);
          return true;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
        if (!replace) return false;
        const tmp = tmpName(dest);
        await linkTo(tmp);
        try {
          await rename(tmp, dest);
        } catch (err) {
          await rm(tmp, { force: true });
          throw err;
        }
        return true;
      }
    },
    removeParts,
    async sweepParts(before) {
      for (const name of await readdir(trash).catch(() => [] as string[])) {
        await rm(path.join(trash, name), { recursive: true, force: true, maxRetries: 5, retryDelay: 20 }).catch(() => {});
      }
      const root = path.join(filesRoot, '.chunks');
      let removed = 0;
      for (const hub of await readdir(root).catch(() => [] as string[])) {
        for (const key of await readdir(path.join(root, hub)).catch(() => [] as string[])) {
          const dir = path.join(root, hub, key);
          const names = await readdir(dir).catch(() => null);
          if (names === null) continue;
          const times = await Promise.all(names.map((n) => stat(path.join(dir, n)).then((s) => s.mtimeMs, () => 0)));
          const newest = Math.max((await stat(dir).catch(() => null))?.mtimeMs ?? 0, ...times);
          if (newest >= before.getTime()) continue;
          await rm(dir, { recursive: true, force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
