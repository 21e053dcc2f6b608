import { describe, expect, it } from 'vitest';
import { compressPages, pageAssignmentLines } from './page-ranges.ts';

const component = (componentName: string) => ({
  componentId: componentName.length, componentName, width: 210, height: 285, error: 2, errorType: 'mm' as const, errorText: '±2mm', autoOrientationDetection: false,
});
const rowsOf = (itemPath: string, assign: (page: number) => string | null, pages: number) =>
  Array.from({ length: pages }, (_, i) => {
    const name = assign(i + 1);
    return { itemPath, filename: itemPath.split('/').pop() as string, page: i + 1, component: name ? component(name) : null };
  });

describe('pages of a PDF by component', () => {
  it('compresses consecutive pages into en-dash ranges joined with 、', () => {
    expect(compressPages([1, 2, 19, 20])).toBe('1–2、19–20');
    expect(compressPages([3, 1, 2, 7, 9, 10, 9])).toBe('1–3、7、9–10');
    expect(compressPages([5])).toBe('5');
    expect(compressPages([])).toBe('');
  });

  it('says which pages went to the cover and which to the inner pages', () => {
    const rows = rowsOf('upload/f/画册.pdf', (p) => (p <= 2 || p >= 19 ? '封面' : '内页'), 20);
    expect(pageAssignmentLines(rows)).toEqual(['第1–2、19–20页 → 封面；第3–18页 → 内页']);
  });

  it('puts the component of the first page first, shows pages without a component as 未定义, and leaves images out', () => {
    const rows = [
      { itemPath: 'upload/f/a.jpg', filename: 'a.jpg', page: null, component: component('照片') },
      ...rowsOf('upload/f/单页.pdf', (p) => (p === 3 ? null : p === 1 ? '单页' : '背面'), 4),
    ];
    expect(pageAssignmentLines(rows)).toEqual(['第1页 → 单页；第2、4页 → 背面；第3页 → 未定义']);
  });

  it('names the file when the work holds several PDFs', () => {
    const rows = [...rowsOf('upload/f/A.pdf', () => '单页', 2), ...rowsOf('upload/f/B.pdf', () => '单页', 1)];
    expect(pageAssignmentLines(rows)).toEqual(['A.pdf：第1–2页 → 单页', 'B.pdf：第1页 → 单页']);
  });
});
