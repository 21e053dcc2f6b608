/**
 * Test helper (imported by the media tests only): where the shared corpus of real files lives
 * and what its MANIFEST.tsv measured about each of them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const CORPUS_DIR = path.resolve(REPO_ROOT, '../shared/corpus');

export function corpusPath(localFile: string): string {
  return path.join(CORPUS_DIR, localFile);
}

export interface ManifestRow {
  localFile: string;
  category: string;
  measured: string;
}

let cached: ManifestRow[] | undefined;

export function manifest(): ManifestRow[] {
  if (cached) return cached;
  const lines = readFileSync(path.join(CORPUS_DIR, 'MANIFEST.tsv'), 'utf8').split('\n');
  const header = (lines[0] ?? '').split('\t');
  const iFile = header.indexOf('local_file');
  const iCat = header.indexOf('category');
  const iMeasured = header.indexOf('measured_properties');
  cached = lines
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.split('\t'))
    .map((c) => ({ localFile: c[iFile] ?? '', category: c[iCat] ?? '', measured: c[iMeasured] ?? '' }))
    .filter((r) => !r.localFile.startsWith('LICENSES/'));
  return cached;
}

export function rowsUnder(dir: string): ManifestRow[] {
  return manifest().filter((r) => r.localFile.startsWith(`${dir}/`));
}

export function row(localFile: string): ManifestRow {
  const found = manifest().find((r) => r.localFile === localFile);
  if (!found) throw new Error(`${localFile} is not in MANIFEST.tsv`);
  return found;
}

export interface ManifestBox {
  widthPt: number;
  heightPt: number;
  widthMm: number;
  heightMm: number;
}

export interface ManifestPage {
  boxes: Partial<Record<'MediaBox' | 'CropBox' | 'TrimBox' | 'BleedBox', ManifestBox>>;
  rotate: number;
}

/**
 * Expands "p1-30: MediaBox=[0 0 612 792] 612x792pt=215.9x279.4mm; CropBox=absent(=MediaBox); …
 * /Rotate=90 (direct)" into one entry per page.
 */
export function manifestPdfPages(measured: string): ManifestPage[] {
  const pages: ManifestPage[] = [];
  for (const part of measured.split(' ; ')) {
    const m = /^p(\d+)(?:-(\d+))?: (.*)$/.exec(part.trim());
    if (!m) continue;
    const from = Number(m[1]);
    const to = Number(m[2] ?? m[1]);
    const page: ManifestPage = { boxes: {}, rotate: 0 };
    for (const item of (m[3] ?? '').split('; ')) {
      const box = /^(MediaBox|CropBox|TrimBox|BleedBox)=\[[^\]]*\] ([\d.]+)x([\d.]+)pt=([\d.]+)x([\d.]+)mm/.exec(item);
      if (box) {
        page.boxes[box[1] as keyof ManifestPage['boxes']] = {
          widthPt: Number(box[2]),
          heightPt: Number(box[3]),
          widthMm: Number(box[4]),
          heightMm: Number(box[5]),
        };
      }
      const rot = /^\/Rotate=(-?\d+)/.exec(item);
      if (rot) page.rotate = Number(rot[1]);
    }
    for (let p = from; p <= to; p++) pages[p - 1] = { boxes: { ...page.boxes }, rotate: page.rotate };
  }
  return pages;
}

export function manifestPageCount(measured: string): number | undefined {
  const m = / ; pages=(\d+)/.exec(` ; ${measured}`);
  return m ? Number(m[1]) : undefined;
}
