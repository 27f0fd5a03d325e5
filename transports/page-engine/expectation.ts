import type { Page } from 'playwright-core';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ExpectationResult, ExpectKind, Matcher } from '../contract/window-driver.js';
import { changeCount, nextChange } from './change-signal.js';
import type { Resolved } from './target.js';

export interface Expectation {
  readonly kind: ExpectKind;
  readonly matcher: Matcher;
  /** How to (re)find the element or elements; absent for URL and TITLE. Null when nothing matches now. */
  readonly find?: () => Promise<{ element: Resolved | null; count: number }>;
}

type Actual = string | number | boolean;

async function readActual(page: Page, expectation: Expectation): Promise<Actual> {
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

export function satisfies(actual: Actual, matcher: Matcher): boolean {
  let holds: boolean;
  if (typeof actual === 'boolean') holds = actual;
  else if (typeof actual === 'number') {
    holds =
      (matcher.equals === undefined || actual === Number(matcher.equals)) &&
      (matcher.min === undefined || actual >= matcher.min) &&
      (matcher.max === undefined || actual <= matcher.max);
  } else {
    holds =
      (matcher.equals === undefined || actual === matcher.equals) &&
      (matcher.contains === undefined || actual.includes(matcher.contains)) &&
      (matcher.regex === undefined || new RegExp(matcher.regex).test(actual));
  }
  return matcher.not ? !holds : holds;
}

/**
 * Waits until the expectation holds, re-reading only when the page reports a change (no polling
 * interval), bounded by `timeoutMs`. Fails with EXPECTATION_FAILED carrying the last actual value.
 */
export async function waitForExpectation(
  page: Page,
  expectation: Expectation,
  timeoutMs: number,
): Promise<ExpectationResult> {
  const started = Date.now();
  let seen = await changeCount(page).catch(() => -1);
  let actual: Actual = '';
  for (;;) {
    actual = await readActual(page, expectation).catch(() => actual);
    if (satisfies(actual, expectation.matcher))
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
  throw new StagegraphError(
    'EXPECTATION_FAILED',
    `Expected ${expectation.kind.toLowerCase()} ${describeMatcher(expectation.matcher)}; last saw ${JSON.stringify(actual)} after ${timeoutMs} ms.`,
    { details: { kind: expectation.kind, actual, matcher: expectation.matcher } },
  );
}

function describeMatcher(matcher: Matcher): string {
  const parts = [
    matcher.equals !== undefined ? `= ${JSON.stringify(matcher.equals)}` : '',
    matcher.contains !== undefined ? `containing ${JSON.stringify(matcher.contains)}` : '',
    matcher.regex !== undefined ? `matching /${matcher.regex}/` : '',
    matcher.min !== undefined ? `>= ${matcher.min}` : '',
    matcher.max !== undefined ? `<= ${matcher.max}` : '',
  ].filter(Boolean);
  return `${matcher.not ? 'not ' : ''}${parts.join(' and ') || 'to hold'}`;
}
