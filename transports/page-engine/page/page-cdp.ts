import type { BrowserContext, CDPSession, Page } from 'playwright-core';

const sessions = new WeakMap<Page, Promise<CDPSession | null>>();
const deafContexts = new WeakSet<BrowserContext>();

/**
 * One raw CDP session per page, shared by the feeds that read the renderer at protocol level (console,
 * network): their events arrive as plain protocol objects, without the per-event handles and wrappers
 * Playwright's own page events build. Null when the page's connection cannot open another session (the
 * page closed, or a relay that offers only one), or cannot give it events of its own (`rawSessionsAreDeaf`),
 * so callers fall back to Playwright's events.
 */
export function pageCdpSession(page: Page): Promise<CDPSession | null> {
  if (deafContexts.has(page.context())) return Promise.resolve(null);
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

/**
 * Declares that extra sessions on this context's pages send commands but hear no events: the inject relay
 * carries every session of a window over one `webContents.debugger` and hands the page's events to
 * Playwright's own session only. A raw feed there would enable a domain and then wait forever, silently.
 */
export function rawSessionsAreDeaf(context: BrowserContext): void {
  deafContexts.add(context);
}

/** Whether extra sessions on this context's pages hear events (false behind the inject relay). */
export function rawSessionsHear(context: BrowserContext): boolean {
  return !deafContexts.has(context);
}
