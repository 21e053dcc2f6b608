import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalFileStore } from './file-store.ts';

describe('the local file store', () => {
  let root = '';
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('removes a folder that is being written into (a preview made while its file is deleted)', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'store-'));
    const store = createLocalFileStore(root);
    const dir = path.join(root, '1', '.previews', 'upload', 'f1', '宣传册.pdf');
    for (let round = 0; round < 20; round++) {
      await mkdir(dir, { recursive: true });
      for (let i = 0; i < 50; i++) await writeFile(path.join(dir, `p-${i}.jpg`), 'x');
      // A writer as media/preview.ts writes: a temporary name, then the page's, until the folder is gone.
      let writing = true;
      const writer = (async () => {
        for (let i = 0; writing; i++) {
          const tmp = path.join(dir, `.${round}-${i}.tmp`);
          const ok = await writeFile(tmp, 'y').then(() => rename(tmp, path.join(dir, `q-${i}.jpg`))).then(() => true, () => false);
          if (!ok) return;
        }
      })();
      await expect(store.remove(1, '.previews/upload/f1/宣传册.pdf')).resolves.toBeUndefined();
      writing = false;
      await writer;
      await rm(dir, { recursive: true, force: true });
    }
    expect(await readdir(path.join(root, '1', '.previews', 'upload', 'f1'))).toEqual([]);
  });

  it('never writes a chunk into a finished upload\'s stored file, and keeps the linked part of a file not yet recorded', async () => {
    root ||= await mkdtemp(path.join(os.tmpdir(), 'store-'));
    const store = createLocalFileStore(root);
    const published = async (key: string, rel: string) => {
      const part = await store.openPart(1, key, '2048000');
      await part.write(0, [Buffer.from('ordered bytes')]);
      await part.publish(rel, { replace: true });
      await part.close();
    };
    // The part still has its name (the process died before its folder was removed). Its upload is done: a new one's
    // chunk starts a new part (it was written into the ordered file: crash probe).
    await published('k1', 'upload/f/p2.jpg');
    const again = await store.openPart(1, 'k1', '2048000', async () => true);
    await again.write(0, [Buffer.from('OTHER BYTES!!')]);
    await again.close();
    expect(await readFile(store.localPath(1, 'upload/f/p2.jpg'), 'utf8')).toBe('ordered bytes');
    // Its upload is not recorded yet (the process died between the link and the record): the part is the file's, kept.
    await published('k2', 'upload/f/p3.jpg');
    const resumed = await store.openPart(1, 'k2', '2048000', async () => false);
    expect((await resumed.inspect(13)).head.toString()).toBe('ordered bytes');
    await resumed.close();
  });

  it('removes nothing, without an error, where a folder of the path is a file', async () => {
    const store = createLocalFileStore(root);
    await mkdir(path.join(root, '1', 'upload', 'f2'), { recursive: true });
    await writeFile(path.join(root, '1', 'upload', 'f2', '照片.jpg'), 'x');
    await expect(store.remove(1, 'upload/f2/照片.jpg/其他.jpg')).resolves.toBeUndefined();
    expect(await readdir(path.join(root, '1', 'upload', 'f2'))).toEqual(['照片.jpg']);
  });
});
