import { describe, expect, it } from 'vitest';
import { isIgnored, naturalCompare, unsupportedBelow, workOfFile, workOfFolder, worksOfZip, type ParsedFile } from './works.ts';

const img = (path: string): ParsedFile => ({ path, kind: 'image', width: 1800, height: 1200, dpi: 300, pages: 1 });
const pdf = (path: string, pages: number): ParsedFile => ({ path, kind: 'pdf', width: 210, height: 297, dpi: null, pages });
const other = (path: string): ParsedFile => ({ path, kind: 'other', width: 0, height: 0, dpi: null, pages: 0 });
const COMPONENTS = new Set(['封面', '内页']);

describe('natural sort', () => {
  it('puts p2 before p10 and compares folder by folder', () => {
    const names = ['p10.jpg', 'p2.jpg', 'p1.jpg', 'P3.jpg', 'a/p10.jpg', 'a/p9.jpg', 'a10/x.jpg', 'a2/x.jpg'];
    expect(names.sort(naturalCompare)).toEqual(['a/p9.jpg', 'a/p10.jpg', 'a2/x.jpg', 'a10/x.jpg', 'p1.jpg', 'p2.jpg', 'P3.jpg', 'p10.jpg']);
  });
});

describe('works', () => {
  it('makes one work of a top-level file, named without its extension', () => {
    expect(workOfFile(pdf('upload/f/画册 2024.pdf', 12))).toMatchObject({ articleName: '画册 2024', fileName: '画册 2024.pdf', pageCount: 12 });
  });

  it('makes one work of a folder with its images and PDFs in natural order, assigning component subfolders', () => {
    const files = [img('upload/f/Book1/内页/p10.jpg'), img('upload/f/Book1/内页/p2.jpg'), img('upload/f/Book1/封面/front.jpg'),
      pdf('upload/f/Book1/extra/insert.pdf', 4), other('upload/f/Book1/notes.txt'), other('upload/f/Book1/.DS_Store'),
      img('upload/f/Book1/__MACOSX/._p2.jpg'), img('upload/f/Book2/x.jpg')];
    const w = workOfFolder('upload/f/Book1', files, COMPONENTS)!;
    expect(w.articleName).toBe('Book1');
    // zh-CN collation: Chinese folder names by pinyin (封面 before 内页), before Latin ones.
    expect(w.files.map((f) => [f.fileName, f.component])).toEqual([
      ['front.jpg', '封面'], ['p2.jpg', '内页'], ['p10.jpg', '内页'], ['insert.pdf', null],
    ]);
    expect(w.pageCount).toBe(4 + 3);
    expect(unsupportedBelow('upload/f/Book1', files)).toEqual([{ fileName: 'notes.txt', filePath: 'upload/f/Book1/notes.txt', reason: expect.any(String) }]);
  });

  it('gives no work for a folder with nothing printable', () => {
    expect(workOfFolder('upload/f/empty', [other('upload/f/empty/a.txt')], COMPONENTS)).toBeNull();
  });

  it('treats a zip with one root folder as that folder', () => {
    const w = worksOfZip('x/z', 'photos', [img('x/z/Album/1.jpg'), img('x/z/Album/2.jpg'), other('x/z/__MACOSX/Album/._1.jpg')], COMPONENTS);
    expect(w.map((x) => [x.articleName, x.files.length])).toEqual([['Album', 2]]);
  });

  it('makes each root folder of a zip a work, and each root file one more', () => {
    const w = worksOfZip('x/z', 'batch', [img('x/z/B/1.jpg'), img('x/z/A/1.jpg'), img('x/z/A/sub/2.jpg'), img('x/z/loose.jpg')], COMPONENTS);
    expect(w.map((x) => [x.articleName, x.files.length])).toEqual([['A', 2], ['B', 1], ['loose', 1]]);
  });

  it('makes a zip of loose files one work named after the zip', () => {
    const w = worksOfZip('x/z', '婚礼照片', [img('x/z/p2.jpg'), img('x/z/p10.jpg'), img('x/z/p1.jpg')], COMPONENTS);
    expect(w).toHaveLength(1);
    expect(w[0]!.articleName).toBe('婚礼照片');
    expect(w[0]!.files.map((f) => f.fileName)).toEqual(['p1.jpg', 'p2.jpg', 'p10.jpg']);
  });

  it('ignores system files', () => {
    expect(['__MACOSX/a.jpg', 'a/.DS_Store', 'Thumbs.db', 'x/desktop.ini', '.hidden.jpg'].every(isIgnored)).toBe(true);
    expect(isIgnored('a/b.jpg')).toBe(false);
  });
});
