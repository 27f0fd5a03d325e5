/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { CHECKABLE_ROLES, RANGE_ROLES } from '../../contract/aria-roles.js';
import { TransportError } from '../../contract/transport-error.js';
import { REDACTED_VALUE } from '../../contract/window-driver.js';
import { createControlStates } from './control-states.js';
import { createWire } from './encoding.js';
import { createGeometry } from './geometry.js';
import { createKeyLookup, KEY_LOOKUP_EVENTS } from './key-lookup.js';
import { createRegistry } from './key-registry.js';
import { createLayout } from './layout.js';
import { createModel, type Model } from './model.js';
import { createNames } from './names.js';
import { createPacking, PACK_THRESHOLD_CHARS, type Packing } from './packing.js';
import { createRoles } from './roles.js';
import { createSource, type Source } from './source.js';
import { createStates } from './states.js';
import { createStyleRules } from './style-rules.js';
import { createTextRuns } from './text-runs.js';
import { createVisibility } from './visibility.js';
import { createWalker, type Walker } from './walker.js';

/** The page global holding the engine; one per document. */
export const ENGINE_GLOBAL = '__stagegraphSnapshot';

/**
 * What the page global holds: the walker, and the root element it was installed for. document.open() keeps
 * the window (and so the global) but replaces the document's content: the root tells the two apart.
 */
export interface Engine {
  readonly walker: Walker;
  /** Markup and text of elements, secrets redacted as the walker redacts them. */
  readonly source: Source;
  /** The document's snapshot kept current from mutation records, for repeated whole-document reads. */
  readonly model: Model;
  /** Compresses long answers for the trip to Node (packing.ts). */
  readonly packing: Packing;
  readonly root: Element | null;
}

/**
 * The installer, composed from the factories' own (type-checked) sources. Each factory is self-contained,
 * so shipping its text is enough. `__name` is shadowed because tsx compiles with esbuild's keepNames,
 * which wraps named functions in a `__name(...)` helper that exists only in Node.
 */
const INSTALLER = `(() => {
  const __name = (target) => target;
  const layout = (${createLayout})();
  const visibility = (${createVisibility})(layout);
  const roles = (${createRoles})();
  const names = (${createNames})(roles, visibility, layout);
  const states = (${createStates})(${JSON.stringify([...CHECKABLE_ROLES])}, ${JSON.stringify([...RANGE_ROLES])});
  const geometry = (${createGeometry})();
  const registry = (${createRegistry})();
  const textRuns = (${createTextRuns})(registry, layout);
  const wire = (${createWire})();
  const walker = (${createWalker})(roles, names, states, visibility, textRuns, geometry, registry, ${JSON.stringify(REDACTED_VALUE)}, wire);
  const source = (${createSource})(registry, states, ${JSON.stringify(REDACTED_VALUE)});
  const styleRules = (${createStyleRules})();
  const controlStates = (${createControlStates})();
  const model = (${createModel})(walker, registry, states, styleRules, controlStates);
  const packing = (${createPacking})(${PACK_THRESHOLD_CHARS});
  (${createKeyLookup})(walker, ${JSON.stringify(KEY_LOOKUP_EVENTS)});
  Object.defineProperty(window, ${JSON.stringify(ENGINE_GLOBAL)}, {
    value: { walker, source, model, packing, root: document.documentElement },
    configurable: true,
    writable: true,
  });
})()`;

export async function installEngine(page: Page): Promise<void> {
  await page.evaluate(INSTALLER);
}

/**
 * How often a read that met a document being replaced (a new window leaving about:blank for its page, a
 * reload) is tried again on the document that replaced it.
 */
const REPLACED_DOCUMENT_TRIES = 4;
/** How long a retry waits for the new document to be parsed before reading it anyway. */
const NEW_DOCUMENT_WAIT_MS = 10_000;
/** Playwright's messages for an evaluation whose document went away under it. */
const DOCUMENT_REPLACED = /Execution context was destroyed|Cannot find context with specified id/;

/**
 * Runs `inPage` against this document's engine, installing it first when the document has none.
 * `inPage` returns undefined to say "no engine here"; it must be self-contained (it runs in the page).
 * A document replaced between two of these steps is read again once the new one is parsed; one that keeps
 * being replaced is a PROTOCOL_ERROR saying so, never an unexpected error.
 */
export async function withEngine<A, R>(
  page: Page,
  inPage: (args: { readonly global: string; readonly arg: A }) => R | undefined,
  arg: A,
): Promise<R> {
  const args = { global: ENGINE_GLOBAL, arg };
  for (let attempt = 1; ; attempt += 1) {
    try {
      const first = (await page.evaluate(inPage as never, args)) as R | undefined;
      if (first !== undefined) return first;
      await installEngine(page);
      const second = (await page.evaluate(inPage as never, args)) as R | undefined;
      if (second !== undefined) return second;
    } catch (error) {
      if (!(error instanceof Error && DOCUMENT_REPLACED.test(error.message))) throw error;
    }
    if (attempt >= REPLACED_DOCUMENT_TRIES)
      throw new TransportError(
        'protocol',
        `the window replaced its document ${attempt} times while it was being read`,
        {
          method: 'snapshot',
          hint: 'The page is navigating or reloading; read it again once it has loaded (snapshot(waitFor: LOAD)).',
        },
      );
    await page.waitForLoadState('domcontentloaded', { timeout: NEW_DOCUMENT_WAIT_MS }).catch(() => {});
  }
}
