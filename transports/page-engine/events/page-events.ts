import type { Dialog, Page } from 'playwright-core';
import type { ConsoleMessage, TransportEvent } from '../../contract/transport-events.js';
import { watchRenderer } from '../renderer/renderer-health.js';
import { feedConsole } from './console-feed.js';

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

/** Where a window's renderer events go: the session's event stream and its dialog policy. */
export interface RendererEventSink {
  emit(event: TransportEvent): void;
  readonly dialogs: { handle(dialog: Dialog, windowId: string): unknown };
}

/** Where a tracked window's page events go when the page is the window: its closing ends the window too. */
export interface PageEventSink extends RendererEventSink {
  /** The page closed: drop it from the session's windows. */
  forget(page: Page): void;
}

/**
 * Relays one window's console, JS dialogs, uncaught errors and crash, whatever transport reached it. The
 * console comes over the page's raw CDP session where it has one that hears events, else through
 * Playwright's events (`feedConsole` decides).
 */
export function relayRendererEvents(page: Page, id: string, sink: RendererEventSink): void {
  watchRenderer(page);
  void feedConsole(page, id, (message: ConsoleMessage) => sink.emit({ type: 'console', message }));
  page.on('dialog', (dialog) => sink.dialogs.handle(dialog, id));
  page.on('pageerror', (error) => sink.emit({ type: 'console', message: pageErrorOf(error, id) }));
  page.on('crash', () => sink.emit({ type: 'renderer-crashed', window: { id, title: '', url: page.url() } }));
}

/** Relays one window's renderer events, and its closing as the window's. */
export function relayPageEvents(page: Page, id: string, sink: PageEventSink): void {
  relayRendererEvents(page, id, sink);
  page.once('close', () => {
    const url = page.url();
    sink.forget(page);
    sink.emit({ type: 'window-closed', window: { id, title: '', url } });
  });
}
