import type { Page } from 'playwright-core';
import { expectationFailed, type MatchedValue, regexHeld, satisfies } from '../../contract/matcher.js';
import type { ExpectationResult, ExpectKind, Matcher, TargetQuery } from '../../contract/window-driver.js';
import type { Resolved } from '../targets/target-resolution.js';
import { changeCount, nextChange } from './change-signal.js';
import { waitInPage } from './expectation-waiter.js';

export interface Expectation {
  readonly kind: ExpectKind;
  readonly matcher: Matcher;
  /** How to (re)find the element or elements; absent for URL and TITLE. Null when nothing matches now. */
  readonly find?: () => Promise<{ element: Resolved | null; count: number }>;
  /**
   * The target `find` resolves, for the wait inside the page; absent for URL and TITLE. An expectation
   * with `find` but no `target` is waited for from the gateway only.
   */
  readonly target?: TargetQuery;
}

async function readActual(page: Page, expectation: Expectation): Promise<MatchedValue> {
  if (expectation.kind === 'URL') return page.url();
  if (expectation.kind === 'TITLE') return page.title();
  const found = (await expectation.find?.()) ?? { element: null, count: 0 };
  const { element } = found;
  switch (expectation.kind) {
    case 'COUNT':
      return found.count;
    case 'VISIBLE':
      return element ? element.isVisible() : false;
    case 'HIDDEN':
      return element ? element.isHidden() : true;
    case 'ENABLED':
      return element ? element.isEnabled() : false;
    case 'DISABLED':
      return element ? element.isDisabled() : false;
    case 'CHECKED':
      return element ? element.isChecked() : false;
    case 'TEXT':
      return element ? element.innerText() : '';
    case 'VALUE':
      return element ? element.inputValue() : '';
  }
}

/**
 * Waits until the expectation holds, bounded by `timeoutMs`; fails with EXPECTATION_FAILED carrying the
 * last actual value. The wait runs inside the page where it can (expectation-waiter.ts: one round trip,
 * the condition checked as the page changes), else from the gateway (waitFromGateway).
 */
export async function waitForExpectation(
  page: Page,
  expectation: Expectation,
  timeoutMs: number,
): Promise<ExpectationResult> {
  const started = Date.now();
  if (expectation.target || !expectation.find) {
    const inPage = await waitInPage(page, expectation, timeoutMs);
    if (inPage.state === 'held') return { actual: String(inPage.actual), elapsedMs: Date.now() - started };
    if (inPage.state === 'ended')
      throw expectationFailed(expectation.kind, expectation.matcher, inPage.actual, timeoutMs);
  }
  return waitFromGateway(page, expectation, timeoutMs, started);
}

/**
 * The wait from the gateway, for what the page cannot wait on itself: re-reads through Playwright only
 * when the page reports a change (no polling interval) until `started` + `timeoutMs`.
 */
async function waitFromGateway(
  page: Page,
  expectation: Expectation,
  timeoutMs: number,
  started: number,
): Promise<ExpectationResult> {
  let seen = await changeCount(page).catch(() => -1);
  let actual: MatchedValue = '';
  for (;;) {
    actual = await readActual(page, expectation).catch(() => actual);
    if (satisfies(actual, expectation.matcher, await regexHeld(actual, expectation.matcher)))
      return { actual: String(actual), elapsedMs: Date.now() - started };
    const remaining = timeoutMs - (Date.now() - started);
    if (remaining <= 0) break;
    if (seen < 0) {
      // The document was being replaced; wait for the new one rather than spinning on a dead context.
      await page.waitForLoadState('domcontentloaded', { timeout: remaining }).catch(() => undefined);
      seen = await changeCount(page).catch(() => -1);
    } else {
      seen = await nextChange(page, seen, remaining);
    }
  }
  throw expectationFailed(expectation.kind, expectation.matcher, actual, timeoutMs);
}
