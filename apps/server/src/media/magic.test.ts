import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extensionMatches, sniffFile, sniffType } from './magic.ts';
import { corpusPath, manifest } from './test-corpus.ts';

describe('sniffType on the corpus', () => {
  const expected = (localFile: string, measured: string): string | null => {
    if (measured.startsWith('magic=JPEG')) return 'jpeg';
    if (measured.startsWith('magic=PNG')) return 'png';
    if (localFile.endsWith('.pdf') || /says 'PDF document/.test(measured)) return 'pdf';
    if (localFile.endsWith('.zip')) return 'zip';
    return null;
  };

  for (const { localFile, measured } of manifest()) {
    if (localFile === 'damaged/imagesize_invalid_sample.png') continue;
    it(`${localFile}`, async () => {
      expect(await sniffFile(corpusPath(localFile))).toBe(expected(localFile, measured));
    });
  }

  it('a PNG signature with a broken IHDR is still a PNG by its magic bytes', async () => {
    expect(await sniffFile(corpusPath('damaged/imagesize_invalid_sample.png'))).toBe('png');
  });

  it('covers every file of the corpus folders', () => {
    const listed = new Set(manifest().map((r) => r.localFile));
    for (const dir of ['images', 'orientation', 'pdf', 'damaged', 'zip']) {
      for (const f of readdirSync(corpusPath(dir))) expect(listed.has(`${dir}/${f}`)).toBe(true);
    }
  });
});

describe('sniffType edge cases', () => {
  it('finds %PDF- after leading junk within the first 1024 bytes only', () => {
    const at = (offset: number) => Buffer.concat([Buffer.alloc(offset, 0x20), Buffer.from('%PDF-1.7\n')]);
    expect(sniffType(at(0))).toBe('pdf');
    expect(sniffType(at(1023))).toBe('pdf');
    expect(sniffType(at(1024))).toBeNull();
  });

  it('knows an empty zip by its end-of-central-directory record', () => {
    const empty = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);
    expect(sniffType(empty)).toBe('zip');
    expect(sniffType(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14]))).toBe('zip');
  });

  it('refuses short and unknown heads', () => {
    expect(sniffType(Buffer.alloc(0))).toBeNull();
    expect(sniffType(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(sniffType(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffType(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
  });
});

describe('extensionMatches', () => {
  it('pairs extensions and types, in any case, with or without the dot', () => {
    expect(extensionMatches('jpg', 'jpeg')).toBe(true);
    expect(extensionMatches('.JPEG', 'jpeg')).toBe(true);
    expect(extensionMatches('png', 'png')).toBe(true);
    expect(extensionMatches('PDF', 'pdf')).toBe(true);
    expect(extensionMatches('.zip', 'zip')).toBe(true);
  });

  it('rejects mismatches and unknown content', () => {
    expect(extensionMatches('jpg', 'pdf')).toBe(false);
    expect(extensionMatches('png', 'jpeg')).toBe(false);
    expect(extensionMatches('jpg', null)).toBe(false);
    expect(extensionMatches('gif', 'png')).toBe(false);
  });
});
