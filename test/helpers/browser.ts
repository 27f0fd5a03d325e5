import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = process.env.STAGEGRAPH_CHROMIUM ?? '/usr/bin/chromium';

/** A headless Debian Chromium with the flags this machine needs (no sandbox as root, no background network). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * One headless Chromium and page for a whole test file: opened before its tests, closed after them.
 * `use` receives the page (a file keeps it in its own `let page`), so tests read it like any variable.
 */
export function useSharedPage(use: (page: Page) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    use(await browser.newPage());
  });
  afterAll(() => browser?.close());
}
