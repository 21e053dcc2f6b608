/** A size and a rectangle in one coordinate space (px of an image, or mm of a drawing): the crop's and the fit drawing's geometry. */
export interface Size {
  width: number;
  height: number;
}
export interface Rect extends Size {
  x: number;
  y: number;
}
