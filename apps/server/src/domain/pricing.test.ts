import { describe, expect, it } from 'vitest';
import { areaHundredths, fenOfYuan, fenText, legacyBasisText, priceWork, toFen, type PriceLineInput, type PricingProduct, type PricingWork } from './pricing.ts';

const unit = (minQuantity: number, amount: string): PriceLineInput => ({ kind: 'unit', minQuantity, amount });
const extra = (minQuantity: number, amount: string): PriceLineInput => ({ kind: 'extraPage', minQuantity, amount });
const work = (w: Partial<PricingWork>): PricingWork => ({ copies: 1, pageCount: 1, addPageNum: 0, fileArea: 0, ...w });

const PHOTO: PricingProduct = { basis: 'print', unitName: null };
const BROCHURE: PricingProduct = { basis: 'copy', unitName: '本' };
const BANNER: PricingProduct = { basis: 'area', unitName: null };
const photoLines = [unit(1, '0.68'), unit(100, '0.60'), unit(500, '0.52')];
const brochureLines = [unit(1, '12.00'), extra(1, '0.30'), unit(50, '10.50'), extra(50, '0.25')];
const bannerLines = [unit(1, '45.00'), unit(10, '40.00')];

describe('priceWork', () => {
  it.each<[string, PricingProduct, PriceLineInput[], Partial<PricingWork>, { amount: string; text: string; units: string } | null]>([
    // per print: pages × copies are the counted units
    ['one photo', PHOTO, photoLines, { pageCount: 1 }, { amount: '0.68', text: '1张 × ¥0.68', units: '1' }],
    ['a folder of 10 photos is 10 prints', PHOTO, photoLines, { pageCount: 10, addPageNum: 9 }, { amount: '6.80', text: '10张 × ¥0.68', units: '10' }],
    ['10 photos × 3 copies', PHOTO, photoLines, { pageCount: 10, copies: 3 }, { amount: '20.40', text: '30张 × ¥0.68', units: '30' }],
    ['99 prints stay below the break', PHOTO, photoLines, { pageCount: 99 }, { amount: '67.32', text: '99张 × ¥0.68', units: '99' }],
    ['a 100-photo work at 1 copy gets the 100-print price', PHOTO, photoLines, { pageCount: 100 }, { amount: '60.00', text: '100张 × ¥0.60', units: '100' }],
    ['50 photos × 2 copies reach the 100 break too', PHOTO, photoLines, { pageCount: 50, copies: 2 }, { amount: '60.00', text: '100张 × ¥0.60', units: '100' }],
    ['500 prints: the highest break', PHOTO, photoLines, { pageCount: 250, copies: 2 }, { amount: '260.00', text: '500张 × ¥0.52', units: '500' }],
    ['a poster of 2 pages is 2 prints', { basis: 'print', unitName: '张' }, [unit(1, '10.20')], { pageCount: 2, copies: 5 }, { amount: '102.00', text: '10张 × ¥10.20', units: '10' }],
    // per copy: the base pages are in the copy, each page above it is priced per copy
    ['a brochure at its base pages', BROCHURE, brochureLines, { pageCount: 20, copies: 20 }, { amount: '240.00', text: '20本 × ¥12.00', units: '20' }],
    ['extra pages are priced per copy', BROCHURE, brochureLines, { pageCount: 24, addPageNum: 4, copies: 20 }, { amount: '264.00', text: '20本 × ¥12.00 + 加页 4页 × ¥0.30 × 20本', units: '20' }],
    ['breaks count copies, not pages, for both lines', BROCHURE, brochureLines, { pageCount: 24, addPageNum: 4, copies: 50 }, { amount: '575.00', text: '50本 × ¥10.50 + 加页 4页 × ¥0.25 × 50本', units: '50' }],
    ['fewer pages than the base cost a full copy', BROCHURE, brochureLines, { pageCount: 12, copies: 2 }, { amount: '24.00', text: '2本 × ¥12.00', units: '2' }],
    ['a default unit name', { basis: 'copy', unitName: null }, [unit(1, '0.35')], { pageCount: 2, copies: 100 }, { amount: '35.00', text: '100份 × ¥0.35', units: '100' }],
    ['an extra-page break missing at the count falls back to the lower one', BROCHURE, [unit(1, '12.00'), extra(1, '0.30'), unit(50, '10.50')], { addPageNum: 2, copies: 60 }, { amount: '666.00', text: '60本 × ¥10.50 + 加页 2页 × ¥0.30 × 60本', units: '60' }],
    // per m²: fileArea × copies, rounded up to 0.01 m²
    ['A1 poster area, 2 copies', BANNER, bannerLines, { fileArea: 0.499554, copies: 2 }, { amount: '45.00', text: '1.00㎡ × ¥45.00', units: '1.00' }],
    ['a started hundredth of a m² is charged', BANNER, bannerLines, { fileArea: 0.540001, copies: 1 }, { amount: '24.75', text: '0.55㎡ × ¥45.00', units: '0.55' }],
    ['an exact area is not rounded', BANNER, bannerLines, { fileArea: 0.54, copies: 2 }, { amount: '48.60', text: '1.08㎡ × ¥45.00', units: '1.08' }],
    ['the m² break applies to the whole area', BANNER, bannerLines, { fileArea: 0.54, copies: 20 }, { amount: '432.00', text: '10.80㎡ × ¥40.00', units: '10.80' }],
    ['the amount of an area is rounded half up to a fen', BANNER, [unit(1, '0.45')], { fileArea: 0.01, copies: 1 }, { amount: '0.00', text: '0.01㎡ × ¥0.45', units: '0.01' }],
    ['half a fen rounds up', BANNER, [unit(1, '0.50')], { fileArea: 0.01, copies: 1 }, { amount: '0.01', text: '0.01㎡ × ¥0.50', units: '0.01' }],
    // missing prices
    ['no price line at all', PHOTO, [], { pageCount: 3 }, null],
    ['only breaks above the count', PHOTO, [unit(100, '0.60')], { pageCount: 3 }, null],
    ['extra pages without an extra-page price', BROCHURE, [unit(1, '12.00')], { addPageNum: 4, copies: 2 }, null],
    ['no area price', BANNER, [extra(1, '1.00')], { fileArea: 1 }, null],
    ['zero copies', PHOTO, photoLines, { copies: 0 }, null],
  ])('%s', (_name, product, lines, w, want) => {
    const got = priceWork(product, lines, work(w));
    if (want === null) expect(got).toBeNull();
    else expect(got && { amount: got.amount, text: got.text, units: got.units }).toEqual(want);
  });

  it('prices extra pages only for the copy basis', () => {
    const photo = priceWork(PHOTO, [...photoLines, extra(1, '9.99')], work({ pageCount: 10, addPageNum: 9 }));
    expect(photo).toMatchObject({ extraPages: 0, extraPagePrice: null, amount: '6.80' });
    const brochure = priceWork(BROCHURE, brochureLines, work({ pageCount: 24, addPageNum: 4, copies: 20 }));
    expect(brochure).toMatchObject({ basis: 'copy', unitName: '本', copies: 20, extraPages: 4, extraPagePrice: '0.30', unitPrice: '12.00' });
  });

  it('adds up in fen with no float error', () => {
    // 0.1 + 0.2 style sums: 3 × 0.10 + 7 × 0.70 in floating point is 5.199999…
    expect(priceWork(PHOTO, [unit(1, '0.10')], work({ pageCount: 3 }))?.amount).toBe('0.30');
    expect(priceWork(BROCHURE, [unit(1, '0.10'), extra(1, '0.70')], work({ addPageNum: 7, copies: 1 }))?.amount).toBe('5.00');
    expect(priceWork(PHOTO, [unit(1, '1.15')], work({ pageCount: 1, copies: 3 }))?.amount).toBe('3.45');
  });
});

describe('money text', () => {
  // A total a client confirmed, as a JSON number: float noise of its sum is still whole fen, a third decimal is not.
  it.each([
    [0, 0], [0.3, 30], [0.1 + 0.2, 30], [12.3, 1230], [1.15, 115], [4.35, 435], [1.005 + 0.995, 200],
    [123456789.99, 12345678999], [999999999999.99, 99999999999999],
    [1.005, null], [12.345, null], [0.001, null], [-0.01, null], [Number.NaN, null], [Number.POSITIVE_INFINITY, null],
  ])('fenOfYuan(%s) = %s', (yuan, fen) => {
    expect(fenOfYuan(yuan)).toBe(fen);
  });
  it.each([['0.68', 68], ['12', 1200], ['12.3', 1230], ['12.30', 1230], ['0.00', 0], ['7.500000', 750]])('toFen(%s) = %d', (text, fen) => {
    expect(toFen(text)).toBe(BigInt(fen));
    expect(fenText(fen)).toBe((fen / 100).toFixed(2));
    expect(fenText(BigInt(fen))).toBe((fen / 100).toFixed(2));
  });
  it('refuses what is not a price in fen', () => {
    for (const bad of ['', 'abc', '-1', '0.685', '1e3']) expect(() => toFen(bad)).toThrow();
  });
  it('rounds areas up to a hundredth of a m²', () => {
    expect(areaHundredths(0.0001, 1)).toBe(1n);
    expect(areaHundredths(0.113030, 1)).toBe(12n);
    expect(areaHundredths(0.113030, 100)).toBe(1131n);
  });
  it('stays exact past 2^53 fen, where a number is not (API probe: a 1e15 pt page made the quote a 500)', () => {
    expect(fenText(toFen('9999999999.99') * 10_000_000n)).toBe('99999999999900000.00');
    expect(fenText(-5n)).toBe('-0.05');
    // 200 m × 200 m at ¥9,999,999,999.99 a m², 10,000,000 copies: 4e11 m², exactly.
    const big = priceWork(BANNER, [unit(1, '9999999999.99')], work({ fileArea: 40_000, copies: 10_000_000 }));
    expect(big).toMatchObject({ units: '400000000000.00', amount: '3999999999996000000000.00' });
    // A page too large for a number's area (1e200 pt a side) has no price; its check fails on its size.
    expect(priceWork(BANNER, bannerLines, work({ fileArea: Number.POSITIVE_INFINITY }))).toBeNull();
    expect(priceWork(PHOTO, [unit(1, '9999999999.99')], work({ pageCount: 10_000, copies: 10_000_000 }))?.amount).toBe('999999999999000000000.00');
  });
  it('shows an old order as 数量 × 单价', () => {
    expect(legacyBasisText(2, '0.68')).toBe('2 × ¥0.68');
  });
});
