import type { ElementHandle, Locator, Page } from 'playwright-core';
import { causeChain } from '../../../errors/cause-chain.js';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { describeSpec, type TargetQuery, type TargetSpec } from '../../contract/window-driver.js';
import { ambiguousTarget } from './ambiguity.js';
import { resolveRole } from './role-target.js';

/** A timeout this short means "resolve against the page as it is now, without waiting". */
export const NOW_MS = 1;

export type Scope = Page | Locator;
/** The element an action works on: a locator for queries, a handle for walker keys. */
export type Resolved = Locator | ElementHandle<Element>;

/** Finds the element a key stands for, through the page global the snapshot walker maintains. */
export type KeyResolver = (
  page: Page,
  spec: Extract<TargetSpec, { kind: 'key' }>,
) => Promise<ElementHandle<Element> | null>;

function locatorFor(scope: Scope, spec: Exclude<TargetSpec, { kind: 'key' | 'role' }>): Locator {
  switch (spec.kind) {
    case 'selector':
      return scope.locator(spec.selector);
    case 'testId':
      return scope.getByTestId(spec.testId);
    case 'text':
      return scope.getByText(spec.text, { exact: spec.exact ?? false });
  }
}

/**
 * The locator of a query that names its element by selector, test id or text from the top of the page
 * (no `within`), `nth` applied; null for refs, roles and scoped queries. Nothing is resolved or waited for.
 */
export function directLocator(page: Page, query: TargetQuery): Locator | null {
  const { spec } = query;
  if (query.within || spec.kind === 'key' || spec.kind === 'role') return null;
  const locator = locatorFor(page, spec);
  return query.nth === undefined ? locator : locator.nth(query.nth);
}

/** The ref of a query that is a ref alone (no `within`, no `nth`), whose key names one element by itself. */
export function refAlone(query: TargetQuery): Extract<TargetSpec, { kind: 'key' }> | null {
  const { spec } = query;
  return spec.kind === 'key' && !query.within && query.nth === undefined ? spec : null;
}

/**
 * Resolves a target to exactly one element, waiting (bounded) for it to appear. No match is
 * SELECTOR_NO_MATCH, several without `nth` is AMBIGUOUS_TARGET listing them; a key whose element is
 * gone is REF_STALE.
 */
export async function resolveTarget(
  page: Page,
  query: TargetQuery,
  timeoutMs: number,
  keyResolver: KeyResolver,
): Promise<Resolved> {
  const scope: Scope = query.within ? await scopeFor(page, query.within, timeoutMs, keyResolver) : page;
  const { spec } = query;
  if (spec.kind === 'key') {
    const handle = await keyResolver(page, spec);
    if (!handle) {
      throw new StagegraphError('REF_STALE', `The element of ref ${spec.ref} is no longer in the document.`);
    }
    return handle;
  }
  // Roles and names resolve through the snapshot walker, not Playwright's getByRole: a name the snapshot
  // shows is then a name that finds its element (role-target.ts says why).
  if (spec.kind === 'role') {
    const root = scope === page ? null : await (scope as Locator).elementHandle({ timeout: timeoutMs });
    return resolveRole(page, spec, root, query.nth, timeoutMs, describeSpec(spec));
  }
  const locator = locatorFor(scope, spec);
  // Counted first: a target already on the page (the usual case) costs one round trip, where a wait for it
  // costs two before the count that ambiguity needs anyway. "As it is now" never waits.
  let count = await locator.count().catch((error: unknown) => {
    throw unparsableSelector(error, spec);
  });
  if (count === 0 && timeoutMs > NOW_MS) {
    const appeared = await locator
      .first()
      .waitFor({ state: 'attached', timeout: timeoutMs })
      .then(() => true)
      .catch(() => false);
    if (appeared) count = query.nth === undefined ? await locator.count() : 1;
  }
  if (count === 0) throw noMatch(spec);
  if (query.nth !== undefined) return locator.nth(query.nth);
  if (count > 1) throw await ambiguousTarget(page, locator, spec, count, describeSpec(spec));
  return locator;
}

/** Playwright's words for a selector it cannot parse ("Unexpected token", "Unknown engine"). */
const UNPARSABLE_SELECTOR = /while parsing (?:css )?selector|Failed to parse selector|Unknown engine/;

/** A selector Playwright cannot parse is the caller's to correct: SELECTOR_SYNTAX, with Playwright's reason. */
function unparsableSelector(error: unknown, spec: TargetSpec): unknown {
  if (!(error instanceof Error) || !UNPARSABLE_SELECTOR.test(error.message)) return error;
  const reason = error.message.split('\n')[0]?.replace(/^locator\.count: /, '');
  return new StagegraphError(
    'SELECTOR_SYNTAX',
    `${describeSpec(spec)} is not a selector Playwright can parse: ${reason}`,
    {
      details: { target: spec },
      cause: error,
    },
  );
}

function noMatch(spec: TargetSpec): StagegraphError {
  return new StagegraphError('SELECTOR_NO_MATCH', `No element matches ${describeSpec(spec)}.`, {
    details: { target: spec },
  });
}

/**
 * What an action's failure on a direct locator (see `directLocator`) says of its target, asked only once it
 * failed: the action itself waited for one element, strictly. Timed out with nothing matching is
 * SELECTOR_NO_MATCH; refused for matching several is AMBIGUOUS_TARGET listing them, as resolveTarget's
 * count before an action would have said; anything else is the action's own failure.
 */
export async function locatorFailure(page: Page, locator: Locator, query: TargetQuery, error: unknown) {
  const timedOut = error instanceof StagegraphError && error.code === 'ACTION_TIMEOUT';
  const strict = causeChain(error).some((cause) => cause.message.includes('strict mode violation'));
  if (!timedOut && !strict) return error;
  const count = await locator.count().catch(() => null);
  if (timedOut && count === 0) return noMatch(query.spec);
  if (strict && count !== null && count > 1)
    return ambiguousTarget(page, locator, query.spec, count, describeSpec(query.spec));
  return error;
}

async function scopeFor(
  page: Page,
  within: TargetQuery,
  timeoutMs: number,
  keyResolver: KeyResolver,
): Promise<Scope> {
  const resolved = await resolveTarget(page, within, timeoutMs, keyResolver);
  if (!isHandle(resolved)) return resolved;
  // Locators cannot hang off an element handle, so scope by the element's structural path. It stops at a
  // shadow root: a ref inside shadow DOM scopes to its shadow host's light-DOM path.
  const path = await resolved.evaluate((element) => {
    const steps: string[] = [];
    for (let node: Element | null = element; node?.parentElement; node = node.parentElement) {
      const same = [...node.parentElement.children].filter((child) => child.tagName === node?.tagName);
      steps.unshift(`${node.tagName.toLowerCase()}:nth-of-type(${same.indexOf(node) + 1})`);
    }
    return `:root > ${steps.join(' > ')}`;
  });
  return page.locator(path);
}

export function isHandle(resolved: Resolved): resolved is ElementHandle<Element> {
  return typeof (resolved as ElementHandle).asElement === 'function';
}
