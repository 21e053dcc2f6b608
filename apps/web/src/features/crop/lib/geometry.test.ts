import { describe, expect, it } from 'vitest';
import { boundaryFor, cropDpi, initialRect, initialZoom, predictCrop, requestRect, type Standard } from './geometry.ts';

/** The demo shop's 5寸 print: 127×89 mm ±2 mm, either orientation, 300-1200 dpi. */
const PRINT5: Standard = { width: 127, height: 89, error: 2, errorType: 'mm', autoOrientationDetection: true, resolutionThreshold: 300, resolutionLimit: 1200 };
/** A3 poster: 297×420 mm ±1 %, 150-600 dpi. */
const A3: Standard = { width: 297, height: 420, error: 1, errorType: 'percent', autoOrientationDetection: true, resolutionThreshold: 150, resolutionLimit: 600 };

describe('crop geometry', () => {
  it('opens a 100×100 px image at a zoom that fills the boundary, not as a dot', () => {
    const image = { width: 100, height: 100 };
    expect(initialZoom(image)).toBe(6);
    expect(initialZoom({ width: 1800, height: 1205 })).toBeCloseTo(840 / 1800);
    expect(initialZoom({ width: 1205, height: 1800 })).toBeCloseTo(600 / 1800);
  });

  it('starts with the largest box of the component\'s proportions, centred, at the density that makes it the component\'s size', () => {
    const image = { width: 1800, height: 1205 };
    const rect = initialRect(image, PRINT5, initialZoom(image));
    // At a whole dpi, 343: 1715×1202 px are 127.0×89.0 mm, as the check shows them.
    expect(rect).toEqual({ x: 43, y: 2, width: 1715, height: 1202 });
    expect(cropDpi(rect, PRINT5)).toBe(343);
    const p = predictCrop(rect, cropDpi(rect, PRINT5), PRINT5);
    expect(p.widthMm).toBeCloseTo(127, 1);
    expect(p.heightMm).toBeCloseTo(89, 1);
    expect(p).toMatchObject({ sizeOk: true, dpiOk: true, dpi: 343 });
  });

  it('crops a phone photo at 72 dpi whole, not a 252×360 px patch of its middle, and says its dpi (LAN walk)', () => {
    const image = { width: 1200, height: 1800 };
    const rect = initialRect(image, PRINT5, initialZoom(image));
    // Portrait, as the photo: 89×127 mm, 1200×1712 px.
    expect(rect).toEqual({ x: 1, y: 45, width: 1198, height: 1710 });
    expect(cropDpi(rect, PRINT5)).toBe(342);
    expect(predictCrop(rect, cropDpi(rect, PRINT5), PRINT5)).toMatchObject({ sizeOk: true, dpiOk: true });
    // Without orientation swaps, the box keeps the component's own orientation.
    const fixed = initialRect(image, { ...PRINT5, autoOrientationDetection: false }, initialZoom(image));
    expect(fixed.width / fixed.height).toBeCloseTo(127 / 89, 2);
    expect(fixed.width).toBeLessThanOrEqual(1200);
    expect(fixed.width).toBeGreaterThan(1190);
  });

  it('makes a small box the component\'s size at a low density, which the prediction warns of', () => {
    // 1575×1102 px were said to be 图片像素不足 at their stated 400 dpi; the box prints 5寸 at 314 dpi.
    const rect = initialRect({ width: 1575, height: 1102 }, PRINT5, 1);
    expect(cropDpi(rect, PRINT5)).toBe(314);
    const tiny = initialRect({ width: 100, height: 100 }, PRINT5, 6);
    expect(tiny).toMatchObject({ width: 100, height: 70 });
    expect(predictCrop(tiny, cropDpi(tiny, PRINT5), PRINT5)).toMatchObject({ sizeOk: true, dpiOk: false, dpi: 20 });
  });

  it('decides a kept density by whole pixels within the tolerance, either orientation when allowed', () => {
    // 125 mm (127 − 2) at 300 dpi is 1476.4 px: a box of 1476 px is short, 1477 is within.
    expect(predictCrop({ width: 1476, height: 1051 }, 300, PRINT5).sizeOk).toBe(false);
    expect(predictCrop({ width: 1051, height: 1477 }, 300, PRINT5).sizeOk).toBe(true);
    expect(predictCrop({ width: 1051, height: 1477 }, 300, { ...PRINT5, autoOrientationDetection: false }).sizeOk).toBe(false);
    // A percent tolerance: A3 at 150 dpi is 1754×2480 px; 1 % of 297 mm is 2.97 mm.
    expect(predictCrop({ width: 1740, height: 2470 }, 150, A3).sizeOk).toBe(true);
    expect(predictCrop({ width: 1700, height: 2470 }, 150, A3).sizeOk).toBe(false);
  });

  it('fits the dialog to a low window: the boundary shrinks so that 确定 stays on screen', () => {
    expect(boundaryFor(1080)).toEqual({ width: 840, height: 600 });
    expect(boundaryFor(720)).toEqual({ width: 840, height: 470 });
    expect(boundaryFor(400)).toEqual({ width: 840, height: 240 });
    expect(initialZoom({ width: 1800, height: 1200 }, boundaryFor(720))).toBeCloseTo(470 / 1200);
  });

  it('says when the density misses the component, whatever the box', () => {
    expect(predictCrop({ width: 750, height: 526 }, 150, PRINT5)).toMatchObject({ sizeOk: true, dpiOk: false });
    expect(predictCrop({ width: 7500, height: 5256 }, 1500, PRINT5)).toMatchObject({ sizeOk: true, dpiOk: false });
    expect(predictCrop({ width: 750, height: 526 }, 0, PRINT5)).toMatchObject({ sizeOk: false });
  });

  it('sends the rectangle at the displayed scale, capped at the largest scale the call takes', () => {
    expect(requestRect({ x: 150, y: 77, width: 1500, height: 1051 }, 0.2)).toEqual({ x: 30, y: 15.4, width: 300, height: 210.20000000000002, scale: 20 });
    expect(requestRect({ x: 0, y: 15, width: 100, height: 70 }, 6)).toEqual({ x: 0, y: 90, width: 600, height: 420, scale: 600 });
    expect(requestRect({ x: 1, y: 0, width: 4, height: 3 }, 168)).toEqual({ x: 100, y: 0, width: 400, height: 300, scale: 10000 });
  });
});
