import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { withDeadline } from '../../protocol/deadline.js';
import { pageCdpSession } from '../page/page-cdp.js';

/**
 * How long a page's session may take to open and enable a domain before the page falls back to
 * Playwright's own machinery: a relay that never answers must not hold arming or stubbing up forever.
 */
const FOLLOW_PAGE_TIMEOUT_MS = 5_000;

/**
 * The pages of one context as a network feature follows them: those open when it starts and those that open
 * later, until it stops. Starting, stopping and following a page run one step at a time, so a domain is
 * enabled and disabled on each page in the order they were asked for.
 */
export class PageFollowing {
  readonly #context: BrowserContext;
  #lifecycle: Promise<void> = Promise.resolve();
  #listening = false;
  readonly #onPage: (page: Page) => void;

  constructor(context: BrowserContext, follow: (page: Page) => Promise<void>) {
    this.#context = context;
    this.#onPage = (page) => void this.serially(() => follow(page));
  }

  serially(step: () => Promise<void>): Promise<void> {
    const next = this.#lifecycle.then(step);
    this.#lifecycle = next.catch(() => undefined);
    return next;
  }

  /** Follows the pages that open from now on, and returns those open now. */
  listen(): Page[] {
    if (!this.#listening) this.#context.on('page', this.#onPage);
    this.#listening = true;
    return this.#context.pages();
  }

  stopListening(): void {
    if (this.#listening) this.#context.off('page', this.#onPage);
    this.#listening = false;
  }
}

/** The page's shared raw CDP session, or null when it has none or it did not open in time. */
export function followedPageSession(page: Page): Promise<CDPSession | null> {
  return withinFollowDeadline(pageCdpSession(page)).catch(() => null);
}

/** Whether enabling a domain on a followed page's session succeeded in time. */
export function enabledInTime(enabling: Promise<void>): Promise<boolean> {
  return withinFollowDeadline(enabling).then(
    () => true,
    () => false,
  );
}

function withinFollowDeadline<T>(promise: Promise<T>): Promise<T> {
  return withDeadline(
    promise,
    FOLLOW_PAGE_TIMEOUT_MS,
    () => new Error(`no raw CDP session answering within ${FOLLOW_PAGE_TIMEOUT_MS} ms`),
  );
}
