import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskName, diskPath, isNameRecord, keepsItsName, nameOnDisk, recordName } from './disk-names.ts';

const LONG = `${'春'.repeat(84)}.jpg`;

describe('names on disk', () => {
  it('keeps every name the file system takes as it is, up to 255 bytes', () => {
    for (const n of ['p01.jpg', '封面', 'café.jpg', 'cafe\u0301.jpg', 'CON.jpg', `${'春'.repeat(83)}.jpg`, 'a'.repeat(255)]) {
      expect(keepsItsName(n), n).toBe(true);
      expect(diskName(n)).toBe(n);
    }
    expect(diskPath('upload/f1/Book 1/p01.jpg')).toBe('upload/f1/Book 1/p01.jpg');
  });

  it('gives a short name, with the extension, to a name over 255 bytes, to a name like a temporary file and to one like a short name', () => {
    for (const n of [LONG, 'a'.repeat(256), '报价.tmp-1.jpg', 'x~0123456789abcdef.jpg', `${'😀'.repeat(251)}.jpg`]) {
      const d = diskName(n);
      expect(d, n).not.toBe(n);
      expect(Buffer.byteLength(d)).toBeLessThanOrEqual(90);
      expect(d).toMatch(/~[0-9a-f]{16}(\.jpg)?$/);
      expect(d).not.toContain('.tmp-');
      expect(diskName(n)).toBe(d);
    }
    expect(diskName(LONG)).not.toBe(diskName(`${'春'.repeat(85)}.jpg`));
    expect(diskName(`.${'a'.repeat(300)}`)).not.toMatch(/^\./);
    expect(diskPath(`upload/f1/${LONG}/${LONG}`).split('/').map((s) => Buffer.byteLength(s) <= 255)).toEqual([true, true, true, true]);
  });

  describe('records', () => {
    let dir = '';
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('give a short name its customer\'s name back, and nothing for a record or a short name without one', async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'names-'));
      await recordName(dir, LONG);
      await recordName(dir, LONG);
      await recordName(dir, 'plain.jpg');
      const files = await readdir(dir);
      expect(files).toHaveLength(1);
      expect(isNameRecord(files[0]!)).toBe(true);
      expect(await nameOnDisk(dir, diskName(LONG))).toBe(LONG);
      expect(await nameOnDisk(dir, files[0]!)).toBeNull();
      expect(await nameOnDisk(dir, diskName('x~0123456789abcdef.jpg'))).toBeNull();
      expect(await nameOnDisk(dir, 'plain.jpg')).toBe('plain.jpg');
    });
  });
});
