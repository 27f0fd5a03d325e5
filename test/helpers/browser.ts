import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = process.env.STAGEGRAPH_CHROMIUM ?? '/usr/bin/chromium';

/** The flags this machine needs (no sandbox as root, no background network), for any Chromium a test starts. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Playwright's own default for a call given no timeout (30 s) is a quiet machine's figure: a loaded one (load 15
 * on 2 cores) took longer to load GraphiQL. Pages tests open wait this long instead, as a safety net only.
 */
export const PAGE_SAFETY_NET_MS = 180_000;

/** A new page of `browser` whose calls without a timeout of their own wait PAGE_SAFETY_NET_MS. */
export async function newTestPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(PAGE_SAFETY_NET_MS);
  return page;
}

/** A headless Debian Chromium with those flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
}

/**
 * One headless Chromium and page for a whole test file: opened before its tests, closed after them.
 * `use` receives the page (a file keeps it in its own `let page`), so tests read it like any variable.
 */
export function useSharedPage(use: (page: Page) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    use(await newTestPage(browser));
  });
  afterAll(() => browser?.close());
}
