/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { CHECKABLE_ROLES } from '../../contract/aria-roles.js';
import { type MatchedValue, satisfies } from '../../contract/matcher.js';
import type { ExpectKind, Matcher, TargetQuery } from '../../contract/window-driver.js';
import { ENGINE_GLOBAL, installEngine } from '../snapshot/install.js';
import { matchInPage } from '../targets/role-target.js';
import { createElementReads } from './element-reads-in-page.js';
import {
  createExpectationWaiter,
  type ExpectationWaiter,
  type InPageOutcome,
  type InPageWait,
} from './expectation-in-page.js';

/** The page global holding the expectation waiter; one per document. */
const WAITER_GLOBAL = '__stagegraphExpect';

/**
 * The waiter's installer, from its factory's own source and the sources of what it calls (the role match
 * of role-target.ts and the contract's `satisfies`, so both mean here what they mean in the gateway).
 * `__name` is shadowed as in the snapshot engine's installer (esbuild's keepNames).
 */
const INSTALLER = `(() => {
  const __name = (target) => target;
  const engine = ${JSON.stringify(ENGINE_GLOBAL)};
  const reads = (${createElementReads})(engine, ${JSON.stringify([...CHECKABLE_ROLES])});
  const waiter = (${createExpectationWaiter})(engine, ${matchInPage}, ${satisfies}, reads);
  Object.defineProperty(window, ${JSON.stringify(WAITER_GLOBAL)}, { value: waiter, configurable: true, writable: true });
})()`;

/** How long past its deadline an in-page wait ends on its own, should the gateway never come back to it. */
const SAFETY_MS = 5_000;
/** Installs in one document before the page counts as unable to keep an engine. */
const INSTALL_TRIES = 3;
/** Playwright's messages for an evaluation whose document went away under it. */
const DOCUMENT_REPLACED = /Execution context was destroyed|Cannot find context with specified id/;

export interface InPageRequest {
  readonly kind: ExpectKind;
  readonly matcher: Matcher;
  readonly target?: TargetQuery | undefined;
}

/** How an in-page wait ended, for the caller to turn into a result, a failure, or a wait of its own. */
export type InPageResult =
  | { readonly state: 'held' | 'ended'; readonly actual: MatchedValue }
  | { readonly state: 'fallback'; readonly reason: string };

let nextWaitId = 1;

function usesTextTarget(query: TargetQuery | undefined): boolean {
  return query !== undefined && (query.spec.kind === 'text' || usesTextTarget(query.within));
}

function armInPage(args: {
  global: string;
  engineGlobal: string;
  wait: InPageWait;
}): Promise<InPageOutcome> | InPageOutcome {
  const host = window as unknown as Record<string, { root: Element | null } | undefined>;
  const waiter = host[args.global] as ExpectationWaiter | undefined;
  if (!waiter || waiter.root !== document.documentElement) {
    const engine = host[args.engineGlobal];
    return { state: 'install', waiter: true, engine: !engine || engine.root !== document.documentElement };
  }
  return waiter.wait(args.wait);
}

function finishInPage(args: { global: string; id: number }): boolean {
  const waiter = (window as unknown as Record<string, ExpectationWaiter | undefined>)[args.global];
  return waiter?.finish(args.id) ?? false;
}

/**
 * One wait in the current document: a single evaluation that resolves when the condition holds. At the
 * deadline the gateway asks the page to end it, which answers the same evaluation with the last value (a
 * page timer could be a fake clock's, paused; the gateway's is not).
 */
async function armOnce(page: Page, request: InPageRequest, timeoutMs: number): Promise<InPageOutcome> {
  const id = nextWaitId;
  nextWaitId += 1;
  const wait: InPageWait = {
    id,
    kind: request.kind,
    matcher: request.matcher,
    target: request.target ?? null,
    safetyMs: timeoutMs + SAFETY_MS,
  };
  const waiting = page.evaluate(armInPage, { global: WAITER_GLOBAL, engineGlobal: ENGINE_GLOBAL, wait });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), timeoutMs);
  });
  try {
    const first = await Promise.race([waiting, deadline]);
    if (first !== 'deadline') return first;
  } finally {
    clearTimeout(timer);
  }
  page.evaluate(finishInPage, { global: WAITER_GLOBAL, id }).catch(() => undefined);
  return waiting;
}

/**
 * Waits for an expectation inside the page: one evaluation per document, the condition checked where the
 * change happens (expectation-in-page.ts). A document replaced mid-wait (a navigation, a reload) is waited
 * for and the wait armed again in the new one, with the time left. `fallback` when the target needs
 * Playwright's own engine (text targets, Playwright selector syntax, elements inside frames) or the page
 * would not keep the engine: the caller then waits its own way for the time left.
 */
export async function waitInPage(
  page: Page,
  request: InPageRequest,
  timeoutMs: number,
): Promise<InPageResult> {
  if (usesTextTarget(request.target)) return { state: 'fallback', reason: 'a text target' };
  const started = Date.now();
  let installs = 0;
  let lateReplacements = 0;
  for (;;) {
    const remaining = Math.max(0, timeoutMs - (Date.now() - started));
    let outcome: InPageOutcome | 'replaced';
    try {
      outcome = await armOnce(page, request, remaining);
    } catch (error) {
      if (!(error instanceof Error && DOCUMENT_REPLACED.test(error.message))) throw error;
      outcome = 'replaced';
    }
    if (outcome === 'replaced') {
      // The new document is waited for (bounded by the time left), then armed once more even at the
      // deadline, so a failure reports the new document's value.
      const left = timeoutMs - (Date.now() - started);
      if (left > 0) await page.waitForLoadState('domcontentloaded', { timeout: left }).catch(() => undefined);
      else if (++lateReplacements > INSTALL_TRIES) return { state: 'ended', actual: '' };
      continue;
    }
    if (outcome.state !== 'install') return outcome;
    installs += 1;
    if (installs > INSTALL_TRIES) return { state: 'fallback', reason: 'the page did not keep the engine' };
    try {
      // A new engine would hand out new keys: the one there stays, or a ref's key would go stale.
      if (outcome.engine) await installEngine(page);
      if (outcome.waiter) await page.evaluate(INSTALLER);
    } catch (error) {
      if (!(error instanceof Error && DOCUMENT_REPLACED.test(error.message))) throw error;
    }
  }
}
