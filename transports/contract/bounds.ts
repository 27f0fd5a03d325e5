/** A rectangle in screen pixels: a window's frame, a node's box, a region captured. */
export interface Bounds {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}
