/** Pure print rules shared by the server's check and the browser's dialogs. */

export const MM_PER_INCH = 25.4;

/** Millimetres of a pixel length at a density (../shared/spec/product-spec.md §9: mm ↔ px uses DPI / 25.4). */
export const pxToMm = (px: number, dpi: number) => (px / dpi) * MM_PER_INCH;
export const mmToPx = (mm: number, dpi: number) => (mm * dpi) / MM_PER_INCH;

export type Tolerance = { error: number; errorType: 'mm' | 'percent' };

/** The allowed deviation in mm from a standard length: absolute, or a percentage of that length. */
export const allowedDeviation = (standardMm: number, t: Tolerance) => (t.errorType === 'percent' ? (standardMm * t.error) / 100 : t.error);

/** Floating point noise (0.1 + 0.2) must never fail a size that is exactly on the limit. */
const EPSILON = 1e-6;

export function fitsSize(actual: { width: number; height: number }, standard: { width: number; height: number }, t: Tolerance): boolean {
  return Math.abs(actual.width - standard.width) <= allowedDeviation(standard.width, t) + EPSILON
    && Math.abs(actual.height - standard.height) <= allowedDeviation(standard.height, t) + EPSILON;
}

/** Which orientation fits: as is, swapped (only with automatic orientation detection), or none. */
export function orientationFit(
  actual: { width: number; height: number },
  standard: { width: number; height: number },
  t: Tolerance & { autoOrientationDetection: boolean },
): 'as-is' | 'swapped' | null {
  if (fitsSize(actual, standard, t)) return 'as-is';
  if (t.autoOrientationDetection && fitsSize({ width: actual.height, height: actual.width }, standard, t)) return 'swapped';
  return null;
}

export const toleranceText = (t: Tolerance) => (t.errorType === 'percent' ? `±${t.error}%` : `±${t.error}mm`);

/** Orientation codes of the crop dialog (../shared/spec/product-spec.md §9) to degrees. */
export const ORIENTATION_DEGREES: Record<number, 0 | 90 | 180 | 270> = { 1: 0, 6: 90, 3: 180, 8: 270 };

/**
 * A contact phone an order can be delivered with: a mainland mobile number (11 digits from 13–19, an
 * optional +86; spaces and hyphens between groups allowed) or a landline with its area code
 * (0 + 2–3 digits, then 7–8 digits not starting with 0 or 1, an optional -extension): 0571-88886666,
 * (010)62345678, 02087654321.
 */
export function isPhoneNumber(text: string): boolean {
  const s = text.trim().replace(/\s+/g, '');
  if (/^(?:\+?86)?1[3-9]\d{9}$/.test(s.replace(/-/g, ''))) return true;
  return /^(?:\(0\d{2,3}\)|0\d{2,3}-?)[2-9]\d{6,7}(?:-\d{1,6})?$/.test(s);
}

/**
 * How each file of a work is named to the customer: its name, or, where another file of the work has the same
 * name (相册/上/1.jpg and 相册/下/1.jpg), its path below the folder the work's files share (上/1.jpg, 下/1.jpg).
 * The pages of one PDF share its path and so its name.
 */
export function fileLabels(paths: readonly string[]): Map<string, string> {
  const distinct = [...new Set(paths)];
  const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const count = new Map<string, number>();
  for (const p of distinct) count.set(nameOf(p), (count.get(nameOf(p)) ?? 0) + 1);
  const dirOf = (p: string) => p.slice(0, p.lastIndexOf('/') + 1);
  let shared = distinct.length > 0 ? dirOf(distinct[0]!) : '';
  for (const p of distinct) while (!p.startsWith(shared)) shared = dirOf(shared.slice(0, -1));
  return new Map(distinct.map((p) => [p, (count.get(nameOf(p)) ?? 0) > 1 ? p.slice(shared.length) : nameOf(p)]));
}
