import { PNG } from 'pngjs';

/** One horizontal strip of a screenshot, as an image the engine reads from stdin (here a greyscale PGM). */
export interface Band {
  readonly image: Buffer;
  /** Its first row in the screenshot: what its words' y is offset by. */
  readonly top: number;
  readonly height: number;
}

/**
 * A row whose lightest and darkest pixels differ by no more than this holds no glyph: anti-aliased text
 * darkens some pixel of every row it crosses by far more, while a flat or gently shaded background stays
 * within it.
 */
export const BLANK_ROW_TOLERANCE = 24;
/** Below this a band costs more in engine start-up (~0.1 s) than it saves in recognition. */
export const MIN_BAND_HEIGHT = 96;

/**
 * Cuts a screenshot into at most `count` bands of about equal height, each cut on a blank row, so no word
 * is split and each band can be read by its own engine on its own core. A cut looks for a blank row within
 * half a band of its ideal place; where none is, the bands either side stay one. Greyscale because the
 * engine reads grey anyway, and a PGM is written without the PNG encoder's cost.
 */
export function cutIntoBands(png: Buffer, count: number): Band[] {
  const { width, height, data } = PNG.sync.read(png);
  const grey = Buffer.alloc(width * height);
  for (let i = 0, p = 0; i < grey.length; i += 1, p += 4)
    grey[i] = (data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29) >> 8;
  const cuts = [0];
  const reach = Math.floor(height / count / 2);
  for (let k = 1; k < count; k += 1) {
    const cut = nearestBlankRow(grey, width, Math.round((k * height) / count), reach);
    if (cut !== null && cut - cuts.at(-1)! >= MIN_BAND_HEIGHT && height - cut >= MIN_BAND_HEIGHT)
      cuts.push(cut);
  }
  return cuts.map((top, i) => {
    const bottom = cuts[i + 1] ?? height;
    const header = Buffer.from(`P5\n${width} ${bottom - top}\n255\n`, 'ascii');
    return {
      image: Buffer.concat([header, grey.subarray(top * width, bottom * width)]),
      top,
      height: bottom - top,
    };
  });
}

function nearestBlankRow(grey: Buffer, width: number, ideal: number, reach: number): number | null {
  for (let d = 0; d <= reach; d += 1) {
    if (blankRow(grey, width, ideal + d)) return ideal + d;
    if (blankRow(grey, width, ideal - d)) return ideal - d;
  }
  return null;
}

function blankRow(grey: Buffer, width: number, y: number): boolean {
  if (y <= 0 || y * width >= grey.length) return false;
  let low = 255;
  let high = 0;
  for (let i = y * width, end = i + width; i < end; i += 1) {
    const v = grey[i]!;
    if (v < low) low = v;
    if (v > high) high = v;
    if (high - low > BLANK_ROW_TOLERANCE) return false;
  }
  return true;
}
