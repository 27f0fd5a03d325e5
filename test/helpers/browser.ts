import { type Browser, chromium } from 'playwright-core';

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
