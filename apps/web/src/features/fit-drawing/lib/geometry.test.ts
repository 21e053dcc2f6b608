import { describe, expect, it } from 'vitest';
import { fitGeometry, percentText, type Standard } from './geometry.ts';

/** The demo shop's 5寸 print: 127×89 mm ±2 mm, either orientation. */
const PRINT5: Standard = { width: 127, height: 89, error: 2, errorType: 'mm', autoOrientationDetection: true };
/** A business card: 90×54 ±1 mm, one orientation only. */
const CARD: Standard = { width: 90, height: 54, error: 1, errorType: 'mm', autoOrientationDetection: false };

describe('fitGeometry', () => {
  it('centres the trim and its tolerance band: inner and outer by the allowed deviation on each side', () => {
    const g = fitGeometry({ width: 127, height: 89 }, PRINT5)!;
    expect(g.fit).toBe('as-is');
    expect(g.trim.width).toBe(127);
    expect(g.inner).toMatchObject({ width: 123, height: 85 });
    expect(g.outer).toMatchObject({ width: 131, height: 93 });
    // One centre for all.
    for (const r of [g.inner, g.outer, g.file, g.cover]) {
      expect(r.x + r.width / 2).toBeCloseTo(g.trim.x + g.trim.width / 2);
      expect(r.y + r.height / 2).toBeCloseTo(g.trim.y + g.trim.height / 2);
    }
    expect(g.cutShare).toBeCloseTo(0);
    expect(g.turned).toBeNull();
  });

  it('a tolerance in percent widens the band by that share of each side', () => {
    const g = fitGeometry({ width: 297, height: 420 }, { width: 297, height: 420, error: 1, errorType: 'percent', autoOrientationDetection: false })!;
    expect(g.outer.width).toBeCloseTo(297 * 1.02);
    expect(g.inner.height).toBeCloseTo(420 * 0.98);
  });

  it('a 6寸 photo over 5寸: drawn larger, and a cover would cut the longer side\'s overflow', () => {
    const g = fitGeometry({ width: 152, height: 102 }, PRINT5)!;
    expect(g.fit).toBeNull();
    // 127/152 = 0.8355 and 89/102 = 0.8725: the height decides, the width overflows.
    expect(g.coverScale).toBeCloseTo(89 / 102);
    expect(g.cover.height).toBeCloseTo(89);
    expect(g.cover.width).toBeCloseTo(152 * (89 / 102));
    expect(g.cutShare).toBeCloseTo(1 - 127 / (152 * (89 / 102)));
    expect(percentText(g.cutShare)).toBe('4.2%');
    expect(g.viewBox.width).toBeGreaterThan(152);
  });

  it('a portrait photo over a landscape print with automatic orientation: drawn turned, the cover of the turned picture', () => {
    const g = fitGeometry({ width: 89, height: 127 }, PRINT5)!;
    expect(g.fit).toBe('swapped');
    expect(g.turned).toMatchObject({ width: 127, height: 89 });
    expect(g.cutShare).toBeCloseTo(0);
  });

  it('a portrait card without automatic orientation: not turned; covering the upright picture cuts most of it', () => {
    const g = fitGeometry({ width: 54, height: 90 }, CARD)!;
    expect(g.fit).toBeNull();
    expect(g.turned).toBeNull();
    // Scaled by 90/54 to cover the width: 90 × 150 mm, of which 90 × 54 is kept.
    expect(g.cover).toMatchObject({ width: 90 });
    expect(g.cover.height).toBeCloseTo(150);
    expect(g.cutShare).toBeCloseTo(1 - 54 / 150);
  });

  it('a small file is enlarged to cover: the scale says by how much', () => {
    const g = fitGeometry({ width: 120, height: 85 }, PRINT5)!;
    expect(g.coverScale).toBeCloseTo(127 / 120);
    expect(g.cover.width).toBeCloseTo(127);
    expect(g.cutShare).toBeCloseTo(1 - 89 / (85 * (127 / 120)));
  });

  it('nothing to draw for a file or a standard without area', () => {
    expect(fitGeometry({ width: 0, height: 0 }, PRINT5)).toBeNull();
    expect(fitGeometry({ width: 10, height: 10 }, { ...PRINT5, width: 0 })).toBeNull();
  });
});
