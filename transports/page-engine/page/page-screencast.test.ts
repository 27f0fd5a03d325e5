import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import type { ScreencastImage } from '../../contract/screencast-contract.js';
import { rawSessionsAreDeaf } from './page-cdp.js';
import { jpegSize, startPageScreencast } from './page-screencast.js';

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

const OPTIONS = { maxFps: 10, quality: 60, maxWidth: 200 };

function isJpeg(frame: ScreencastImage): boolean {
  const bytes = Buffer.from(frame.data, 'base64');
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9;
}

describe('startPageScreencast', () => {
  it('pushes JPEG frames from CDP Page.startScreencast, scaled to maxWidth, and a new one on a change', async () => {
    await page.setViewportSize({ width: 640, height: 480 });
    await page.setContent('<h1 id="title">Before</h1>');
    const frames: ScreencastImage[] = [];
    const handle = await startPageScreencast(page, OPTIONS, (frame) => frames.push(frame));
    await expect.poll(() => frames.length).toBeGreaterThan(0);
    const first = frames.at(-1) as ScreencastImage;
    expect(first).toMatchObject({ source: 'CDP_SCREENCAST', width: 200, height: 150 });
    expect(isJpeg(first)).toBe(true);
    const seen = frames.length;
    await page.evaluate(() => {
      (document.getElementById('title') as HTMLElement).textContent = 'After';
    });
    await expect.poll(() => frames.length).toBeGreaterThan(seen);
    await handle.stop();
    const stopped = frames.length;
    await page.evaluate(() => {
      (document.getElementById('title') as HTMLElement).textContent = 'After stop';
    });
    // A repaint after stop would have been pushed by the time a round trip to the page has come back.
    await page.evaluate(() => new Promise(requestAnimationFrame));
    expect(frames.length).toBe(stopped);
  });

  it('captures periodically where extra CDP sessions hear no events, sending only changed pictures', async () => {
    const context = await page
      .context()
      .browser()
      ?.newContext({ viewport: { width: 400, height: 300 } });
    if (!context) throw new Error('no browser');
    try {
      rawSessionsAreDeaf(context);
      const deaf = await context.newPage();
      await deaf.setContent('<h1 id="title">Still</h1>');
      const frames: ScreencastImage[] = [];
      const handle = await startPageScreencast(deaf, OPTIONS, (frame) => frames.push(frame));
      await expect.poll(() => frames.length).toBe(1);
      expect(frames[0]).toMatchObject({ source: 'SCREENSHOT', width: 200, height: 150 });
      expect(isJpeg(frames[0] as ScreencastImage)).toBe(true);
      await deaf.evaluate(() => {
        (document.getElementById('title') as HTMLElement).textContent = 'Moved';
      });
      await expect.poll(() => frames.length).toBe(2);
      expect(frames[1]?.data).not.toBe(frames[0]?.data);
      await handle.stop();
    } finally {
      await context.close();
    }
  });
});

describe('jpegSize', () => {
  it('reads the size from the start of the base64 alone', () => {
    const header = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x96, 0x00, 0xc8, 0, 0, 0]);
    expect(jpegSize(header.toString('base64'))).toEqual({ width: 200, height: 150 });
  });
});
