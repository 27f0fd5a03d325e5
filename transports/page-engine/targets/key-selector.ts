import { type Locator, type Page, selectors } from 'playwright-core';
import { causeChain } from '../../../errors/cause-chain.js';
import { KEY_LOOKUP_EVENTS, type KeyLookupEvents } from '../snapshot/key-lookup.js';

/** The selector engine's name: `stagegraph_key=<documentId>:<key>` names the element of a walker key. */
const ENGINE = 'stagegraph_key';

/** Starts the engine's errors, so that a failed action can tell them from Playwright's own. */
const MARK = 'stagegraph key:';
const GONE = `${MARK} gone`;
const ELSEWHERE = `${MARK} elsewhere`;

/**
 * The engine, in Playwright's utility world, where its actionability checks run: it asks the page's engine
 * (snapshot/key-lookup.ts) for the key's element through the DOM, and so holds the element in that world.
 * An element handle from the main world would be adopted into the utility world by each of a click's
 * checks, a round trip each. A key whose element has left throws, and the action fails at once rather
 * than wait for an element that cannot come back. `__name` is shadowed as in the snapshot installer.
 */
function createKeyEngine(events: KeyLookupEvents, gone: string, elsewhere: string) {
  return {
    queryAll(root: Node, body: string): Element[] {
      const doc = root.ownerDocument ?? (root as Document);
      const answer: { element: Element | null; failure: string } = { element: null, failure: gone };
      const onFound = (event: Event) => {
        answer.element = event.composedPath()[0] as Element;
      };
      const onElsewhere = () => {
        answer.failure = elsewhere;
      };
      doc.addEventListener(events.found, onFound, true);
      doc.addEventListener(events.elsewhere, onElsewhere, true);
      try {
        doc.dispatchEvent(new CustomEvent(events.find, { detail: body }));
      } finally {
        doc.removeEventListener(events.found, onFound, true);
        doc.removeEventListener(events.elsewhere, onElsewhere, true);
      }
      if (!answer.element) throw new Error(answer.failure);
      return root === doc || root.contains(answer.element) ? [answer.element] : [];
    },
  };
}

const ENGINE_SOURCE = `(() => {
  const __name = (target) => target;
  return (${createKeyEngine})(${JSON.stringify(KEY_LOOKUP_EVENTS)}, ${JSON.stringify(GONE)}, ${JSON.stringify(ELSEWHERE)});
})()`;

/**
 * Registered when this module loads, before any app is launched or attached: Playwright gives a context the
 * engines registered so far, and a page's injected script, once made, learns of no later one. False when
 * Playwright refused it; actions then take element handles, as without the engine.
 */
const registered: Promise<boolean> = selectors.register(ENGINE, ENGINE_SOURCE, { contentScript: true }).then(
  () => true,
  () => false,
);

/** The locator of a walker key's element in the page's own document; null without the engine. */
export async function keyLocator(page: Page, documentId: string, key: number): Promise<Locator | null> {
  return (await registered) ? page.locator(`${ENGINE}=${documentId}:${key}`) : null;
}

/**
 * What a failed action on a key locator says of the key: its element left, or lives in an iframe's
 * document; or of the context: it has no key engine (Playwright gives registered engines to the contexts
 * it makes, not to the default context of a browser it attaches to over CDP); or nothing (the action
 * failed for a reason of its own). The word may sit in the cause of the error the action was reported as.
 */
export function keyFailure(error: unknown): 'gone' | 'elsewhere' | 'no-engine' | null {
  for (const cause of causeChain(error)) {
    if (cause.message.includes(GONE)) return 'gone';
    if (cause.message.includes(ELSEWHERE)) return 'elsewhere';
    if (cause.message.includes(`Unknown engine "${ENGINE}"`)) return 'no-engine';
  }
  return null;
}
