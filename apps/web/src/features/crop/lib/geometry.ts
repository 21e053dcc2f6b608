/**
 * The geometry of the crop dialog (product-spec §9). The rectangle is kept in pixels of the image
 * as turned (so zooming never moves it); what is sent is the same rectangle in pixels of the image
 * as displayed at `scale` percent, which is what POST /api/files/cropImg takes.
 */
import { mmToPx, ORIENTATION_DEGREES } from '@portal/contract/rules';

export const CANVAS = { width: 500, height: 500 } as const;
export const BOUNDARY = { width: 840, height: 600 } as const;
export const INITIAL_ZOOM = 0.2;
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

/** The zoom the dialog opens at: INITIAL_ZOOM, or less when the image would not fit the boundary. */
export function initialZoom(image: Size): number {
  return Math.min(INITIAL_ZOOM, fitZoom(image));
}

export interface Standard {
  /** mm */
  width: number;
  height: number;
  autoOrientationDetection: boolean;
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

/** The request's rectangle: pixels of the turned image as displayed at `scale` percent. */
export function requestRect(rect: Rect, zoom: number) {
  return { x: rect.x * zoom, y: rect.y * zoom, width: rect.width * zoom, height: rect.height * zoom, scale: zoom * 100 };
}
