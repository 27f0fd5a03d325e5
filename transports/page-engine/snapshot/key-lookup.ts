/// <reference lib="dom" />
import type { Walker } from './walker.js';

/** The DOM events through which Playwright's utility world asks the engine for a key's element. */
export interface KeyLookupEvents {
  /** Sent to the document, its detail "<documentId>:<key>". */
  readonly find: string;
  /** Sent to the element found, composed, so that a listener on the document sees it. */
  readonly found: string;
  /** Sent to the document: the key's element lives in another document (an iframe's). */
  readonly elsewhere: string;
}

export const KEY_LOOKUP_EVENTS: KeyLookupEvents = {
  find: 'stagegraph:find-key',
  found: 'stagegraph:key-found',
  elsewhere: 'stagegraph:key-elsewhere',
};

/**
 * In-page, main world: answers the key selector engine (key-selector.ts), which runs in Playwright's
 * utility world and cannot see this world's objects but shares its DOM and its events. A `find` names a
 * document id and key; the answer is a `found` event on that element, or `elsewhere`, or nothing when this
 * document has no such key. The element's events are synchronous, so the engine has its answer as soon as
 * its `find` returns. An engine installed again on the same document (document.open() keeps it) adds its
 * own listener; the old one answers only its own document id, whose elements have left. A self-contained
 * factory: its source is shipped into the page whole.
 */
export function createKeyLookup(walker: Walker, events: KeyLookupEvents): void {
  function answer(event: Event): void {
    const [documentId, key] = String((event as CustomEvent).detail).split(':');
    if (documentId !== walker.documentId) return;
    const element = walker.elementFor(Number(key));
    if (!element) return;
    if (element.ownerDocument !== document) {
      document.dispatchEvent(new Event(events.elsewhere));
      return;
    }
    element.dispatchEvent(new Event(events.found, { bubbles: true, composed: true }));
  }
  document.addEventListener(events.find, answer, true);
}
