import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { resolveUnder } from './paths.ts';

export type StoredEntry = { path: string; size: number; isDirectory: boolean };

/**
 * The hub-scoped file store. Every path is relative to one hub's root; nothing outside it can be named.
 * Local disk now (DATA_DIR/files/<hubId>/…); an object store can implement the same calls.
 * Writes go to a temporary name first and are renamed into place, so a reader never sees half a file.
 */
export interface FileStore {
  /** Absolute path on local disk, for the media readers (sharp, pdf-lib, yauzl). */
  localPath(hubId: number, rel: string): string;
  write(hubId: number, rel: string, data: Readable | Buffer): Promise<number>;
  read(hubId: number, rel: string): ReadStream;
  stat(hubId: number, rel: string): Promise<{ size: number; isDirectory: boolean } | null>;
  /** Every file below a folder, recursively, with paths relative to the hub root. */
  list(hubId: number, relDir: string): Promise<StoredEntry[]>;
  remove(hubId: number, rel: string): Promise<void>;
  move(hubId: number, from: string, to: string): Promise<void>;
  /** Chunks of a file being uploaded, kept apart from stored files until assembled. */
  writeChunk(hubId: number, uploadKey: string, index: number, data: Readable): Promise<number>;
  chunkSizes(hubId: number, uploadKey: string): Promise<Map<number, number>>;
  chunkPath(hubId: number, uploadKey: string, index: number): string;
  /** Concatenates chunks 1..total into rel atomically and returns the bytes written. */
  assemble(hubId: number, uploadKey: string, total: number, rel: string): Promise<number>;
  removeChunks(hubId: number, uploadKey: string): Promise<void>;
  removeChunk(hubId: number, uploadKey: string, index: number): Promise<void>;
}

const tmpName = (p: string) => `${p}.tmp-${randomBytes(6).toString('hex')}`;

export function createLocalFileStore(filesRoot: string): FileStore {
  const hubRoot = (hubId: number) => path.join(filesRoot, String(hubId));
  const abs = (hubId: number, rel: string) => resolveUnder(hubRoot(hubId), rel);
  const chunkDir = (hubId: number, key: string) => path.join(filesRoot, '.chunks', String(hubId), key);

  async function writeAtomic(target: string, data: Readable | Buffer): Promise<number> {
    await mkdir(path.dirname(target), { recursive: true });
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
    write: (hubId, rel, data) => writeAtomic(abs(hubId, rel), data),
    read: (hubId, rel) => createReadStream(abs(hubId, rel)),
    async stat(hubId, rel) {
      try {
        const s = await stat(abs(hubId, rel));
        return { size: s.size, isDirectory: s.isDirectory() };
      } catch {
        return null;
      }
    },
    async list(hubId, relDir) {
      const base = abs(hubId, relDir);
      const root = hubRoot(hubId);
      const out: StoredEntry[] = [];
      async function walk(dir: string) {
        let entries;
        try { entries = await readdir(dir, { withFileTypes: true }); } catch { return; }
        for (const e of entries) {
          const p = path.join(dir, e.name);
          if (e.name.includes('.tmp-')) continue;
          if (e.isDirectory()) {
            out.push({ path: path.relative(root, p).split(path.sep).join('/'), size: 0, isDirectory: true });
            await walk(p);
          } else if (e.isFile()) {
            out.push({ path: path.relative(root, p).split(path.sep).join('/'), size: (await stat(p)).size, isDirectory: false });
          }
        }
      }
      await walk(base);
      return out;
    },
    remove: async (hubId, rel) => rm(abs(hubId, rel), { recursive: true, force: true }),
    async move(hubId, from, to) {
      const dest = abs(hubId, to);
      await mkdir(path.dirname(dest), { recursive: true });
      await rename(abs(hubId, from), dest);
    },
    async writeChunk(hubId, key, index, data) {
      // A chunk sent twice simply replaces itself: same bytes, same name.
      return writeAtomic(path.join(chunkDir(hubId, key), String(index)), data);
    },
    chunkPath: (hubId, key, index) => path.join(chunkDir(hubId, key), String(index)),
    async chunkSizes(hubId, key) {
      const dir = chunkDir(hubId, key);
      const sizes = new Map<number, number>();
      let names: string[] = [];
      try { names = await readdir(dir); } catch { return sizes; }
      for (const n of names) if (/^\d+$/.test(n)) sizes.set(Number(n), (await stat(path.join(dir, n))).size);
      return sizes;
    },
    async assemble(hubId, key, total, rel) {
      const target = abs(hubId, rel);
      await mkdir(path.dirname(target), { recursive: true });
      const tmp = tmpName(target);
      const out = await open(tmp, 'w');
      let written = 0;
      try {
        for (let i = 1; i <= total; i++) {
          const chunk = createReadStream(path.join(chunkDir(hubId, key), String(i)));
          for await (const buf of chunk) {
            await out.write(buf as Buffer);
            written += (buf as Buffer).length;
          }
        }
        await out.sync();
      } catch (err) {
        await out.close();
        await rm(tmp, { force: true });
        throw err;
      }
      await out.close();
      await rename(tmp, target);
      return written;
    },
    removeChunk: async (hubId, key, index) => rm(path.join(chunkDir(hubId, key), String(index)), { force: true }),
    removeChunks: async (hubId, key) => rm(chunkDir(hubId, key), { recursive: true, force: true }),
  };
}
