import { FIX_REASONS, fitsSize, fixTargetDpi, MM_PER_INCH, type FixKind, type FixSize } from '@portal/contract';
import type { FileCheckRow } from './check.ts';

/** A file as a fix sees it: its pixels as displayed and its check row (component, verdict, warnings). */
export type FixSubject = { widthPx: number; heightPx: number; dpi: number; row: FileCheckRow };

export type FixPlan = {
  ok: boolean;
  reason: string | null;
  /** What to do to the pixels (fill, fit, rotate); null for 批量确认使用 and 删除, and when not ok. */
  pixels: { kind: 'fill' | 'fit'; width: number; height: number } | { kind: 'pad'; width: number; height: number; pictureWidth: number; pictureHeight: number } | { kind: 'rotate' } | null;
  before: FixSize | null;
  after: FixSize | null;
  cutShare: number;
  padShare: number;
  stillWarned: boolean;
};

const r1 = (n: number) => Math.round(n * 10) / 10;
const r4 = (n: number) => Math.round(n * 10000) / 10000;
const size = (w: number, h: number, dpi: number): FixSize => ({ widthPx: w, heightPx: h, dpi, widthMm: r1((w / dpi) * MM_PER_INCH), heightMm: r1((h / dpi) * MM_PER_INCH) });
/**
 * 留白适配 of a picture a little smaller than the frame at the target dpi: the picture is kept as it is, white
 * added around it, when it covers at least this share of the frame's side it would fit. Scaled to touch the
 * frame it had to go below the target dpi (never upscaled), and a 300 dpi photo of 1700×1200 px padded to 6寸
 * came out shrunk to 1783×1197 px at 298 dpi, newly 分辨率异常 (LAN walk, 2026-11-30). A picture further from the
 * frame still fills it at the dpi its pixels give (warned below the threshold), not a small picture on a wide margin.
 */
const PAD_ONLY_SHARE = 0.9;

const refused = (reason: string, before: FixSize | null = null): FixPlan => ({ ok: false, reason, pixels: null, before, after: null, cutShare: 0, padShare: 0, stillWarned: false });


/**
 * What a fix does to one file (pure: the sizes, not the pixels). 裁切填充 and 留白适配 aim at the component's
 * size at fixTargetDpi, but never upscale: a file whose pixels give less keeps the dpi they give at that
 * size, so a low resolution stays warned (the check reads the result's real pixels and density).
 * With automatic orientation the component's size is turned to the picture's orientation.
 */
export function planFix(kind: FixKind, s: FixSubject): FixPlan {
  const { row } = s;
  if (kind === 'delete') return { ok: true, reason: null, pixels: null, before: null, after: null, cutShare: 0, padShare: 0, stillWarned: false };
  if (row.type === 'pdf') return kind === 'accept' ? refused(FIX_REASONS.noWarning) : refused(FIX_REASONS.pdf);
  if (!(s.widthPx > 0 && s.heightPx > 0)) return refused(FIX_REASONS.broken);
  const before = size(s.widthPx, s.heightPx, s.dpi);
  if (kind === 'accept') {
    if (!row.resolutionWarning) return refused(FIX_REASONS.noWarning, before);
    if (!row.pass) return refused(FIX_REASONS.stillFailing, before);
    return { ok: true, reason: null, pixels: null, before, after: before, cutShare: 0, padShare: 0, stillWarned: true };
  }
  const c = row.component;
  if (!c) return refused(FIX_REASONS.noComponent, before);
  // A file that passes needs neither: resampling it would only lose detail (and could lose a dpi).
  if ((kind === 'fill' || kind === 'fit') && row.pass) return refused(FIX_REASONS.alreadyFits, before);
  if (kind === 'rotate') {
    if (c.autoOrientationDetection) return refused(FIX_REASONS.autoOrientation, before);
    const actual = { width: row.width, height: row.height };
    if (fitsSize(actual, c, c) || !fitsSize({ width: actual.height, height: actual.width }, c, c)) return refused(FIX_REASONS.notOrientationOnly, before);
    return { ok: true, reason: null, pixels: { kind: 'rotate' }, before, after: size(s.heightPx, s.widthPx, s.dpi), cutShare: 0, padShare: 0, stillWarned: row.resolutionWarning };
  }
  // The frame: the component's size, turned to the picture's orientation when the component allows either.
  const turn = c.autoOrientationDetection && s.widthPx !== s.heightPx && c.width !== c.height && (s.widthPx > s.heightPx) !== (c.width > c.height);
  const fwIn = (turn ? c.height : c.width) / MM_PER_INCH;
  const fhIn = (turn ? c.width : c.height) / MM_PER_INCH;
  const rx = s.widthPx / fwIn;
  const ry = s.heightPx / fhIn;
  // Covering, the shorter side (in pixels per inch of the frame) fits exactly; fitting inside, the longer does.
  const available = kind === 'fill' ? Math.min(rx, ry) : Math.max(rx, ry);
  // The highest whole dpi up to the target whose frame, in whole pixels, needs no upscaling: 1051 px over 89 mm
  // are 299.95 dpi, yet the 300 dpi frame is 1051 px high, so 300 it is (a floor made it 299, below the threshold).
  const target = fixTargetDpi({ resolutionThreshold: row.resolutionThreshold, resolutionLimit: row.resolutionLimit });
  const frame = (d: number) => ({ w: Math.max(1, Math.round(fwIn * d)), h: Math.max(1, Math.round(fhIn * d)) });
  const upscales = (d: number) => {
    const f = frame(d);
    return (kind === 'fill' ? Math.max(f.w / s.widthPx, f.h / s.heightPx) : Math.min(f.w / s.widthPx, f.h / s.heightPx)) > 1;
  };
  let dpi = Math.max(1, Math.min(Math.floor(target), Math.ceil(available)));
  while (dpi > 1 && upscales(dpi)) dpi--;
  const whole = frame(Math.floor(target));
  if (kind === 'fit' && dpi < Math.floor(target) && available >= PAD_ONLY_SHARE * target && s.widthPx <= whole.w && s.heightPx <= whole.h) {
    const placed = (s.widthPx * s.heightPx) / (whole.w * whole.h);
    return {
      ok: true, reason: null, pixels: { kind: 'pad', width: whole.w, height: whole.h, pictureWidth: s.widthPx, pictureHeight: s.heightPx },
      before, after: size(whole.w, whole.h, Math.floor(target)), cutShare: 0, padShare: r4(Math.max(0, 1 - placed)),
      stillWarned: row.resolutionThreshold > 0 && Math.floor(target) < row.resolutionThreshold,
    };
  }
  const { w, h } = frame(dpi);
  const kept = (fwIn * available * fhIn * available) / (s.widthPx * s.heightPx);
  const placed = (s.widthPx * s.heightPx * (dpi / available) ** 2) / (w * h);
  return {
    ok: true, reason: null, pixels: { kind, width: w, height: h }, before, after: size(w, h, dpi),
    cutShare: kind === 'fill' ? r4(Math.max(0, 1 - kept)) : 0,
    padShare: kind === 'fit' ? r4(Math.max(0, 1 - placed)) : 0,
    stillWarned: row.resolutionThreshold > 0 && dpi < row.resolutionThreshold,
  };
}
