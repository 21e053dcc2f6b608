import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import iconv from 'iconv-lite';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskName, nameOnDisk } from '../storage/disk-names.ts';
import { MediaError } from './errors.ts';
import { DEFAULT_ZIP_LIMITS, extractZip, readZipEntries, type ZipLimits } from './zip.ts';
import { corpusPath, row } from './test-corpus.ts';
import { makeBomb } from '../../test/helpers/zips.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'media-zip-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const LIMITS: ZipLimits = { maxEntries: 2000, maxTotalBytes: 1024 ** 3, maxRatio: 100, ratioMinBytes: 1024 ** 2 };

type Item = { name: string; data?: Buffer; mode?: number; dir?: boolean; compress?: boolean };

async function makeZip(file: string, items: Item[]): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const it of items) {
    if (it.dir) zip.addEmptyDirectory(it.name);
    else zip.addBuffer(it.data ?? Buffer.from(it.name), it.name, { mode: it.mode, compress: it.compress ?? true });
  }
  zip.end();
  const out = path.join(dir, file);
  await pipeline(zip.outputStream, createWriteStream(out));
  return out;
}

/** Byte offsets of each central directory record, found from the end-of-central-directory record. */
function centralRecords(buf: Buffer): number[] {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    out.push(at);
    at += 46 + buf.readUInt16LE(at + 28) + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return out;
}

/** yazl only writes UTF-8 names, so legacy names replace an ASCII placeholder of the same length. */
function replaceAll(buf: Buffer, from: Buffer, to: Buffer): Buffer {
  expect(to.length).toBe(from.length);
  let at = buf.indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  while (at >= 0) {
    to.copy(buf, at);
    at = buf.indexOf(from, at + 1);
  }
  return buf;
}

/** yazl sets the UTF-8 flag on every entry; legacy archivers never do. */
function clearUtf8Flags(buf: Buffer): void {
  for (const at of centralRecords(buf)) {
    buf.writeUInt16LE(buf.readUInt16LE(at + 8) & ~0x800, at + 8);
    const local = buf.readUInt32LE(at + 42);
    buf.writeUInt16LE(buf.readUInt16LE(local + 6) & ~0x800, local + 6);
  }
}

async function patched(file: string, items: Item[], patch: (buf: Buffer) => void): Promise<string> {
  const src = await makeZip(`src-${file}`, items);
  const buf = await readFile(src);
  clearUtf8Flags(buf);
  patch(buf);
  const out = path.join(dir, file);
  await writeFile(out, buf);
  return out;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    expect(e).toBeInstanceOf(MediaError);
    return (e as MediaError).code;
  }
}

/** as_gbk='…' of an entry in the MANIFEST. */
function manifestGbkNames(localFile: string): string[] {
  return [...row(localFile).measured.matchAll(/as_gbk='([^']*)'/g)].map((m) => m[1]!);
}

describe('names in the corpus archives', () => {
  it('GBK without the UTF-8 flag: the Info-ZIP Unicode Path field gives the name', async () => {
    const { entries } = await readZipEntries(corpusPath('zip/admzip_chs_name_gbk.zip'), LIMITS);
    expect(entries.map((e) => [e.name, e.nameEncoding])).toEqual([['中文路径.txt', 'unicode-path-extra']]);
  });

  it('GBK without the UTF-8 flag and without the Unicode Path field: decoded as GBK', async () => {
    const buf = await readFile(corpusPath('zip/admzip_chs_name_gbk.zip'));
    // Rename extra field 0x7075 to an unknown id in both headers.
    replaceAll(buf, Buffer.from([0x75, 0x70, 0x15, 0x00, 0x01]), Buffer.from([0x76, 0x70, 0x15, 0x00, 0x01]));
    const file = path.join(dir, 'gbk-no-extra.zip');
    await writeFile(file, buf);
    const { entries } = await readZipEntries(file, LIMITS);
    expect(entries.map((e) => [e.name, e.nameEncoding])).toEqual([['中文路径.txt', 'gbk']]);
    expect(manifestGbkNames('zip/admzip_chs_name_gbk.zip')).toEqual(['中文路径.txt']);
  });

  it('Shift-JIS with 0x5C trail bytes: recognised by its kana, never split at the 0x5C, not zip-slip', async () => {
    const file = corpusPath('zip/libarchive_cp932_sjis.zip');
    const { entries } = await readZipEntries(file, LIMITS);
    // The archive means 表だよ/一覧表.txt and 表だよ/漢字.txt: one folder, one file each (read as GBK they
    // were 昞偩傛/堦棗昞.txt, found from another PC).
    expect(entries.map((e) => [e.name, e.nameEncoding])).toEqual([['表だよ/一覧表.txt', 'shift-jis'], ['表だよ/漢字.txt', 'shift-jis']]);
    expect(manifestGbkNames('zip/libarchive_cp932_sjis.zip')).toEqual(['昞偩傛/堦棗昞.txt', '昞偩傛/娍帤.txt']);
    for (const e of entries) {
      expect(e.name.split('/')).toHaveLength(2);
      expect(e.name).not.toContain('\\');
    }
    const out = path.join(dir, 'sjis');
    expect(await extractZip(file, out, LIMITS)).toEqual(['表だよ/一覧表.txt', '表だよ/漢字.txt']);
    expect(await readdir(path.join(out, '表だよ'))).toHaveLength(2);
  });

  it('CP866 is not valid UTF-8 either and becomes GBK text, without being refused', async () => {
    const { entries } = await readZipEntries(corpusPath('zip/unzipper_cp866.zip'), LIMITS);
    expect(entries.map((e) => e.name)).toEqual(manifestGbkNames('zip/unzipper_cp866.zip'));
  });

  for (const f of ['zip/unzipper_zip-slip.zip', 'zip/unzipper_zip-slip-win.zip']) {
    it(`refuses ${f} and writes nothing`, async () => {
      await expect(readZipEntries(corpusPath(f), LIMITS)).rejects.toMatchObject({ code: 'zip-slip', message: '压缩包内含有非法路径' });
      const out = path.join(dir, `slip-${path.basename(f)}`);
      expect(await codeOf(extractZip(corpusPath(f), out, LIMITS))).toBe('zip-slip');
      expect(await readdir(dir)).not.toContain(`slip-${path.basename(f)}`);
    });
  }
});

describe('names built by hand', () => {
  it('decodes every legacy name of an archive the same way (a folder must not split in two)', async () => {
    // "示例" in GBK is CA BE C0 FD: not UTF-8. "茅" (C3 A9) is valid UTF-8 ("é") on its own.
    const folder = iconv.encode('茅', 'cp936');
    const file = iconv.encode('示例', 'cp936');
    expect(folder.toString('hex')).toBe('c3a9');
    const zip = await patched(
      'mixed-legacy.zip',
      [{ name: 'QQ/a.jpg' }, { name: 'QQ/WWWW.jpg' }],
      (buf) => {
        replaceAll(buf, Buffer.from('QQ/'), Buffer.concat([folder, Buffer.from('/')]));
        replaceAll(buf, Buffer.from('WWWW.jpg'), Buffer.concat([file, Buffer.from('.jpg')]));
      },
    );
    const { entries } = await readZipEntries(zip, LIMITS);
    expect(entries.map((e) => e.name)).toEqual(['茅/a.jpg', '茅/示例.jpg']);
  });

  it('tells Shift-JIS from GBK by the archive\'s names: kana without half-width katakana', async () => {
    const legacy = async (file: string, names: string[], enc: string) => {
      const placeholders = names.map((n, i) => `${String.fromCharCode(65 + i)}`.repeat(iconv.encode(n, enc).length));
      return patched(file, placeholders.map((p) => ({ name: `${p}.jpg` })), (buf) => {
        names.forEach((n, i) => replaceAll(buf, Buffer.from(`${placeholders[i]}.jpg`), Buffer.concat([iconv.encode(n, enc), Buffer.from('.jpg')])));
      });
    };
    // A folder of kanji only, and files with kana: the whole archive is Shift-JIS.
    const sjis = await readZipEntries(await legacy('sjis.zip', ['写真集/ソフト表示', '写真集/一覧表の写真'], 'cp932'), LIMITS);
    expect(sjis.entries.map((e) => [e.name, e.nameEncoding])).toEqual([['写真集/ソフト表示.jpg', 'shift-jis'], ['写真集/一覧表の写真.jpg', 'shift-jis']]);
    // Chinese names stay GBK: read as Shift-JIS they hold half-width katakana (毕业 → ｱﾏﾒｵ).
    const gbk = await readZipEntries(await legacy('gbk.zip', ['毕业照片集/照片一', '毕业照片集/合影'], 'cp936'), LIMITS);
    expect(gbk.entries.map((e) => [e.name, e.nameEncoding])).toEqual([['毕业照片集/照片一.jpg', 'gbk'], ['毕业照片集/合影.jpg', 'gbk']]);
    // Kanji alone say nothing: GBK, the shop's own code page.
    const kanji = await readZipEntries(await legacy('kanji.zip', ['漢字'], 'cp932'), LIMITS);
    expect(kanji.entries.map((e) => e.nameEncoding)).toEqual(['gbk']);
  });

  it('keeps UTF-8 names without the flag (macOS) as UTF-8, and normalises to NFC', async () => {
    const nfd = Buffer.from('cafe\u0301.jpg'.normalize('NFD'), 'utf8');
    const zip = await patched('mac.zip', [{ name: 'XXXXXXXXXX' }], (buf) => {
      expect(nfd.length).toBe(10);
      replaceAll(buf, Buffer.from('XXXXXXXXXX'), nfd);
    });
    const { entries } = await readZipEntries(zip, LIMITS);
    expect(entries.map((e) => [e.name, e.nameEncoding])).toEqual([['caf\u00e9.jpg', 'utf8']]);
  });

  it('uses the UTF-8 flag when set', async () => {
    const zip = await makeZip('flag.zip', [{ name: '封面/p1.jpg' }, { name: '内页/p2.jpg' }]);
    const { entries } = await readZipEntries(zip, LIMITS);
    expect(entries.map((e) => [e.name, e.nameEncoding])).toEqual([
      ['封面/p1.jpg', 'utf8-flag'],
      ['内页/p2.jpg', 'utf8-flag'],
    ]);
  });

  for (const [label, evil] of [
    ['an absolute path', '/etc/passwd'],
    ['a drive letter', 'C:/x/evil.t'],
    ['a backslash parent', '..\\evil.txt'],
    ['a parent inside', 'ok/../../et'],
    ['a NUL byte', 'ok\0evil.txt'],
  ] as const) {
    it(`refuses ${label} as zip-slip`, async () => {
      const placeholder = 'Z'.repeat(Buffer.byteLength(evil));
      const zip = await patched(`slip-${placeholder.length}-${label.length}.zip`, [{ name: placeholder }], (buf) =>
        replaceAll(buf, Buffer.from(placeholder), Buffer.from(evil, 'latin1')),
      );
      expect(await codeOf(readZipEntries(zip, LIMITS))).toBe('zip-slip');
    });
  }

  it('drops "." and empty segments but keeps the path inside', async () => {
    const zip = await patched('dots.zip', [{ name: 'QQQQQQQQQQQQ' }], (buf) =>
      replaceAll(buf, Buffer.from('QQQQQQQQQQQQ'), Buffer.from('./a//./b.jpg')),
    );
    const { entries } = await readZipEntries(zip, LIMITS);
    expect(entries.map((e) => e.name)).toEqual(['a/b.jpg']);
  });
});

describe('names taken twice', () => {
  it('keeps the first entry of a name and reports the later ones: written twice, or two ways that NFC makes one', async () => {
    const zip = await makeZip('twice.zip', [
      { name: 'a/1.jpg', data: Buffer.from('first') }, { name: 'a/1.jpg', data: Buffer.from('second') },
      { name: 'caf\u00e9.jpg', data: Buffer.from('nfc') }, { name: 'cafe\u0301.jpg', data: Buffer.from('nfd') },
    ]);
    const out = path.join(dir, 'twice-out');
    const dropped: Array<[string, string]> = [];
    expect(await extractZip(zip, out, LIMITS, undefined, undefined, (e, why) => void dropped.push([e.name, why]))).toEqual(['a/1.jpg', 'caf\u00e9.jpg']);
    expect(dropped).toEqual([['a/1.jpg', 'same-name'], ['caf\u00e9.jpg', 'normalisation']]);
    expect(await readFile(path.join(out, 'a/1.jpg'), 'utf8')).toBe('first');
    expect(await readFile(path.join(out, 'caf\u00e9.jpg'), 'utf8')).toBe('nfc');
  });
});

describe('names no code page reads', () => {
  it('leaves out and reports each file whose name decodes to U+FFFD, instead of merging two such names into one', async () => {
    // 0xFF 0xFE and 0xFE 0xFF are neither UTF-8 nor GBK: both would read as "\ufffd\ufffd.jpg".
    const zip = await patched('unreadable.zip', [
      { name: 'w/AA.jpg', data: Buffer.from('one') }, { name: 'w/BB.jpg', data: Buffer.from('two') },
      { name: 'CC/c.jpg', data: Buffer.from('three') }, { name: 'w/ok.jpg', data: Buffer.from('kept') },
    ], (buf) => {
      replaceAll(buf, Buffer.from('w/AA.jpg'), Buffer.from([0x77, 0x2f, 0xff, 0xfe, 0x2e, 0x6a, 0x70, 0x67]));
      replaceAll(buf, Buffer.from('w/BB.jpg'), Buffer.from([0x77, 0x2f, 0xfe, 0xff, 0x2e, 0x6a, 0x70, 0x67]));
      replaceAll(buf, Buffer.from('CC/c.jpg'), Buffer.from([0xff, 0xff, 0x2f, 0x63, 0x2e, 0x6a, 0x70, 0x67]));
    });
    const out = path.join(dir, 'unreadable-out');
    const dropped: string[] = [];
    const written = await extractZip(zip, out, LIMITS, undefined, undefined, (e, why) => void dropped.push(why));
    expect(written).toEqual(['w/ok.jpg']);
    expect(dropped).toEqual(['unreadable-name', 'unreadable-name', 'unreadable-name']);
    expect(await readdir(out)).toEqual(['w']);
    expect(await readdir(path.join(out, 'w'))).toEqual(['ok.jpg']);
  });

  it('leaves out and reports a file whose name holds control characters or a bidirectional override', async () => {
    const zip = await makeZip('control.zip', [
      { name: 'w/a\u202egpj.exe.jpg' }, { name: 'w/b\u0001.jpg' }, { name: 'w/\u0085c.jpg' }, { name: 'w/\u2067d.jpg' }, { name: 'w/中文 名.jpg' },
    ]);
    const out = path.join(dir, 'control-out');
    const dropped: string[] = [];
    expect(await extractZip(zip, out, LIMITS, undefined, undefined, (e, why) => void dropped.push(why))).toEqual(['w/中文 名.jpg']);
    expect(dropped).toEqual(['control-chars', 'control-chars', 'control-chars', 'control-chars']);
  });
});

describe('names the file system would refuse (issue #19 item 3)', () => {
  it('writes a name over 255 bytes under its short name with a record, leaves out a file named like a folder and a path over 255 characters, and keeps the rest', async () => {
    const long = `${'春'.repeat(84)}.jpg`;
    const deep = `${'层/'.repeat(130)}x.jpg`;
    const zip = await makeZip('names.zip', [
      { name: `${long.slice(0, -4)}/${long}`, data: Buffer.from('long') }, { name: 'W/a', data: Buffer.from('file') },
      { name: 'W/a/b.jpg', data: Buffer.from('b') }, { name: deep }, { name: 'W/c.jpg', data: Buffer.from('c') },
    ]);
    const out = path.join(dir, 'names-out');
    const dropped: Array<[string, string]> = [];
    const written = await extractZip(zip, out, LIMITS, undefined, undefined, (e, why) => void dropped.push([e.name, why]));
    expect(written).toEqual([`${long.slice(0, -4)}/${long}`, 'W/a/b.jpg', 'W/c.jpg']);
    expect(dropped).toEqual([['W/a', 'folder-name'], [deep, 'path-too-long']]);
    expect(await readFile(path.join(out, diskName(long.slice(0, -4)), diskName(long)), 'utf8')).toBe('long');
    expect(await nameOnDisk(out, diskName(long.slice(0, -4)))).toBe(long.slice(0, -4));
    expect(await nameOnDisk(path.join(out, diskName(long.slice(0, -4))), diskName(long))).toBe(long);
    expect(await readFile(path.join(out, 'W/a/b.jpg'), 'utf8')).toBe('b');
  });
});

describe('refused entries', () => {
  it('refuses symlinks', async () => {
    const zip = await makeZip('symlink.zip', [{ name: 'a.jpg' }, { name: 'link', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]);
    await expect(readZipEntries(zip, LIMITS)).rejects.toMatchObject({ code: 'zip-symlink' });
    expect(await codeOf(extractZip(zip, path.join(dir, 'symlink-out'), LIMITS))).toBe('zip-symlink');
  });

  it('refuses encrypted entries', async () => {
    const zip = await patched('encrypted.zip', [{ name: 'a.jpg' }, { name: 'b.jpg' }], (buf) => {
      for (const at of centralRecords(buf)) buf.writeUInt16LE(buf.readUInt16LE(at + 8) | 1, at + 8);
    });
    await expect(readZipEntries(zip, LIMITS)).rejects.toMatchObject({ code: 'zip-encrypted', message: '压缩包已加密，请解密后重新上传' });
  });

  it('refuses more entries than the limit, before reading them', async () => {
    const zip = await makeZip('eleven.zip', Array.from({ length: 11 }, (_, i) => ({ name: `p${i}.jpg` })));
    expect(await codeOf(readZipEntries(zip, { ...LIMITS, maxEntries: 10 }))).toBe('zip-too-many-entries');
    expect((await readZipEntries(zip, { ...LIMITS, maxEntries: 11 })).entries).toHaveLength(11);
  });

  it('refuses a total declared size over the limit', async () => {
    const zip = await makeZip('big.zip', [{ name: 'a.bin', data: Buffer.alloc(3000, 1) }, { name: 'b.bin', data: Buffer.alloc(3000, 2) }]);
    expect(await codeOf(readZipEntries(zip, { ...LIMITS, maxTotalBytes: 5000 }))).toBe('zip-too-large');
  });

  it('exempts small entries from the ratio check', async () => {
    const zip = await makeZip('blank.zip', [{ name: 'blank.txt', data: Buffer.alloc(500_000, 0x20) }]);
    const { entries } = await readZipEntries(zip, LIMITS);
    expect(entries[0]!.uncompressedSize / entries[0]!.compressedSize).toBeGreaterThan(100);
    expect(await codeOf(readZipEntries(zip, { ...LIMITS, ratioMinBytes: 1000 }))).toBe('zip-ratio');
  });

  it('refuses an archive whose declared size lies, and leaves nothing behind', async () => {
    const zip = await patched(
      'liar.zip',
      [{ name: 'ok.jpg', data: Buffer.alloc(1000, 7) }, { name: 'liar.bin', data: Buffer.alloc(2_000_000, 0) }],
      (buf) => {
        const at = centralRecords(buf)[1]!;
        buf.writeUInt32LE(1000, at + 24); // declared uncompressed size
      },
    );
    expect((await readZipEntries(zip, LIMITS)).entries[1]!.uncompressedSize).toBe(1000);
    const out = path.join(dir, 'liar-out');
    expect(await codeOf(extractZip(zip, out, LIMITS))).toBe('damaged');
    expect(await readdir(out)).toEqual([]);
  });

  it('refuses a stored entry whose bytes do not match its CRC', async () => {
    const zip = await patched('crc.zip', [{ name: 'a.txt', data: Buffer.from('hello hello hello'), compress: false }], (buf) => {
      const at = buf.indexOf('hello hello');
      buf[at] = 0x48;
    });
    expect(await codeOf(extractZip(zip, path.join(dir, 'crc-out'), LIMITS))).toBe('damaged');
  });

  it('refuses a file that is not a zip', async () => {
    expect(await codeOf(readZipEntries(corpusPath('images/pillow_rgb_jfif300.jpg'), LIMITS))).toBe('damaged');
  });
});

describe('a 2 GiB zip bomb', () => {
  let bomb: string;
  beforeAll(async () => {
    bomb = path.join(dir, 'bomb.zip');
    await writeFile(bomb, makeBomb(2 * 1024 ** 3, 'zeros.bin'));
  });

  it('is refused within seconds, before anything is extracted', async () => {
    const started = performance.now();
    expect(await codeOf(readZipEntries(bomb, DEFAULT_ZIP_LIMITS))).toBe('zip-ratio');
    expect(await codeOf(extractZip(bomb, path.join(dir, 'bomb-out'), DEFAULT_ZIP_LIMITS))).toBe('zip-ratio');
    expect(await codeOf(extractZip(bomb, path.join(dir, 'bomb-out'), LIMITS))).toBe('zip-too-large');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await readdir(dir)).not.toContain('bomb-out');
  });
});

describe('a thousand entries', () => {
  it('lists and extracts them, in order, through the onEntry hook', async () => {
    const items: Item[] = [{ name: 'book/', dir: true }];
    for (let i = 1; i <= 1000; i++) items.push({ name: `book/p${i}.txt`, data: Buffer.from(`page ${i}`) });
    const zip = await makeZip('thousand.zip', items);
    const { entries } = await readZipEntries(zip, LIMITS);
    expect(entries).toHaveLength(1001);
    expect(entries[0]).toMatchObject({ name: 'book', isDirectory: true });
    const out = path.join(dir, 'thousand');
    let seen = 0;
    const written = await extractZip(zip, out, LIMITS, (entry, index, total) => {
      seen++;
      expect(total).toBe(1001);
      expect(index).toBe(seen - 1);
      return entry.name !== 'book/p13.txt';
    });
    expect(seen).toBe(1001);
    expect(written).toHaveLength(999);
    expect(written[0]).toBe('book/p1.txt');
    expect(await readFile(path.join(out, 'book/p1000.txt'), 'utf8')).toBe('page 1000');
    const files = await readdir(path.join(out, 'book'));
    expect(files).toHaveLength(999);
    expect(files.some((f) => f.endsWith('.part'))).toBe(false);
  });
});

describe('extraction', () => {
  it('writes stored, deflated and streamed (large) entries byte for byte', async () => {
    const large = Buffer.alloc(6 * 1024 * 1024);
    for (let i = 0; i < large.length; i += 4) large.writeUInt32LE((i * 2654435761) >>> 0, i);
    const items: Item[] = [
      { name: 'a/stored.bin', data: Buffer.from('stored '.repeat(1000)), compress: false },
      { name: 'a/b/deflated.txt', data: Buffer.from('deflated '.repeat(5000)) },
      { name: 'c/large.bin', data: large },
      { name: 'empty.txt', data: Buffer.alloc(0) },
    ];
    const zip = await makeZip('kinds.zip', items);
    const out = path.join(dir, 'kinds-out');
    const handed = new Map<string, Buffer | null>();
    expect(await extractZip(zip, out, LIMITS, undefined, (entry, data) => {
      handed.set(entry.name, data);
    })).toEqual(items.map((i) => i.name));
    for (const it of items) expect((await readFile(path.join(out, it.name))).equals(it.data!)).toBe(true);
    // The bytes of the entries inflated in memory are handed over; a large entry streams to disk.
    expect(handed.get('a/b/deflated.txt')?.equals(items[1]!.data!)).toBe(true);
    expect(handed.get('c/large.bin')).toBeNull();
  });

  it('refuses an entry whose CRC fails after others were written, and removes the files and folders it made', async () => {
    const items: Item[] = [];
    for (const folder of ['x', 'y/z']) for (let i = 0; i < 20; i++) items.push({ name: `${folder}/p${i}.txt`, data: Buffer.from(`page ${folder} ${i} `.repeat(50)) });
    items.push({ name: 'y/last.txt', data: Buffer.from('the last entry, broken'), compress: false });
    const zip = await patched('late-crc.zip', items, (buf) => {
      const at = buf.indexOf('the last entry, broken');
      buf[at] = 0x54;
    });
    const out = path.join(dir, 'late-crc-out');
    expect(await codeOf(extractZip(zip, out, LIMITS))).toBe('damaged');
    expect(await readdir(out)).toEqual([]);
  });
});
