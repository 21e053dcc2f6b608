/**
 * Real files for the upload tests, made fresh in a temp dir: photos drawn with sharp (with a
 * stated density, as a print file has), a zip of two folders written with yazl, a PDF from the
 * shared corpus, a photo big enough for several chunks, and a file of a refused type.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import yazl from 'yazl';
import { repoRoot } from './server.ts';

export const CORPUS_PDF = join(repoRoot, '..', 'shared', 'corpus', 'pdf', 'qpdf_page-labels-and-outlines_30p.pdf');
export const CORPUS_PDF_PAGES = 30;

/** 127×89 mm at 300 dpi: a 5寸 print that passes the demo shop's 5寸照片冲印. */
export const FIVE_INCH = { width: 1500, height: 1051 };

/**
 * A JPEG whose bytes differ from `jpeg`'s and from every other note's: a comment segment (`note`) after
 * SOI, still the same picture. The hub links bytes it already has instead of receiving them (#21.2), so
 * a test or a benchmark that counts what is sent needs files the hub has never seen; and many distinct
 * files cost one encode.
 */
export function distinctJpeg(jpeg: Buffer, note: string): Buffer {
  const text = Buffer.from(note);
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe, (text.length + 2) >> 8, (text.length + 2) & 0xff]), text]);
  return Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]);
}

/** A copy of a JPEG file made distinct by `note` (distinctJpeg). */
export async function distinctJpegCopy(src: string, dest: string, note: string): Promise<void> {
  await writeFile(dest, distinctJpeg(await readFile(src), note));
}

/**
 * A picture of `size` px (a 600×400 by default) stating `size.dpi` (300 by default), showing `label` large
 * on a colour that changes with `hue`: what a check measures is its pixels and its density.
 */
export async function labelledImage(label: string, hue: number, size: { width: number; height: number; dpi?: number }, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
  const { width, height } = size;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="hsl(${hue % 360}, 55%, 82%)"/>
    <rect x="16" y="16" width="${width - 32}" height="${height - 32}" fill="none" stroke="#334" stroke-width="4"/>
    <text x="50%" y="54%" font-family="DejaVu Sans, sans-serif" font-size="${Math.round(height / 3)}" text-anchor="middle" dominant-baseline="middle" fill="#223">${label}</text>
  </svg>`;
  const image = sharp(Buffer.from(svg)).withMetadata({ density: size.dpi ?? 300 });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 80 }).toBuffer();
}

/** A labelledImage JPEG. */
export const labelledJpeg = (label: string, hue: number, size: { width: number; height: number; dpi?: number } = { width: 600, height: 400 }): Promise<Buffer> =>
  labelledImage(label, hue, size);

/** A zip of these entries written to `path` (yazl). */
export function zipOf(entries: Array<{ name: string; data: Buffer }>, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const e of entries) zip.addBuffer(e.data, e.name);
    zip.end();
    const out = createWriteStream(path);
    out.on('close', () => resolve());
    out.on('error', reject);
    zip.outputStream.on('error', reject);
    zip.outputStream.pipe(out);
  });
}

export interface UploadFixtures {
  dir: string;
  /** A folder of `albumCount` photos: 001.jpg … */
  albumDir: string;
  albumName: string;
  albumCount: number;
  /** A zip whose root holds two folders: two works. */
  zipPath: string;
  zipWorks: Array<{ name: string; files: number }>;
  pdfPath: string;
  pdfName: string;
  /** A JPEG of more than two chunks. */
  bigJpegPath: string;
  bigJpegName: string;
  txtPath: string;
  cleanup(): Promise<void>;
}

export async function makeUploadFixtures(albumCount = 150): Promise<UploadFixtures> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-upload-'));
  const albumName = '相册A';
  const albumDir = join(dir, albumName);
  await mkdir(albumDir);
  const names = Array.from({ length: albumCount }, (_, i) => String(i + 1).padStart(3, '0'));
  for (let i = 0; i < names.length; i += 16) {
    await Promise.all(names.slice(i, i + 16).map(async (n, j) => writeFile(join(albumDir, `${n}.jpg`), await labelledJpeg(n, (i + j) * 7))));
  }
  // System files the page must skip without a word.
  await writeFile(join(albumDir, '.DS_Store'), 'x');
  await writeFile(join(albumDir, 'Thumbs.db'), 'x');

  const zipPath = join(dir, '两本画册.zip');
  const zipWorks = [
    { name: '作品甲', files: 2 },
    { name: '作品乙', files: 1 },
  ];
  await zipOf(
    [
      { name: '作品甲/p1.jpg', data: await labelledJpeg('甲1', 20) },
      { name: '作品甲/p2.jpg', data: await labelledJpeg('甲2', 40) },
      { name: '作品乙/p1.jpg', data: await labelledJpeg('乙1', 200) },
    ],
    zipPath,
  );

  const pdfName = '宣传册';
  const pdfPath = join(dir, `${pdfName}.pdf`);
  await copyFile(CORPUS_PDF, pdfPath);

  // Noise does not compress: about 4.5 MB of JPEG: three chunks.
  const bigJpegName = '大幅海报';
  const bigJpegPath = join(dir, `${bigJpegName}.jpg`);
  const w = 2000;
  const h = 1600;
  await sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 100 })
    .withMetadata({ density: 300 })
    .toFile(bigJpegPath);

  const txtPath = join(dir, '说明.txt');
  await writeFile(txtPath, '这不是印刷文件\n');

  return {
    dir,
    albumDir,
    albumName,
    albumCount,
    zipPath,
    zipWorks,
    pdfPath,
    pdfName,
    bigJpegPath,
    bigJpegName,
    txtPath,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
