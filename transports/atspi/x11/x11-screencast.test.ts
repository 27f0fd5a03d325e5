import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import type { ScreencastImage } from '../../contract/screencast-contract.js';
import { type RgbaImage, scaleToWidth, startX11Screencast } from './x11-screencast.js';

function solid(width: number, height: number, red: number): RgbaImage {
  const rgba = Buffer.alloc(width * height * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([red, 0, 0, 255], i);
  return { rgba, width, height };
}

describe('scaleToWidth', () => {
  it('keeps an image that fits and scales a wider one down, keeping its aspect ratio', () => {
    const small = solid(100, 50, 10);
    expect(scaleToWidth(small, 200)).toBe(small);
    const scaled = scaleToWidth(solid(400, 300, 200), 200);
    expect(scaled).toMatchObject({ width: 200, height: 150 });
    expect([...scaled.rgba.subarray(0, 4)]).toEqual([200, 0, 0, 255]);
  });
});

describe('startX11Screencast', () => {
  it('encodes and sends a capture only when its pixels changed', async () => {
    let red = 10;
    let reads = 0;
    const frames: ScreencastImage[] = [];
    const handle = await startX11Screencast(
      async () => {
        reads += 1;
        return solid(320, 240, red);
      },
      { maxFps: 30, quality: 80, maxWidth: 160 },
      (frame) => frames.push(frame),
    );
    await expect.poll(() => reads).toBeGreaterThan(3);
    expect(frames).toHaveLength(1);
    red = 250;
    await expect.poll(() => frames.length).toBe(2);
    await handle.stop();
    const decoded = jpeg.decode(Buffer.from(frames[1]?.data ?? '', 'base64'), { useTArray: true });
    expect(decoded).toMatchObject({ width: 160, height: 120 });
    expect(frames[1]).toMatchObject({ source: 'X11_CAPTURE', width: 160, height: 120 });
    expect(decoded.data[0]).toBeGreaterThan(200);
  });
});
