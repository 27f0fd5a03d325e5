import type { CDPSession, Page } from 'playwright-core';

const sessions = new WeakMap<Page, Promise<CDPSession | null>>();

/**
 * One raw CDP session per page, shared by the feeds that read the renderer at protocol level (console,
 * network): their events arrive as plain protocol objects, without the per-event handles and wrappers
 * Playwright's own page events build. Null when the page's connection cannot open another session (the
 * page closed, or a relay that offers only one), so callers fall back to Playwright's events.
 */
export function pageCdpSession(page: Page): Promise<CDPSession | null> {
  let session = sessions.get(page);
  if (!session) {
    session = page
      .context()
      .newCDPSession(page)
      .catch(() => null);
    sessions.set(page, session);
  }
  return session;
}
