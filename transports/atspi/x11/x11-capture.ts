import { endianness } from 'node:os';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { Bounds } from '../../contract/bounds.js';
import type { Screenshot } from '../../contract/window-driver.js';
import type { ScreenImage, X11Connection } from './x11-connection.js';

const DEFAULT_JPEG_QUALITY = 80;

/** A region of the screen in whole pixels, clamped to it; BAD_INPUT when nothing of it is on the screen. */
export function clampRegion(region: Bounds | null, screen: { width: number; height: number }): Bounds {
  if (!region) return { x: 0, y: 0, width: screen.width, height: screen.height };
  const values = [region.x, region.y, region.width, region.height];
  if (!values.every(Number.isFinite)) {
    throw new StagegraphError(
      'BAD_INPUT',
      `A capture region needs finite numbers (got ${values.join(', ')}).`,
    );
  }
  const left = Math.max(0, Math.floor(region.x));
  const top = Math.max(0, Math.floor(region.y));
  const right = Math.min(screen.width, Math.ceil(region.x + region.width));
  const bottom = Math.min(screen.height, Math.ceil(region.y + region.height));
  if (right <= left || bottom <= top) {
    throw new StagegraphError(
      'BAD_INPUT',
      `The capture region (${region.x}, ${region.y}, ${region.width}×${region.height}) is not on the ${screen.width}×${screen.height} screen.`,
      { hint: 'Capture a region that overlaps the screen, or null for the whole screen.' },
    );
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The shift that brings a channel's mask down to its low 8 bits (masks of 8 contiguous bits). */
function shiftOf(mask: number): number {
  let shift = 0;
  while (shift < 32 && ((mask >>> shift) & 1) === 0) shift++;
  return shift;
}

/** The server's 32-bit pixels as RGBA, the one layout both encoders take. */
export function toRgba(image: ScreenImage): Buffer {
  if (image.bitsPerPixel !== 32) {
    throw new StagegraphError(
      'CAPABILITY_UNSUPPORTED',
      `Screen capture reads 32-bit pixels; this X server sends ${image.bitsPerPixel}-bit ones.`,
    );
  }
  const { width, height, visual } = image;
  const red = shiftOf(visual.red_mask);
  const green = shiftOf(visual.green_mask);
  const blue = shiftOf(visual.blue_mask);
  const rgba = Buffer.alloc(width * height * 4);
  const out = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height);
  // Word by word (a 1280×800 screen is a million pixels): the reply's bytes are copied to an aligned
  // buffer in the host's order, then each word is remapped to RGBA in the host's order.
  const source = Buffer.alloc(width * height * 4);
  image.data.copy(source, 0, 0, source.length);
  if (image.bigEndian !== (endianness() === 'BE')) source.swap32();
  const pixels = new Uint32Array(source.buffer, source.byteOffset, width * height);
  const littleHost = endianness() === 'LE';
  for (let index = 0; index < pixels.length; index++) {
    const pixel = pixels[index] as number;
    const r = (pixel >>> red) & 0xff;
    const g = (pixel >>> green) & 0xff;
    const b = (pixel >>> blue) & 0xff;
    out[index] = littleHost
      ? (0xff000000 | (b << 16) | (g << 8) | r) >>> 0
      : ((r << 24) | (g << 16) | (b << 8) | 0xff) >>> 0;
  }
  return rgba;
}

/** The root window's pixels in `region` (the whole screen for null), encoded as PNG or JPEG. */
export async function captureScreen(
  connection: X11Connection,
  region: Bounds | null,
  format: 'png' | 'jpeg',
  quality?: number,
): Promise<Screenshot> {
  if (format !== 'png' && format !== 'jpeg') {
    throw new StagegraphError('BAD_INPUT', `Screen captures are png or jpeg (got "${String(format)}").`);
  }
  if (quality !== undefined && (format !== 'jpeg' || !(quality >= 0 && quality <= 100))) {
    throw new StagegraphError(
      'BAD_INPUT',
      `quality is for jpeg only, 0 to 100 (got ${quality} for ${format}).`,
    );
  }
  const { x, y, width, height } = clampRegion(region, connection.screenSize);
  const rgba = toRgba(await connection.image(x, y, width, height));
  const bytes =
    format === 'png'
      ? PNG.sync.write(Object.assign(new PNG({ width, height }), { data: rgba }))
      : jpeg.encode({ width, height, data: rgba }, quality ?? DEFAULT_JPEG_QUALITY).data;
  return { bytes, format, width, height };
}
