import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256File } from './hash.ts';

describe('sha256File', () => {
  let dir: string;
  const files: Array<{ abs: string; sha256: string }> = [];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hash-'));
    // Sizes around the 1 MiB piece: empty, less than one, exactly one, one and a bit, several.
    for (const [i, size] of [0, 1000, 1024 * 1024, 1024 * 1024 + 7, 3 * 1024 * 1024 + 5].entries()) {
      const bytes = randomBytes(size);
      const abs = path.join(dir, `f${i}.bin`);
      await writeFile(abs, bytes);
      files.push({ abs, sha256: createHash('sha256').update(bytes).digest('hex') });
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('hashes files one after another, each by its own bytes only (a longer file before a shorter one leaves nothing behind)', async () => {
    for (const f of [...files].reverse()) expect(await sha256File(f.abs)).toBe(f.sha256);
  });

  it('hashes files at the same time, each into its own buffer', async () => {
    const many = [...files, ...files, ...files];
    expect(await Promise.all(many.map((f) => sha256File(f.abs)))).toEqual(many.map((f) => f.sha256));
  });

  it('refuses a file that is not there, and goes on hashing the next', async () => {
    await expect(sha256File(path.join(dir, 'missing.bin'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await sha256File(files[4]!.abs)).toBe(files[4]!.sha256);
  });
});
