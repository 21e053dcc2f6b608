import { describe, expect, it } from 'vitest';
import { computeTotals } from './totals.ts';

describe('the footer totals (../shared/spec/product-spec.md §2)', () => {
  it('sums quantity × pages, the files and the copies', () => {
    expect(computeTotals([
      { quantity: 2, pageCount: 20, files: ['a.pdf'] },
      { quantity: 3, pageCount: 1, files: ['p1.jpg', 'p2.jpg', 'p3.jpg'] },
    ])).toEqual({ totalPages: 2 * 20 + 3 * 1, fileCount: 4, totalCopies: 5 });
  });

  it('counts a work without pages as none, and one without a file list as one file', () => {
    expect(computeTotals([{ quantity: 4, pageCount: null }, { quantity: 1 }])).toEqual({ totalPages: 0, fileCount: 2, totalCopies: 5 });
  });

  it('is all zeros without works', () => {
    expect(computeTotals([])).toEqual({ totalPages: 0, fileCount: 0, totalCopies: 0 });
  });
});
