import { describe, expect, it } from 'vitest';
import { numbersOf, rangesOf } from './ranges.ts';

describe('chunk ranges', () => {
  it('writes runs as ranges and reads them back', () => {
    expect(rangesOf([3, 1, 2, 5, 7, 8, 9, 2])).toBe('1-3,5,7-9');
    expect(rangesOf([])).toBe('');
    expect(numbersOf('1-3,5,7-9')).toEqual([1, 2, 3, 5, 7, 8, 9]);
    expect(numbersOf(undefined)).toEqual([]);
    expect(numbersOf('x,4')).toEqual([4]);
    const many = Array.from({ length: 2000 }, (_, i) => i + 1).filter((n) => n !== 1000);
    expect(rangesOf(many)).toBe('1-999,1001-2000');
    expect(numbersOf(rangesOf(many))).toEqual(many);
  });
});
