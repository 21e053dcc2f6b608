import { describe, expect, it } from 'vitest';
import { cropCanPass, initialRect, initialZoom, predictCrop, requestRect, type Standard } from './geometry.ts';

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

  it('starts with the component at the image density, centred, and predicts a pass', () => {
    const image = { width: 1800, height: 1205 };
    const rect = initialRect(image, 300, PRINT5, initialZoom(image));
    expect(rect).toEqual({ x: 150, y: 77, width: 1500, height: 1051 });
    const p = predictCrop(rect, 300, PRINT5);
    expect(p.widthMm).toBeCloseTo(127, 1);
    expect(p.heightMm).toBeCloseTo(88.98, 2);
    expect(p).toMatchObject({ sizeOk: true, dpiOk: true, dpi: 300 });
    expect(cropCanPass(image, 300, PRINT5)).toBe(true);
  });

  it('keeps the component aspect ratio when the image is too small, and says no box can pass', () => {
    const image = { width: 100, height: 100 };
    const rect = initialRect(image, 72, PRINT5, initialZoom(image));
    expect(rect.width).toBe(100);
    expect(rect.width / rect.height).toBeCloseTo(127 / 89, 1);
    const p = predictCrop(rect, 72, PRINT5);
    expect(p.sizeOk).toBe(false);
    expect(p.dpiOk).toBe(false);
    expect(cropCanPass(image, 72, PRINT5)).toBe(false);
  });

  it('decides the edge case by whole pixels within the tolerance, either orientation when allowed', () => {
    // 125 mm (127 − 2) at 300 dpi is 1476.4 px: 1477 px reach it, 1476 do not.
    expect(cropCanPass({ width: 1477, height: 1100 }, 300, PRINT5)).toBe(true);
    expect(cropCanPass({ width: 1476, height: 1100 }, 300, PRINT5)).toBe(false);
    expect(cropCanPass({ width: 1100, height: 1477 }, 300, PRINT5)).toBe(true);
    expect(cropCanPass({ width: 1100, height: 1477 }, 300, { ...PRINT5, autoOrientationDetection: false })).toBe(false);
    // A box a little too small fails, one within the tolerance passes.
    expect(predictCrop({ width: 1476, height: 1051 }, 300, PRINT5).sizeOk).toBe(false);
    expect(predictCrop({ width: 1051, height: 1477 }, 300, PRINT5).sizeOk).toBe(true);
    // A percent tolerance: A3 at 150 dpi is 1754×2480 px; 1 % of 297 mm is 2.97 mm.
    expect(cropCanPass({ width: 1740, height: 2470 }, 150, A3)).toBe(true);
    expect(cropCanPass({ width: 1700, height: 2470 }, 150, A3)).toBe(false);
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
