import { describe, expect, it } from 'vitest';
import type { FileCheckRow } from './check.ts';
import { FIX_REASONS } from '@portal/contract';
import { planFix } from './fix-plan.ts';

/** A check row of an image measured w×h mm against a 6寸 (152×102) component. */
const row = (w: number, h: number, o: { auto?: boolean; threshold?: number; warn?: boolean; pdf?: boolean; none?: boolean; pass?: boolean } = {}): FileCheckRow => ({
  filename: 'a.jpg', itemPath: 'upload/x/a.jpg', type: o.pdf ? 'pdf' : 'image', page: null, width: w, height: h,
  component: o.none ? null : { componentId: 1, componentName: '照片', width: 152, height: 102, error: 1, errorType: 'mm', errorText: '±1mm', autoOrientationDetection: o.auto ?? false },
  resolutionDetect: 300, dpiStated: true, resolutionThreshold: o.threshold ?? 0, resolutionLimit: null, resolutionWarning: o.warn ?? false,
  effectiveDpi: null, pass: o.pass ?? false, reason: null,
});

describe('planFix', () => {
  it('裁切填充 covers the component at 300 dpi and says how much is cut', () => {
    // 2000×2000 px onto 152×102 mm: the width fits, a third of the height is cut.
    const p = planFix('fill', { widthPx: 2000, heightPx: 2000, dpi: 300, row: row(169.3, 169.3) });
    expect(p.ok).toBe(true);
    expect(p.after).toMatchObject({ widthPx: 1795, heightPx: 1205, dpi: 300 });
    expect(p.cutShare).toBeCloseTo(1 - 102 / 152, 3);
  });

  it('never upscales: a small file keeps the dpi its pixels give and stays warned', () => {
    const p = planFix('fill', { widthPx: 600, heightPx: 400, dpi: 300, row: row(50.8, 33.9, { threshold: 200 }) });
    // 400 px over 102 mm give 99.6 dpi: written as 99, never scaled up to 300.
    expect(p.after).toMatchObject({ widthPx: 592, heightPx: 398, dpi: 99 });
    expect(p.after!.widthMm).toBeCloseTo(152, 0);
    expect(p.stillWarned).toBe(true);
  });

  it('keeps the target dpi when the pixels give it once rounded to whole pixels, and never upscales for it', () => {
    // 5寸 (127×89 mm) at 300 dpi is 1500×1051 px, though 1051 px over 89 mm are 299.95 dpi: a photo 8 mm too wide at
    // 300 dpi fills to 1500×1051 at 300, not 1495×1048 at 299 (then warned below a 300 threshold).
    const five = (w: number, h: number, o: { pass?: boolean } = {}): FileCheckRow => {
      const r = row(w, h, { threshold: 300, ...o });
      return { ...r, component: { ...r.component!, width: 127, height: 89 } };
    };
    const larger = planFix('fill', { widthPx: 1600, heightPx: 1051, dpi: 300, row: five(135.5, 89) });
    expect(larger.after).toMatchObject({ widthPx: 1500, heightPx: 1051, dpi: 300 });
    expect(larger.stillWarned).toBe(false);
    // One pixel short of the 300 dpi frame: 299, and warned.
    const short = planFix('fill', { widthPx: 1500, heightPx: 1050, dpi: 300, row: five(127, 88.9) });
    expect(short.after).toMatchObject({ dpi: 299 });
    expect(short.stillWarned).toBe(true);
    const fit = planFix('fit', { widthPx: 1600, heightPx: 1051, dpi: 300, row: five(135.5, 89) });
    expect(fit.after).toMatchObject({ widthPx: 1500, heightPx: 1051, dpi: 300 });
    // A file that passes is left alone.
    expect(planFix('fill', { widthPx: 1500, heightPx: 1051, dpi: 300, row: five(127, 89, { pass: true }) }).reason).toBe(FIX_REASONS.alreadyFits);
    expect(planFix('fit', { widthPx: 1500, heightPx: 1051, dpi: 300, row: five(127, 89, { pass: true }) }).reason).toBe(FIX_REASONS.alreadyFits);
  });

  it('留白适配 fits inside and says how much is padded', () => {
    const p = planFix('fit', { widthPx: 3000, heightPx: 3000, dpi: 300, row: row(254, 254) });
    expect(p.after).toMatchObject({ widthPx: 1795, heightPx: 1205, dpi: 300 });
    expect(p.padShare).toBeCloseTo(1 - 102 / 152, 2);
    expect(p.cutShare).toBe(0);
  });

  it('留白适配 of a 300 dpi photo a little short of the frame adds white around it at 300 dpi, nothing resampled (LAN walk)', () => {
    // 1700×1200 px at 300 dpi (143.9×101.6 mm) onto 6寸: scaled to touch the frame it had to go to 298 dpi (1783×1197
    // px, shrunk) and was newly warned below the 300 threshold.
    const p = planFix('fit', { widthPx: 1700, heightPx: 1200, dpi: 300, row: row(143.9, 101.6, { threshold: 300 }) });
    expect(p.pixels).toEqual({ kind: 'pad', width: 1795, height: 1205, pictureWidth: 1700, pictureHeight: 1200 });
    expect(p.after).toMatchObject({ widthPx: 1795, heightPx: 1205, dpi: 300 });
    expect(p.stillWarned).toBe(false);
    expect(p.padShare).toBeCloseTo(1 - (1700 * 1200) / (1795 * 1205), 3);
    // Far from the frame (600×400 px give 99.6 dpi) it still fills the frame at the dpi its pixels give, warned.
    const small = planFix('fit', { widthPx: 600, heightPx: 400, dpi: 300, row: row(50.8, 33.9, { threshold: 300 }) });
    expect(small.pixels).toMatchObject({ kind: 'fit' });
    expect(small.stillWarned).toBe(true);
  });

  it('turns the frame to the picture with automatic orientation', () => {
    const p = planFix('fill', { widthPx: 2000, heightPx: 3000, dpi: 300, row: row(169, 254, { auto: true }) });
    expect(p.after).toMatchObject({ widthPx: 1205, heightPx: 1795 });
  });

  it('旋转 only when the orientation alone is wrong and automatic orientation is off', () => {
    expect(planFix('rotate', { widthPx: 1205, heightPx: 1795, dpi: 300, row: row(102, 152) })).toMatchObject({ ok: true, after: { widthPx: 1795, heightPx: 1205 } });
    expect(planFix('rotate', { widthPx: 1205, heightPx: 1795, dpi: 300, row: row(102, 152, { auto: true }) }).reason).toBe(FIX_REASONS.autoOrientation);
    expect(planFix('rotate', { widthPx: 600, heightPx: 400, dpi: 300, row: row(50.8, 33.9) }).reason).toBe(FIX_REASONS.notOrientationOnly);
  });

  it('refuses what it cannot do, with a reason', () => {
    expect(planFix('fill', { widthPx: 0, heightPx: 0, dpi: 72, row: row(0, 0, { pdf: true }) }).reason).toBe(FIX_REASONS.pdf);
    expect(planFix('fit', { widthPx: 100, heightPx: 100, dpi: 72, row: row(35, 35, { none: true }) }).reason).toBe(FIX_REASONS.noComponent);
    expect(planFix('accept', { widthPx: 100, heightPx: 100, dpi: 72, row: row(35, 35) }).reason).toBe(FIX_REASONS.noWarning);
    expect(planFix('accept', { widthPx: 100, heightPx: 100, dpi: 72, row: row(35, 35, { warn: true, pass: true }) }).ok).toBe(true);
    // A file that fails its size as well: accepting the resolution would leave it failing, yet say 已修复.
    expect(planFix('accept', { widthPx: 100, heightPx: 100, dpi: 72, row: row(35, 35, { warn: true }) }).reason).toBe(FIX_REASONS.stillFailing);
    expect(planFix('delete', { widthPx: 100, heightPx: 100, dpi: 72, row: row(0, 0, { pdf: true }) }).ok).toBe(true);
  });
});
