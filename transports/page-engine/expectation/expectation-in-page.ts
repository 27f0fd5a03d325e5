/// <reference lib="dom" />
import type { MatchedValue } from '../../contract/matcher.js';
import type { ExpectKind, Matcher, TargetQuery } from '../../contract/window-driver.js';
import type { Engine } from '../snapshot/install.js';
import type { matchInPage } from '../targets/role-target.js';
import type { ElementReads } from './element-reads-in-page.js';

/** What one in-page wait answers: the condition held, the wait ended without it, or it cannot be waited here. */
export type InPageOutcome =
  | { readonly state: 'held' | 'ended'; readonly actual: MatchedValue }
  /** The target needs what only Playwright's own engine has (text targets, its selector syntax, frames). */
  | { readonly state: 'fallback'; readonly reason: string }
  /** This document lacks the snapshot engine or the waiter (or both): install what it lacks, arm again. */
  | { readonly state: 'install'; readonly engine: boolean; readonly waiter: boolean };

export interface InPageWait {
  readonly id: number;
  readonly kind: ExpectKind;
  readonly matcher: Matcher;
  readonly target: TargetQuery | null;
  /** When the wait ends on its own, should the gateway never come back to end it (it normally does). */
  readonly safetyMs: number;
}

/** role-target.ts's in-page match: the walker's own nodes of a role, compared by the names it shows. */
export type RoleMatch = typeof matchInPage;

/**
 * In-page: waits for an expectation where the change happens. The target is resolved here (a key through
 * the snapshot engine's registry, a role and name through the walker's own match, a test id or CSS selector
 * through the DOM, open shadow roots pierced as Playwright's locators pierce them), its value is read with
 * the semantics of the Playwright call the gateway made before (innerText, inputValue, isVisible, isEnabled,
 * isChecked — ported from Playwright 1.65's injected script), and the matcher is the contract's own
 * `satisfies`. The check runs again on every batch of mutation records (the document's and every open
 * shadow root's), on input/change/focus/navigation events, on CSS transitions and animations ending, and
 * every TICK_MS for changes nothing announces (closed shadow roots, iframes, media queries, a running
 * animation's visibility). A check that costs more (a role walk of a big page) is spaced so that checks
 * take at most about a quarter of the page's time. A self-contained factory: its source is shipped into
 * the page whole, dependencies arrive as arguments.
 */
export function createExpectationWaiter(
  engineGlobal: string,
  matchRole: RoleMatch,
  satisfies: (actual: MatchedValue, matcher: Matcher) => boolean,
  reads: ElementReads,
) {
  const TICK_MS = 500;
  /** A check that took c ms is followed by the next one no sooner than COST_SPACING × c ms later. */
  const COST_SPACING = 3;

  interface Found {
    readonly element: Element | null;
    readonly count: number;
    /** A locator's nth past the end: Playwright fails every read of it but visibility. */
    readonly pastEnd?: boolean;
  }
  const NONE: Found = { element: null, count: 0 };
  /** Thrown (never escaping the waiter) when this document cannot answer for the target. */
  class Unsupported {
    constructor(readonly reason: string) {}
  }
  class NoEngine {}

  const waits = new Map<number, () => void>();

  function currentEngine(): Engine {
    const engine = (window as unknown as Record<string, Engine | undefined>)[engineGlobal];
    if (!engine || engine.root !== document.documentElement) throw new NoEngine();
    return engine;
  }

  // --- Targets, as PageDriver's findNow resolves them "as the page is now" ---------------------------

  /** Every open shadow host in the document, its shadow content included. */
  function shadowHosts(root: ParentNode, into: Set<Element>): void {
    for (const element of root.querySelectorAll('*')) {
      if (!element.shadowRoot) continue;
      into.add(element);
      shadowHosts(element.shadowRoot, into);
    }
  }

  /** Below `root` in the flat tree (through shadow hosts), `root` itself excluded. */
  function isBelow(node: Element, root: Element | Document): boolean {
    for (let at: Node | null = node; at; ) {
      const up: Node | null = at.parentNode;
      if (!up) return false;
      if (up === root) return true;
      at = up.nodeType === 11 ? (up as ShadowRoot).host : up;
    }
    return false;
  }

  /** Playwright pierces open shadow roots; a combinator across a shadow boundary only its engine can match. */
  function queryDeep(root: Element | Document, css: string, hosts: Set<Element>): Element[] {
    const relevant = [...hosts].filter((host) => host.isConnected && isBelow(host, root));
    if (relevant.length === 0) return [...root.querySelectorAll(css)];
    if (/[\s>+~]/.test(css.replace(/\[[^\]]*\]|\([^)]*\)|"[^"]*"|'[^']*'/g, '').trim()))
      throw new Unsupported('a selector with combinators in a document with shadow roots');
    const out: Element[] = [];
    const visit = (at: ParentNode) => {
      const matched = new Set(at.querySelectorAll(css));
      for (const element of at.querySelectorAll('*')) {
        if (matched.has(element)) out.push(element);
        if (element.shadowRoot) visit(element.shadowRoot);
      }
    };
    visit(root);
    return out;
  }

  function inThisDocument(element: Element | null): Element | null {
    if (element && element.ownerDocument !== document) throw new Unsupported('a target inside a frame');
    return element;
  }

  function resolve(query: TargetQuery, hosts: Set<Element>): Found {
    let scope: Element | null = null;
    if (query.within) {
      const outer = resolve(query.within, hosts);
      // findNow reports the count of whichever step was ambiguous.
      if (!outer.element) return { element: null, count: outer.count > 1 ? outer.count : 0 };
      scope = outer.element;
    }
    const { spec, nth } = query;
    switch (spec.kind) {
      case 'key': {
        const { walker } = currentEngine();
        if (walker.documentId !== spec.documentId) return NONE;
        const element = inThisDocument(walker.elementFor(spec.key));
        return element ? { element, count: 1 } : NONE;
      }
      case 'role': {
        const matches = matchRole({
          root: scope,
          global: engineGlobal,
          role: spec.role,
          name: spec.name ?? null,
          exact: spec.exact ?? true,
          limit: 0,
        });
        if (matches === undefined) throw new NoEngine();
        if (!matches) return NONE;
        const { keys } = matches;
        if (keys.length > 1 && nth === undefined) return { element: null, count: keys.length };
        const key = keys[nth ?? 0];
        const element = key === undefined ? null : inThisDocument(currentEngine().walker.elementFor(key));
        return element ? { element, count: 1 } : NONE;
      }
      case 'selector':
      case 'testId': {
        const css =
          spec.kind === 'testId' ? `[data-testid="${CSS.escape(spec.testId)}"]` : (spec.selector as string);
        try {
          document.createDocumentFragment().querySelector(css);
        } catch {
          throw new Unsupported('a selector in Playwright syntax');
        }
        const matches = queryDeep(scope ?? document, css, hosts);
        if (matches.length === 0) return NONE;
        // A locator's nth is taken as given: it counts as one match even past the end.
        if (nth !== undefined) {
          const element = matches[nth];
          return element ? { element, count: 1 } : { element: null, count: 1, pastEnd: true };
        }
        if (matches.length > 1) return { element: null, count: matches.length };
        return { element: matches[0] as Element, count: 1 };
      }
      default:
        throw new Unsupported(`a ${spec.kind} target`);
    }
  }

  function read(kind: ExpectKind, found: Found): MatchedValue | typeof reads.FAILED {
    if (kind === 'URL') return location.href;
    if (kind === 'TITLE') return document.title;
    if (kind === 'COUNT') return found.count;
    return reads.read(kind, found.element, found.pastEnd === true);
  }

  // --- The wait ------------------------------------------------------------------------------------

  function wait(args: InPageWait): Promise<InPageOutcome> {
    try {
      currentEngine();
    } catch {
      return Promise.resolve({ state: 'install', engine: true, waiter: false });
    }
    return new Promise((settle) => {
      const hosts = new Set<Element>();
      let actual: MatchedValue = '';
      let lastCost = 0;
      let lastEnd = 0;
      let spaced: ReturnType<typeof setTimeout> | undefined;
      let over = false;

      const check = () => {
        spaced = undefined;
        if (over) return;
        const began = performance.now();
        let value: MatchedValue | typeof reads.FAILED;
        try {
          value = read(args.kind, args.target ? resolve(args.target, hosts) : NONE);
        } catch (error) {
          if (error instanceof Unsupported) return end({ state: 'fallback', reason: error.reason });
          if (error instanceof NoEngine) return end({ state: 'install', engine: true, waiter: false });
          value = reads.FAILED;
        }
        lastEnd = performance.now();
        lastCost = lastEnd - began;
        if (value !== reads.FAILED) actual = value as MatchedValue;
        if (satisfies(actual, args.matcher)) end({ state: 'held', actual });
      };
      const wake = () => {
        if (over || spaced !== undefined) return;
        const due = lastEnd + lastCost * COST_SPACING - performance.now();
        if (due <= 0) check();
        else spaced = setTimeout(check, due);
      };
      const observer = new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes) if (node.nodeType === 1) watchShadows(node as Element);
        wake();
      });
      const observe = (root: Node) =>
        observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
      const watchShadows = (root: ParentNode) => {
        const before = hosts.size;
        if ((root as Element).shadowRoot) hosts.add(root as Element);
        shadowHosts(root, hosts);
        if (hosts.size === before) return;
        for (const host of hosts) if (host.shadowRoot) observe(host.shadowRoot);
      };
      const events = [
        'input',
        'change',
        'focusin',
        'focusout',
        'transitionend',
        'animationend',
        'hashchange',
        'popstate',
        'load',
        'resize',
      ];
      const navigation = (window as unknown as { navigation?: EventTarget }).navigation;
      const tick = setInterval(() => {
        watchShadows(document);
        wake();
      }, TICK_MS);
      const safety = setTimeout(() => finish(), args.safetyMs);
      function end(outcome: InPageOutcome): void {
        if (over) return;
        over = true;
        observer.disconnect();
        for (const type of events) removeEventListener(type, wake, true);
        navigation?.removeEventListener('currententrychange', wake);
        clearInterval(tick);
        clearTimeout(safety);
        clearTimeout(spaced);
        waits.delete(args.id);
        settle(outcome);
      }
      /** The gateway's deadline: one last look, then the last value seen. */
      function finish(): void {
        check();
        end({ state: 'ended', actual });
      }

      waits.set(args.id, finish);
      observe(document);
      watchShadows(document);
      for (const type of events) addEventListener(type, wake, true);
      navigation?.addEventListener('currententrychange', wake);
      check();
    });
  }

  /** Ends a wait at the gateway's deadline; false when it had already ended. */
  function finish(id: number): boolean {
    const ending = waits.get(id);
    ending?.();
    return ending !== undefined;
  }

  return { wait, finish, root: document.documentElement };
}

export type ExpectationWaiter = ReturnType<typeof createExpectationWaiter>;
