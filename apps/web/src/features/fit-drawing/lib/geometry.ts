/**
 * The drawing of a file over its required size (issue #20 item 4), as numbers: every rectangle in mm,
 * in one coordinate space whose origin is the top left of the drawing, the trim centred in it.
 * The shapes: the component's trim outline, the tolerance band (the smallest and the largest size that
 * pass), the file to scale, the file turned where automatic orientation applies, and what 裁切填充
 * (scale to cover the trim, centred) would cut away.
 */
import { allowedDeviation, orientationFit, type Tolerance } from '@portal/contract/rules';
import type { Rect, Size } from '../../../lib/rect.ts';

export type { Rect, Size };

export type Standard = Size & Tolerance & { autoOrientationDetection: boolean };

export interface FitGeometry {
  /** The drawing's extent: every shape inside, with a margin. */
  viewBox: Rect;
  trim: Rect;
  /** The tolerance band: a file between these two passes (inner may be empty for a large tolerance). */
  inner: Rect;
  outer: Rect;
  /** The file as it is, to scale, centred on the trim. */
  file: Rect;
  /** The file turned a quarter, where automatic orientation applies and turning it suits the trim; else null. */
  turned: Rect | null;
  /** What the check accepts: as it is, turned, or neither. */
  fit: 'as-is' | 'swapped' | null;
  /** 裁切填充: the file (turned where it would be) scaled to cover the trim, centred. */
  cover: Rect;
  /** The cover's scale: 1.04 is enlarged by 4 %. */
  coverScale: number;
  /** The share of the covering picture cut away, 0–1. */
  cutShare: number;
}

const isPortrait = (s: Size) => s.height > s.width;

/** The geometry of `file` (mm) drawn over `standard`; null when either has no area. */
export function fitGeometry(file: Size, standard: Standard): FitGeometry | null {
  if (!(file.width > 0 && file.height > 0 && standard.width > 0 && standard.height > 0)) return null;
  const dw = allowedDeviation(standard.width, standard);
  const dh = allowedDeviation(standard.height, standard);
  const fit = orientationFit(file, standard, standard);
  const turnable = standard.autoOrientationDetection && standard.width !== standard.height && file.width !== file.height
    && isPortrait(file) !== isPortrait(standard);
  const turnedSize = turnable || fit === 'swapped' ? { width: file.height, height: file.width } : null;
  const base = turnedSize ?? file;
  const coverScale = Math.max(standard.width / base.width, standard.height / base.height);
  const coverSize = { width: base.width * coverScale, height: base.height * coverScale };
  const cutShare = Math.max(0, 1 - (standard.width * standard.height) / (coverSize.width * coverSize.height));

  const sizes = [standard, { width: standard.width + 2 * dw, height: standard.height + 2 * dh }, file, coverSize, ...(turnedSize ? [turnedSize] : [])];
  const extentW = Math.max(...sizes.map((s) => s.width));
  const extentH = Math.max(...sizes.map((s) => s.height));
  const margin = Math.max(extentW, extentH) * 0.04;
  const cx = extentW / 2 + margin;
  const cy = extentH / 2 + margin;
  const centred = (s: Size): Rect => ({ x: cx - s.width / 2, y: cy - s.height / 2, width: s.width, height: s.height });

  return {
    viewBox: { x: 0, y: 0, width: extentW + 2 * margin, height: extentH + 2 * margin },
    trim: centred(standard),
    inner: centred({ width: Math.max(0, standard.width - 2 * dw), height: Math.max(0, standard.height - 2 * dh) }),
    outer: centred({ width: standard.width + 2 * dw, height: standard.height + 2 * dh }),
    file: centred(file),
    turned: turnedSize ? centred(turnedSize) : null,
    fit,
    cover: centred(coverSize),
    coverScale,
    cutShare,
  };
}

/** The share cut away as the drawing says it: '12.3%'. */
export const percentText = (share: number) => `${(Math.round(share * 1000) / 10).toFixed(1)}%`;
