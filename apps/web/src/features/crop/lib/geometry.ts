/**
 * The geometry of the crop dialog (../shared/spec/product-spec.md §9). The rectangle is kept in pixels of the image
 * as turned (so zooming never moves it); what is sent is the same rectangle in pixels of the image
 * as displayed at `scale` percent, which is what POST /api/files/cropImg takes. What a rectangle
 * will measure after the crop, and whether that passes, uses the shared print rules of the check.
 */
import { allowedDeviation, mmToPx, orientationFit, ORIENTATION_DEGREES, pxToMm, type Tolerance } from '@portal/contract/rules';

export const CANVAS = { width: 500, height: 500 } as const;
export const BOUNDARY = { width: 840, height: 600 } as const;
/** The largest scale the crop call takes (CropBody: percent ≤ 10000). */
const MAX_SCALE_PERCENT = 10_000;
/** The rotate button turns the image by -90°: orientation codes 1 → 8 → 3 → 6 → 1 (0°, 270°, 180°, 90°). */
const NEXT_ORIENTATION: Record<number, number> = { 1: 8, 8: 3, 3: 6, 6: 1 };
const MIN_RECT_PX = 8;

export interface Size {
  width: number;
  height: number;
}
export interface Rect extends Size {
  x: number;
  y: number;
}

export const rotateLeft = (orientation: number): number => NEXT_ORIENTATION[orientation] ?? 1;
export const degreesOf = (orientation: number): 0 | 90 | 180 | 270 => ORIENTATION_DEGREES[orientation] ?? 0;

/** The image's size once turned clockwise by `degrees`. */
export function turned(size: Size, degrees: number): Size {
  return degrees === 90 || degrees === 270 ? { width: size.height, height: size.width } : size;
}

/** The largest zoom at which the turned image fits the boundary. */
export function fitZoom(image: Size): number {
  return Math.min(BOUNDARY.width / image.width, BOUNDARY.height / image.height);
}

/**
 * The zoom the dialog opens at: the whole image fills the boundary (issue #17 replaces the spec's fixed
 * 0.2, at which a 100×100 px image is a dot and a large one does not fit).
 */
export function initialZoom(image: Size): number {
  return fitZoom(image);
}

/** The component's print rules, as the check row carries them. */
export interface Standard extends Tolerance {
  /** mm */
  width: number;
  height: number;
  autoOrientationDetection: boolean;
  /** Minimum dpi (0 = none) and maximum dpi (null or 0 = none). */
  resolutionThreshold: number;
  resolutionLimit: number | null;
}

/**
 * The rectangle the dialog starts with: the component's size at the image's density, centred
 * (turned to the image's orientation when the component allows either); without a component, the
 * canvas at the current zoom. Never larger than the image.
 */
export function initialRect(image: Size, dpi: number, standard: Standard | null, zoom: number): Rect {
  let width: number;
  let height: number;
  if (standard && dpi > 0) {
    width = Math.round(mmToPx(standard.width, dpi));
    height = Math.round(mmToPx(standard.height, dpi));
    const imageLandscape = image.width >= image.height;
    if (standard.autoOrientationDetection && imageLandscape !== width >= height) [width, height] = [height, width];
  } else {
    width = Math.round(CANVAS.width / zoom);
    height = Math.round(CANVAS.height / zoom);
  }
  // Too big for the image: shrink, keeping the proportions.
  const shrink = Math.min(1, image.width / width, image.height / height);
  width = Math.max(MIN_RECT_PX, Math.floor(width * shrink));
  height = Math.max(MIN_RECT_PX, Math.floor(height * shrink));
  return { x: Math.round((image.width - width) / 2), y: Math.round((image.height - height) / 2), width, height };
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/** Moves the rectangle by (dx, dy) image pixels, keeping it inside the image. */
export function moveRect(rect: Rect, dx: number, dy: number, image: Size): Rect {
  return {
    ...rect,
    x: Math.round(clamp(rect.x + dx, 0, image.width - rect.width)),
    y: Math.round(clamp(rect.y + dy, 0, image.height - rect.height)),
  };
}

export type Corner = 'nw' | 'ne' | 'sw' | 'se';

/**
 * Resizes from a corner by (dx, dy) image pixels; the opposite corner stays put. With `ratio`
 * (width / height) the proportions are kept, so a rectangle at the component's proportions stays so.
 */
export function resizeRect(rect: Rect, corner: Corner, dx: number, dy: number, image: Size, ratio: number | null): Rect {
  const right = rect.x + rect.width;
  const bottom = rect.y + rect.height;
  const west = corner === 'nw' || corner === 'sw';
  const north = corner === 'nw' || corner === 'ne';
  // The room there is between the fixed corner and the image's edge.
  const maxW = west ? right : image.width - rect.x;
  const maxH = north ? bottom : image.height - rect.y;
  let width = clamp(rect.width + (west ? -dx : dx), MIN_RECT_PX, maxW);
  let height = clamp(rect.height + (north ? -dy : dy), MIN_RECT_PX, maxH);
  if (ratio) {
    // Follow the larger change, then fit the other side, then make both fit the room.
    if (Math.abs(width - rect.width) >= Math.abs(height - rect.height)) height = width / ratio;
    else width = height * ratio;
    const fit = Math.min(1, maxW / width, maxH / height);
    width *= fit;
    height *= fit;
  }
  width = Math.round(width);
  height = Math.round(height);
  return { x: west ? right - width : rect.x, y: north ? bottom - height : rect.y, width, height };
}

/**
 * The request's rectangle: pixels of the turned image as displayed at `scale` percent (the zoom, or
 * the largest scale the call takes when a tiny image is shown larger than that).
 */
export function requestRect(rect: Rect, zoom: number) {
  const scale = Math.min(zoom * 100, MAX_SCALE_PERCENT);
  const k = scale / 100;
  return { x: rect.x * k, y: rect.y * k, width: rect.width * k, height: rect.height * k, scale };
}

/** What the cropped file will be, as the check will see it: the density is kept, so mm = px / dpi × 25.4. */
export interface CropPrediction {
  widthMm: number;
  heightMm: number;
  dpi: number;
  /** The size passes (|actual − standard| ≤ tolerance, either orientation when allowed). */
  sizeOk: boolean;
  /** The density is within the component's threshold and limit (a miss is a resolution warning). */
  dpiOk: boolean;
}

export function predictCrop(rect: Size, dpi: number, standard: Standard): CropPrediction {
  const widthMm = dpi > 0 ? pxToMm(rect.width, dpi) : 0;
  const heightMm = dpi > 0 ? pxToMm(rect.height, dpi) : 0;
  const sizeOk = dpi > 0 && orientationFit({ width: widthMm, height: heightMm }, standard, standard) !== null;
  const low = standard.resolutionThreshold > 0 && dpi < standard.resolutionThreshold;
  const high = standard.resolutionLimit !== null && standard.resolutionLimit > 0 && dpi > standard.resolutionLimit;
  return { widthMm, heightMm, dpi, sizeOk, dpiOk: !low && !high };
}

/** Whether some whole-pixel length up to `available` px measures within the tolerance of `standardMm`. */
function lengthReachable(available: number, dpi: number, standardMm: number, t: Tolerance): boolean {
  const deviation = allowedDeviation(standardMm, t);
  const shortest = Math.max(1, Math.ceil(mmToPx(standardMm - deviation, dpi) - 1e-6));
  const longest = Math.floor(mmToPx(standardMm + deviation, dpi) + 1e-6);
  return shortest <= Math.min(longest, available);
}

/**
 * Whether any rectangle inside the image can pass: false when the image has too few pixels at its
 * density for the component (图片像素不足，裁切后仍不符合尺寸要求).
 */
export function cropCanPass(image: Size, dpi: number, standard: Standard): boolean {
  if (dpi <= 0) return false;
  const fits = (w: number, h: number) => lengthReachable(w, dpi, standard.width, standard) && lengthReachable(h, dpi, standard.height, standard);
  return fits(image.width, image.height) || (standard.autoOrientationDetection && fits(image.height, image.width));
}
