import { StagegraphError } from '../../errors/stagegraph-error.js';
import { matchClientPattern } from './pattern-worker.js';
import type { ExpectKind, Matcher } from './window-driver.js';

/** What an expectation reads before matching: text, a count, or a yes/no state. */
export type MatchedValue = string | number | boolean;

/**
 * Whether `actual` meets `matcher`: the one meaning of a Matcher, whichever transport read the value.
 * Text is tested with equals/contains/regex, counts with equals/min/max, and states are their own answer;
 * `not` inverts the whole test. It also runs in the page (shipped as source), where it tests the regex
 * itself; in the gateway the regex is the client's and is tested off this thread first (`regexHeld`), and
 * its answer passed as `regexHolds`.
 */
export function satisfies(actual: MatchedValue, matcher: Matcher, regexHolds?: boolean): boolean {
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
      (matcher.regex === undefined || (regexHolds ?? new RegExp(matcher.regex).test(actual)));
  }
  return matcher.not ? !holds : holds;
}

/** EXPECTATION_FAILED as every transport words it: what was expected, and the last value seen. */
export function expectationFailed(
  kind: ExpectKind,
  matcher: Matcher,
  actual: MatchedValue,
  timeoutMs: number,
): StagegraphError {
  return new StagegraphError(
    'EXPECTATION_FAILED',
    `Expected ${kind.toLowerCase()} ${describeMatcher(matcher)}; last saw ${JSON.stringify(actual)} after ${timeoutMs} ms.`,
    { details: { kind, actual, matcher } },
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

/** In the gateway: whether the client's regex holds for a text `actual`, tested in the pattern worker. */
export async function regexHeld(actual: MatchedValue, matcher: Matcher): Promise<boolean | undefined> {
  if (matcher.regex === undefined || typeof actual !== 'string') return undefined;
  const [held] = await matchClientPattern(matcher.regex, [actual], 'regex');
  return held;
}
