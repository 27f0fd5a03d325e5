import { errors, type Page, type Response } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type {
  LoadState,
  NavigationHistory,
  NavigationResult,
  NavigationTarget,
} from '../../contract/window-driver.js';
import { pageCdpSession } from './page-cdp.js';

/**
 * The contract's load states are Playwright's own, in Playwright's spelling. COMMIT has no wait: the
 * document a page shows has committed by definition.
 */
const PLAYWRIGHT_STATES = {
  DOMCONTENTLOADED: 'domcontentloaded',
  LOAD: 'load',
  NETWORKIDLE: 'networkidle',
} as const satisfies Record<Exclude<LoadState, 'COMMIT'>, string>;

/** Chromium's own words for a navigation that failed before committing: `net::ERR_NAME_NOT_RESOLVED`. */
const NET_ERROR = /net::(ERR_[A-Z_]+)/;
/** A navigation replaced by another (a redirect by script, a second navigate) or a frame that went away. */
const INTERRUPTED = /interrupted by another navigation|NS_BINDING_ABORTED|frame was detached/i;

/**
 * Navigates in two steps, so that a slow page is told apart from a failed one: first until the new
 * document commits (a failure or timeout here means the window still shows the old document), then until
 * it reaches `waitUntil` in what time is left (running out there is `reached: false`, not an error: the
 * navigation happened, and an agent retrying it would load the page twice).
 */
export async function navigatePage(
  page: Page,
  target: NavigationTarget,
  waitUntil: LoadState,
  timeoutMs: number,
): Promise<NavigationResult> {
  const deadline = Date.now() + timeoutMs;
  const commit = { waitUntil: 'commit', timeout: timeoutMs } as const;
  let response: Response | null;
  try {
    response = await (target.kind === 'url'
      ? page.goto(target.url, commit)
      : target.kind === 'reload'
        ? page.reload(commit)
        : target.kind === 'back'
          ? page.goBack(commit)
          : page.goForward(commit));
  } catch (error) {
    if (error instanceof Error && NET_ERROR.test(error.message)) await errorPageCommitted(page, deadline);
    throw navigationError(error, describe(target), timeoutMs);
  }
  const historyStep = target.kind === 'back' || target.kind === 'forward';
  const reached =
    (historyStep && response === null && (await shownDocumentComplete(page))) ||
    (await waitForLoad(page, waitUntil, Math.max(0, deadline - Date.now())));
  return { status: response?.status() ?? null, reached };
}

/**
 * A history step that fetched nothing shows a document that has loaded already: one restored from the
 * back/forward cache (Chromium sends no lifecycle events for it, so a wait for `load` would run to its
 * deadline) or the same document at another entry. Whatever state was asked for, it reached it before it
 * was left, and coming back made no request. False when the page cannot say (it is navigating again).
 */
async function shownDocumentComplete(page: Page): Promise<boolean> {
  return page
    .mainFrame()
    .evaluate(() => document.readyState === 'complete')
    .catch(() => false);
}

/** How long a failed navigation's error page may take to commit before the failure is answered anyway. */
const ERROR_PAGE_COMMIT_MS = 5_000;

/**
 * Chromium answers a navigation's network failure first and commits its error page a moment later: a
 * navigation the agent starts in between is interrupted by that commit. The failure is answered once the
 * error page is in (or after ERROR_PAGE_COMMIT_MS, or the navigation's own deadline), so the next one is not.
 */
async function errorPageCommitted(page: Page, deadline: number): Promise<void> {
  if (page.mainFrame().url().startsWith('chrome-error:')) return;
  const timeout = Math.max(0, Math.min(ERROR_PAGE_COMMIT_MS, deadline - Date.now()));
  await page
    .waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout })
    .catch(() => undefined);
}

/** True once the page's current document has reached `state`; false when `timeoutMs` ran out first. */
export async function waitForLoad(page: Page, state: LoadState, timeoutMs: number): Promise<boolean> {
  if (state === 'COMMIT') return true;
  try {
    await page.waitForLoadState(PLAYWRIGHT_STATES[state], { timeout: timeoutMs });
    return true;
  } catch (error) {
    if (error instanceof errors.TimeoutError) return false;
    throw error;
  }
}

/**
 * The window's session history, from the browser (Page.getNavigationHistory): Playwright only says
 * whether a step back went anywhere after taking it. Null where no raw CDP session opens.
 */
export async function pageHistory(page: Page): Promise<NavigationHistory | null> {
  const cdp = await pageCdpSession(page);
  if (!cdp) return null;
  try {
    const { currentIndex, entries } = await cdp.send('Page.getNavigationHistory');
    return { urls: entries.map((entry) => entry.url), index: currentIndex };
  } catch {
    return null;
  }
}

function navigationError(error: unknown, what: string, timeoutMs: number): unknown {
  if (error instanceof errors.TimeoutError) {
    return new StagegraphError(
      'NAVIGATION_TIMEOUT',
      `${what}: no new document committed within ${timeoutMs} ms.`,
      { details: { timeoutMs }, cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  const net = NET_ERROR.exec(message)?.[1];
  if (net !== undefined || INTERRUPTED.test(message)) {
    const reason = net ?? 'interrupted';
    return new StagegraphError('NAVIGATION_FAILED', `${what} failed: ${reason}.`, {
      details: { error: reason },
      cause: error,
    });
  }
  return error;
}

function describe(target: NavigationTarget): string {
  return target.kind === 'url' ? `Navigating to ${target.url}` : `Navigating ${target.kind}`;
}
