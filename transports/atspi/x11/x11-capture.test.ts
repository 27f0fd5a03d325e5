import { describe, expect, it } from 'vitest';
import type { StagegraphError } from '../../../errors/stagegraph-error.js';
import { clampRegion, toRgba } from './x11-capture.js';

const SCREEN = { width: 1280, height: 800 };

describe('screen capture regions and pixels', () => {
  it('takes the whole screen for null and clamps a region to the screen in whole pixels', () => {
    expect(clampRegion(null, SCREEN)).toEqual({ x: 0, y: 0, ...SCREEN });
    expect(clampRegion({ x: -10, y: 790, width: 30, height: 40 }, SCREEN)).toEqual({
      x: 0,
      y: 790,
      width: 20,
      height: 10,
    });
    expect(clampRegion({ x: 10.5, y: 20.2, width: 5, height: 5 }, SCREEN)).toEqual({
      x: 10,
      y: 20,
      width: 6,
      height: 6,
    });
  });

  it('refuses a region off the screen, empty, or not a number with BAD_INPUT', () => {
    for (const region of [
      { x: 1280, y: 0, width: 10, height: 10 },
      { x: 0, y: 0, width: 0, height: 10 },
      { x: Number.NaN, y: 0, width: 10, height: 10 },
    ]) {
      let code: string | undefined;
      try {
        clampRegion(region, SCREEN);
      } catch (error) {
        code = (error as StagegraphError).code;
      }
      expect(code, JSON.stringify(region)).toBe('BAD_INPUT');
    }
  });

  it('reads red, green and blue out of 32-bit pixels by the visual masks, in either byte order', () => {
    const visual = { red_mask: 0xff0000, green_mask: 0xff00, blue_mask: 0xff };
    const little = Buffer.from([0x30, 0x20, 0x10, 0x00]);
    expect([
      ...toRgba({ width: 1, height: 1, data: little, bigEndian: false, bitsPerPixel: 32, visual }),
    ]).toEqual([0x10, 0x20, 0x30, 0xff]);
    const big = Buffer.from([0x00, 0x10, 0x20, 0x30]);
    expect([
      ...toRgba({ width: 1, height: 1, data: big, bigEndian: true, bitsPerPixel: 32, visual }),
    ]).toEqual([0x10, 0x20, 0x30, 0xff]);
  });

  it('refuses pixel formats other than 32 bits with CAPABILITY_UNSUPPORTED', () => {
    const visual = { red_mask: 0xf800, green_mask: 0x7e0, blue_mask: 0x1f };
    let code: string | undefined;
    try {
      toRgba({ width: 1, height: 1, data: Buffer.alloc(2), bigEndian: false, bitsPerPixel: 16, visual });
    } catch (error) {
      code = (error as StagegraphError).code;
    }
    expect(code).toBe('CAPABILITY_UNSUPPORTED');
  });
});
