import jpeg from 'jpeg-js';
import type { Bounds } from '../../contract/bounds.js';
import type {
  ScreencastHandle,
  ScreencastImage,
  ScreencastOptions,
} from '../../contract/screencast-contract.js';
import { type AccessibleRef, type AtspiBus, whenGone } from '../bus/atspi-bus.js';
import { SCREEN_COORDS } from '../tree/desktop-snapshot.js';
import { clampRegion, toRgba } from './x11-capture.js';
import type { X11Connection } from './x11-connection.js';

/** A region of the screen as RGBA pixels, four bytes a pixel, row after row. */
export interface RgbaImage {
  readonly rgba: Buffer;
  readonly width: number;
  readonly height: number;
}

/** The root window's pixels in `region`, clamped to the screen, unencoded. */
export async function capturePixels(connection: X11Connection, region: Bounds | null): Promise<RgbaImage> {
  const { x, y, width, height } = clampRegion(region, connection.screenSize);
  return { rgba: toRgba(await connection.image(x, y, width, height)), width, height };
}

/** `image` no wider than `maxWidth`, by nearest pixel: a live view trades fine detail for speed. */
export function scaleToWidth(image: RgbaImage, maxWidth: number): RgbaImage {
  if (image.width <= maxWidth) return image;
  const width = maxWidth;
  const height = Math.max(1, Math.round((image.height * maxWidth) / image.width));
  const source = new Uint32Array(image.rgba.buffer, image.rgba.byteOffset, image.width * image.height);
  const rgba = Buffer.alloc(width * height * 4);
  const target = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height);
  const columns = Array.from({ length: width }, (_, column) => Math.floor((column * image.width) / width));
  for (let row = 0; row < height; row++) {
    const from = Math.floor((row * image.height) / height) * image.width;
    const to = row * width;
    for (let column = 0; column < width; column++)
      target[to + column] = source[from + (columns[column] as number)] as number;
  }
  return { rgba, width, height };
}

/**
 * A window's live view from the X server: its area is captured at most `maxFps` times a second (one
 * capture at a time), and a frame is encoded and sent only when the pixels differ from the last capture.
 * `read` gives the window's pixels, or null while it has no area on the screen (unmapped, minimised).
 */
export function startX11Screencast(
  read: () => Promise<RgbaImage | null>,
  options: ScreencastOptions,
  onFrame: (frame: ScreencastImage) => void,
): Promise<ScreencastHandle> {
  const intervalMs = 1_000 / options.maxFps;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let previous: RgbaImage | undefined;
  let running: Promise<void> = Promise.resolve();
  const capture = async () => {
    const startedAt = performance.now();
    const image = await read().catch(() => null);
    if (stopped) return;
    if (image && !samePixels(image, previous)) {
      previous = image;
      const scaled = scaleToWidth(image, options.maxWidth);
      const bytes = jpeg.encode({ ...scaled, data: scaled.rgba }, options.quality).data;
      onFrame({
        data: bytes.toString('base64'),
        width: scaled.width,
        height: scaled.height,
        capturedAt: new Date(),
        source: 'X11_CAPTURE',
      });
    }
    timer = setTimeout(tick, Math.max(0, intervalMs - (performance.now() - startedAt)));
  };
  const tick = () => {
    running = capture();
  };
  tick();
  return Promise.resolve({
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  });
}

function samePixels(image: RgbaImage, previous: RgbaImage | undefined): boolean {
  return (
    previous !== undefined &&
    previous.width === image.width &&
    previous.height === image.height &&
    previous.rgba.equals(image.rgba)
  );
}

/** A top-level window's extents on the screen, read from the window itself; null when it has none. */
export async function windowExtents(bus: AtspiBus, window: AccessibleRef): Promise<Bounds | null> {
  const [extents] = await bus
    .call(window.busName, window.path, 'org.a11y.atspi.Component', 'GetExtents', 'u', [SCREEN_COORDS])
    .catch(whenGone([null]));
  if (!Array.isArray(extents)) return null;
  const [x = 0, y = 0, width = 0, height = 0] = extents as number[];
  return width > 0 && height > 0 ? { x, y, width, height } : null;
}
