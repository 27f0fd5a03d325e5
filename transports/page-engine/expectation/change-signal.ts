/// <reference lib="dom" />
import type { Page } from 'playwright-core';

/**
 * An in-page change counter: every DOM mutation and every input/change/navigation event bumps it. A waiter
 * passes the count it last saw and returns as soon as it moves, so "wait for the page to change" is driven
 * by the page's own events and never misses a change that happened between a read and the wait.
 */
function changeCounterInPage(args: { after: number | null; timeoutMs: number }): Promise<number> {
  type Signal = {
    count: number;
    listeners: Set<() => void>;
    root: Element | null;
    observer: MutationObserver;
  };
  const host = window as unknown as { __stagegraphChanges?: Signal };
  let signal = host.__stagegraphChanges;
  // document.open() (document.write, Playwright's setContent) strips every event listener but keeps the
  // window, so a counter from before it would be deaf: its root element tells whether it is still wired.
  if (!signal || signal.root !== document.documentElement) {
    signal?.observer.disconnect();
    const bump = () => {
      created.count += 1;
      for (const listener of created.listeners) listener();
    };
    const created: Signal = {
      count: (signal?.count ?? 0) + 1,
      listeners: signal?.listeners ?? new Set(),
      root: document.documentElement,
      observer: new MutationObserver(bump),
    };
    created.observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    for (const type of ['input', 'change', 'hashchange', 'popstate', 'load'])
      addEventListener(type, bump, true);
    (window as unknown as { navigation?: EventTarget }).navigation?.addEventListener('navigatesuccess', bump);
    host.__stagegraphChanges = created;
    signal = created;
  }
  const current = signal;
  if (args.after === null || current.count !== args.after) return Promise.resolve(current.count);
  return new Promise((resolve) => {
    const done = () => {
      current.listeners.delete(done);
      clearTimeout(timer);
      resolve(current.count);
    };
    const timer = setTimeout(done, args.timeoutMs);
    current.listeners.add(done);
  });
}

/**
 * One call of the counter, as an expression: the counter defines functions of its own, which tsx (the
 * served gateway's compiler, esbuild with keepNames) wraps in a `__name(...)` helper that exists only in
 * Node, so `__name` is shadowed as in the snapshot engine's installer.
 */
function counterCall(args: { after: number | null; timeoutMs: number }): string {
  return `(() => { const __name = (target) => target; return (${changeCounterInPage})(${JSON.stringify(args)}); })()`;
}

/** The current change count, installing the counter in this document if it is not there yet. */
export function changeCount(page: Page): Promise<number> {
  return page.evaluate(counterCall({ after: null, timeoutMs: 0 })) as Promise<number>;
}

/**
 * Resolves with the new count once the page has changed since `after`, or after `timeoutMs`. A navigation
 * replaces the document (and its counter), which counts as a change.
 */
export async function nextChange(page: Page, after: number, timeoutMs: number): Promise<number> {
  try {
    return (await page.evaluate(counterCall({ after, timeoutMs }))) as number;
  } catch {
    return -1;
  }
}
