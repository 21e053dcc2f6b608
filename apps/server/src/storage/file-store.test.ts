import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
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

  it('removes nothing, without an error, where a folder of the path is a file', async () => {
    const store = createLocalFileStore(root);
    await mkdir(path.join(root, '1', 'upload', 'f2'), { recursive: true });
    await writeFile(path.join(root, '1', 'upload', 'f2', '照片.jpg'), 'x');
    await expect(store.remove(1, 'upload/f2/照片.jpg/其他.jpg')).resolves.toBeUndefined();
    expect(await readdir(path.join(root, '1', 'upload', 'f2'))).toEqual(['照片.jpg']);
  });
});
