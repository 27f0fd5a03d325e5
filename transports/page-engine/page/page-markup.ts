/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import type { HtmlRead } from '../../contract/window-driver.js';
import { ENGINE_GLOBAL, type Engine, withEngine } from '../snapshot/install.js';
import { currentDocumentId } from '../snapshot/page-snapshot.js';
import type { SourceRead } from '../snapshot/source.js';
import { isHandle, type Resolved } from '../targets/target-resolution.js';

type Host = Record<string, Engine | undefined>;

/** The markup of an element (or of the whole document), read by the page engine so secrets stay redacted. */
export async function readHtml(
  page: Page,
  element: Resolved | undefined,
  outer: boolean,
  maxChars: number,
  timeoutMs: number,
): Promise<HtmlRead> {
  if (!element) {
    const read = await withEngine(
      page,
      ({ global, arg }) => {
        const engine = (window as unknown as Host)[global];
        if (!engine?.source || engine.root !== document.documentElement) return undefined;
        return engine.source.html(document.documentElement, arg.outer, arg.maxChars);
      },
      { outer, maxChars },
    );
    return htmlRead(read);
  }
  const arg = { global: ENGINE_GLOBAL, outer, maxChars };
  const inPage = (target: Element, { global, outer, maxChars }: typeof arg): SourceRead | null => {
    const top = target.ownerDocument.defaultView?.top ?? window;
    const engine = (top as unknown as Host)[global];
    if (!engine?.source || engine.root !== top.document.documentElement) return null;
    return engine.source.html(target, outer, maxChars);
  };
  const read = () =>
    isHandle(element) ? element.evaluate(inPage, arg) : element.evaluate(inPage, arg, { timeout: timeoutMs });
  let found = await read();
  // The engine installs itself on a document's first read; an element may be asked for before one.
  if (found === null) {
    await currentDocumentId(page);
    found = await read();
  }
  if (found === null) throw new Error('the snapshot engine did not install in this document');
  return htmlRead(found);
}

function htmlRead(read: SourceRead): HtmlRead {
  return { html: read.text, length: read.length };
}

/**
 * The textContent of each key's node in one round trip; all null when the page shows another document
 * than `documentId` (its keys name other nodes).
 */
export async function readTextContents(
  page: Page,
  documentId: string,
  keys: readonly number[],
  maxChars: number,
): Promise<(string | null)[]> {
  return withEngine(
    page,
    ({ global, arg }) => {
      const engine = (window as unknown as Host)[global];
      if (!engine?.source || engine.root !== document.documentElement) return undefined;
      if (engine.walker.documentId !== arg.documentId) return arg.keys.map(() => null);
      return arg.keys.map((key) => engine.source.textFor(key, arg.maxChars)?.text ?? null);
    },
    { documentId, keys, maxChars },
  );
}

/** The distinct `data-testid` values of the document, in document order, at most `limit`. */
export function readTestIds(page: Page, limit: number): Promise<string[]> {
  return page.evaluate((limit) => {
    const ids = new Set<string>();
    for (const element of document.querySelectorAll('[data-testid]')) {
      if (ids.size >= limit) break;
      ids.add(element.getAttribute('data-testid') ?? '');
    }
    ids.delete('');
    return [...ids];
  }, limit);
}
