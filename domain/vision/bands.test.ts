import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { cutIntoBands, MIN_BAND_HEIGHT } from './bands.js';

/** A white image with dark rows where `inked` says: a stand-in for lines of text. */
function image(width: number, height: number, inked: (y: number) => boolean): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const v = inked(y) && x % 3 === 0 ? 0 : 255;
      png.data.set([v, v, v, 255], (y * width + x) * 4);
    }
  return PNG.sync.write(png);
}

const heightOf = (image: Buffer) => Number(image.toString('ascii', 0, 20).split(/\s+/)[2]);

describe('cutIntoBands', () => {
  it('cuts on the blank row nearest each ideal cut, never through ink, as greyscale PGMs', () => {
    // Ink everywhere but rows 180–189: the one place a cut may go.
    const bands = cutIntoBands(
      image(40, 400, (y) => y < 180 || y >= 190),
      2,
    );
    expect(bands.map((b) => [b.top, b.height])).toEqual([
      [0, 189],
      [189, 211],
    ]);
    expect(bands[1]!.image.subarray(0, 10).toString('ascii')).toBe('P5\n40 211\n');
    expect(bands.map((b) => heightOf(b.image))).toEqual([189, 211]);
    expect(bands[1]!.image.length).toBe('P5\n40 211\n255\n'.length + 40 * 211);
  });

  it('keeps the image whole where no blank row lies near a cut, or a band would be too thin', () => {
    expect(
      cutIntoBands(
        image(40, 400, () => true),
        2,
      ).map((b) => b.top),
    ).toEqual([0]);
    expect(
      cutIntoBands(
        image(40, MIN_BAND_HEIGHT, () => false),
        2,
      ).map((b) => b.top),
    ).toEqual([0]);
    expect(
      cutIntoBands(
        image(40, 400, () => false),
        1,
      ).map((b) => b.top),
    ).toEqual([0]);
  });
});
