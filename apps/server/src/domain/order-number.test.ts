import { describe, expect, it } from 'vitest';
import { salesOrderNumber } from './order-number.ts';

describe('salesOrderNumber', () => {
  it.each([
    // [placed at (UTC), batch, line, number]: the day is the shop's (UTC+8).
    ['2026-11-29T18:29:00Z', 1, 1, 'SO202611300000010001'],
    ['2026-11-29T15:59:59.999Z', 1, 1, 'SO202611290000010001'],
    ['2026-11-29T16:00:00Z', 1, 1, 'SO202611300000010001'],
    ['2026-12-31T16:00:00Z', 123456, 9999, 'SO202701011234569999'],
    ['2026-01-01T00:00:00Z', 42, 12, 'SO202601010000420012'],
  ])('placed at %s, batch %d, line %d: %s', (at, batch, line, number) => {
    expect(salesOrderNumber(new Date(at), batch, line)).toBe(number);
  });
});
