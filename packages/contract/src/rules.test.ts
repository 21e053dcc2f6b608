import { describe, expect, it } from 'vitest';
import { allowedDeviation, fileLabels, fitsSize, isPhoneNumber, mmToPx, orientationFit, pxToMm, toleranceText } from './rules.ts';

describe('print rules', () => {
  it('converts mm and pixels with DPI / 25.4', () => {
    expect(pxToMm(1500, 300)).toBeCloseTo(127, 6);
    expect(mmToPx(127, 300)).toBeCloseTo(1500, 6);
  });

  it('applies tolerance in mm and in percent of each side', () => {
    expect(allowedDeviation(420, { error: 1, errorType: 'percent' })).toBeCloseTo(4.2);
    expect(allowedDeviation(420, { error: 1, errorType: 'mm' })).toBe(1);
    const a3 = { width: 297, height: 420 };
    expect(fitsSize({ width: 299.97, height: 424.2 }, a3, { error: 1, errorType: 'percent' })).toBe(true);
    expect(fitsSize({ width: 300.1, height: 420 }, a3, { error: 1, errorType: 'percent' })).toBe(false);
    expect(fitsSize({ width: 299, height: 422 }, a3, { error: 2, errorType: 'mm' })).toBe(true);
    expect(fitsSize({ width: 299.01, height: 420 }, a3, { error: 2, errorType: 'mm' })).toBe(false);
    // exactly on the limit after float arithmetic
    expect(fitsSize({ width: 0.1 + 0.2, height: 1 }, { width: 0.2, height: 1 }, { error: 0.1, errorType: 'mm' })).toBe(true);
  });

  it('accepts the swapped orientation only with automatic orientation detection', () => {
    const card = { width: 90, height: 54 };
    const portrait = { width: 54, height: 90 };
    expect(orientationFit(portrait, card, { error: 1, errorType: 'mm', autoOrientationDetection: false })).toBeNull();
    expect(orientationFit(portrait, card, { error: 1, errorType: 'mm', autoOrientationDetection: true })).toBe('swapped');
    expect(orientationFit(card, card, { error: 0, errorType: 'mm', autoOrientationDetection: true })).toBe('as-is');
    expect(toleranceText({ error: 1, errorType: 'percent' })).toBe('±1%');
  });
});

describe('contact phone', () => {
  it.each(['13800138000', '+8613800138000', '138 0013 8000', '138-0013-8000', '19912345678', '0571-88886666', '010-62345678', '(010)62345678', '02087654321', '0755 2345 6789', '0571-88886666-801'])('accepts %s', (phone) => {
    expect(isPhoneNumber(phone)).toBe(true);
  });
  it.each(['abc', '', '12345', '12800138000', '1380013800', '138001380001', '88886666', '0571-0888666', '0571-188866661', 'tel:13800138000', '１３８００１３８０００'])('refuses %s', (phone) => {
    expect(isPhoneNumber(phone)).toBe(false);
  });
});

describe('file labels within a work', () => {
  it.each([
    ['names that differ: the names', ['upload/f/相册/1.jpg', 'upload/f/相册/2.jpg'], ['1.jpg', '2.jpg']],
    ['a name twice, in subfolders: the path below the shared folder', ['upload/f/相册/上/1.jpg', 'upload/f/相册/下/1.jpg', 'upload/f/相册/下/2.jpg'], ['上/1.jpg', '下/1.jpg', '2.jpg']],
    ['deeper and shallower', ['upload/f/相册/1.jpg', 'upload/f/相册/内页/1.jpg'], ['1.jpg', '内页/1.jpg']],
    ['the pages of one PDF: one name', ['upload/f/书/书.pdf', 'upload/f/书/书.pdf'], ['书.pdf', '书.pdf']],
    ['one file', ['upload/f/照片.jpg'], ['照片.jpg']],
    ['no shared folder', ['a/1.jpg', 'b/1.jpg'], ['a/1.jpg', 'b/1.jpg']],
  ])('%s', (_name, paths, labels) => {
    const got = fileLabels(paths);
    expect(paths.map((p) => got.get(p))).toEqual(labels);
  });
});
