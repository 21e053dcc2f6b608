/**
 * The geometry of the crop dialog (../shared/spec/product-spec.md §9). The rectangle is kept in pixels of the image
 * as turned (so zooming never moves it); what is sent is the same rectangle in pixels of the image
 * as displayed at `scale` percent, which is what POST /api/files/cropImg takes. What a rectangle
 * will measure after the crop, and whether that passes, uses the shared print rules of the check.
 */
import { orientationFit, ORIENTATION_DEGREES, pxToMm, type Tolerance } from '@portal/contract/rules';
import type { Rect, Size } from '../../../lib/rect.ts';

export type { Rect, Size };

export const CANVAS = { width: 500, height: 500 } as const;
export const BOUNDARY = { width: 840, height: 600 } as const;
/** What the dialog needs around its boundary (title, zoom, prediction, buttons, margins), px. */
const DIALOG_CHROME = 250;

/**
 * The boundary for a window `viewportHeight` px high: at most 840×600, lower so that the whole dialog, its
 * 确定 included, fits the window (at 1280×720 it was 828 px tall, 取消/确定 below the fold: LAN walk).
 */
export function boundaryFor(viewportHeight: number): Size {
  return { width: BOUNDARY.width, height: Math.max(240, Math.min(BOUNDARY.height, viewportHeight - DIALOG_CHROME)) };
}
/** The largest scale the crop call takes (CropBody: percent ≤ 10000). */
const MAX_SCALE_PERCENT = 10_000;
/** The rotate button turns the image by -90°: orientation codes 1 → 8 → 3 → 6 → 1 (0°, 270°, 180°, 90°). */
const NEXT_ORIENTATION: Record<number, number> = { 1: 8, 8: 3, 3: 6, 6: 1 };
const MIN_RECT_PX = 8;


export const rotateLeft = (orientation: number): number => NEXT_ORIENTATION[orientation] ?? 1;
export const degreesOf = (orientation: number): 0 | 90 | 180 | 270 => ORIENTATION_DEGREES[orientation] ?? 0;

/** The image's size once turned clockwise by `degrees`. */
export function turned(size: Size, degrees: number): Size {
  return degrees === 90 || degrees === 270 ? { width: size.height, height: size.width } : size;
}

/** The largest zoom at which the turned image fits the boundary. */
export function fitZoom(image: Size, boundary: Size = BOUNDARY): number {
  return Math.min(boundary.width / image.width, boundary.height / image.height);
}

/**
 * The zoom the dialog opens at: the whole image fills the boundary (issue #17 replaces the spec's fixed
 * 0.2, at which a 100×100 px image is a dot and a large one does not fit).
 */
export function initialZoom(image: Size, boundary: Size = BOUNDARY): number {
  return fitZoom(image, boundary);
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
 * The rectangle the dialog starts with: the largest box of the component's proportions the image holds, centred
 * (turned to the image's orientation when the component allows either), i.e. the whole picture trimmed to the
 * print's shape; the crop states the density that makes it the component's size (`cropDpi`). Without a
 * component, the canvas at the current zoom. Never larger than the image.
 *
 * It used to be the component's size at the image's density: a phone photo of 1200×1800 px at 72 dpi opened on
 * a 252×360 px patch of its middle and printed only that, and a photo with fewer pixels than the size at its
 * stated density could not be cropped at all (LAN walk, 2026-11-30).
 */
export function initialRect(image: Size, standard: Standard | null, zoom: number): Rect {
  let width: number;
  let height: number;
  if (standard) {
    width = standard.width;
    height = standard.height;
    const imageLandscape = image.width >= image.height;
    if (standard.autoOrientationDetection && imageLandscape !== width >= height) [width, height] = [height, width];
  } else {
    width = Math.round(CANVAS.width / zoom);
    height = Math.round(CANVAS.height / zoom);
  }
  // As large as the image holds, keeping the proportions; with a component, at a whole dpi, so that the crop
  // measures the component's size to the tenth of a mm the check shows (1719 px at 344 dpi read 126.9 mm).
  const fit = standard ? Math.min(image.width / width, image.height / height) : Math.min(1, image.width / width, image.height / height);
  const dpi = standard ? Math.floor(fit * 25.4) : 0;
  const scale = dpi >= 1 ? dpi / 25.4 : fit;
  width = Math.max(MIN_RECT_PX, Math.min(image.width, dpi >= 1 ? Math.round(width * scale) : Math.floor(width * scale)));
  height = Math.max(MIN_RECT_PX, Math.min(image.height, dpi >= 1 ? Math.round(height * scale) : Math.floor(height * scale)));
  return { x: Math.round((image.width - width) / 2), y: Math.round((image.height - height) / 2), width, height };
}

/**
 * The density (whole dpi) at which the box measures the component's size: its pixels over the component's mm,
 * each side against the component's side of the same orientation when the component allows either.
 */
export function cropDpi(rect: Size, standard: Standard): number {
  let { width, height } = standard;
  if (standard.autoOrientationDetection && rect.width >= rect.height !== width >= height) [width, height] = [height, width];
  const dpi = ((rect.width / width + rect.height / height) / 2) * 25.4;
  return Math.max(1, Math.round(dpi));
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

/** What the cropped file will be, as the check will see it at the density it states: mm = px / dpi × 25.4. */
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
