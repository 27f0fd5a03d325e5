import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/helpers/browser.js';
import { imageSize } from './image-size.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('imageSize', () => {
  it('reads PNG and JPEG screenshots Chromium made', async () => {
    const page = await browser.newPage({ viewport: { width: 321, height: 123 } });
    expect(imageSize(await page.screenshot({ type: 'png' }))).toEqual({ width: 321, height: 123 });
    expect(imageSize(await page.screenshot({ type: 'jpeg', quality: 50 }))).toEqual({
      width: 321,
      height: 123,
    });
    await page.close();
  });

  it('refuses anything else', () => {
    expect(() => imageSize(Buffer.from('GIF89a....................'))).toThrow(/not a PNG or JPEG/);
  });
});
