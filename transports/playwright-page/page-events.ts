import type { Dialog, Page, ConsoleMessage as PlaywrightConsoleMessage } from 'playwright-core';
import type { ConsoleMessage, ConsoleSource, TransportEvent } from '../contract.js';

/**
 * A Playwright console message as the contract carries it. Playwright keeps a handle per argument alive
 * until the page closes (~3 KB per line, measured by test/flood.e2e); only the text is kept, so the handles
 * are released at once, or a chatty page grows memory forever.
 */
export function consoleMessageOf(
  message: PlaywrightConsoleMessage,
  source: ConsoleSource,
  windowId?: string,
): ConsoleMessage {
  for (const arg of message.args()) void arg.dispose().catch(() => undefined);
  const location = message.location();
  return {
    time: new Date(),
    type: message.type(),
    text: message.text(),
    source,
    ...(windowId ? { windowId } : {}),
    ...(location.url ? { location: `${location.url}:${location.lineNumber}:${location.columnNumber}` } : {}),
  };
}

/** An uncaught error of a page, reported as a console entry of type `pageerror`. */
export function pageErrorOf(error: Error, windowId: string): ConsoleMessage {
  return { time: new Date(), type: 'pageerror', text: error.message, source: 'RENDERER', windowId };
}

/**
 * Resolves once the page's first real document is parsed, or after `timeoutMs`: a new window starts on
 * about:blank and navigates to its page right after, so about:blank's own load is not the one that counts.
 */
export async function documentParsed(page: Page, timeoutMs: number): Promise<void> {
  const bound = { timeout: timeoutMs };
  if (page.url() === 'about:blank') {
    await page
      .waitForURL((url) => url.href !== 'about:blank', { ...bound, waitUntil: 'domcontentloaded' })
      .catch(() => undefined);
  } else {
    await page.waitForLoadState('domcontentloaded', bound).catch(() => undefined);
  }
}

/** Where a tracked window's page events go: the session's event stream, its dialog policy, its registry. */
export interface PageEventSink {
  emit(event: TransportEvent): void;
  readonly dialogs: { handle(dialog: Dialog, windowId: string): unknown };
  /** The page closed: drop it from the session's windows. */
  forget(page: Page): void;
}

/** Relays one window's console, JS dialogs, uncaught errors, crash and close, whatever transport reached it. */
export function relayPageEvents(page: Page, id: string, sink: PageEventSink): void {
  page.on('console', (message) =>
    sink.emit({ type: 'console', message: consoleMessageOf(message, 'RENDERER', id) }),
  );
  page.on('dialog', (dialog) => sink.dialogs.handle(dialog, id));
  page.on('pageerror', (error) => sink.emit({ type: 'console', message: pageErrorOf(error, id) }));
  page.on('crash', () => sink.emit({ type: 'renderer-crashed', window: { id, title: '', url: page.url() } }));
  page.once('close', () => {
    const url = page.url();
    sink.forget(page);
    sink.emit({ type: 'window-closed', window: { id, title: '', url } });
  });
}
