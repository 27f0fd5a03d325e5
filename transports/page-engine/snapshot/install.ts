/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { REDACTED_VALUE } from '../../contract/window-driver.js';
import { createGeometry } from './geometry.js';
import { createLayout } from './layout.js';
import { createNames } from './names.js';
import { createRegistry } from './registry.js';
import { createRoles } from './roles.js';
import { createSource, type Source } from './source.js';
import { createStates } from './states.js';
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
  readonly root: Element | null;
}

/**
 * The installer, composed from the factories' own (type-checked) sources. Each factory is self-contained,
 * so shipping its text is enough. `__name` is shadowed because tsx compiles with esbuild's keepNames,
 * which wraps named functions in a `__name(...)` helper that exists only in Node.
 */
const INSTALLER = `(() => {
  const __name = (target) => target;
  const visibility = (${createVisibility})();
  const roles = (${createRoles})();
  const layout = (${createLayout})();
  const names = (${createNames})(roles, visibility, layout);
  const states = (${createStates})();
  const geometry = (${createGeometry})();
  const registry = (${createRegistry})();
  const textRuns = (${createTextRuns})(registry, layout);
  const walker = (${createWalker})(roles, names, states, visibility, textRuns, geometry, registry, ${JSON.stringify(REDACTED_VALUE)});
  const source = (${createSource})(registry, states, ${JSON.stringify(REDACTED_VALUE)});
  Object.defineProperty(window, ${JSON.stringify(ENGINE_GLOBAL)}, {
    value: { walker, source, root: document.documentElement },
    configurable: true,
    writable: true,
  });
})()`;

export async function installEngine(page: Page): Promise<void> {
  await page.evaluate(INSTALLER);
}

/**
 * Runs `inPage` against this document's engine, installing it first when the document has none.
 * `inPage` returns undefined to say "no engine here"; it must be self-contained (it runs in the page).
 */
export async function withEngine<A, R>(
  page: Page,
  inPage: (args: { readonly global: string; readonly arg: A }) => R | undefined,
  arg: A,
): Promise<R> {
  const args = { global: ENGINE_GLOBAL, arg };
  const first = (await page.evaluate(inPage as never, args)) as R | undefined;
  if (first !== undefined) return first;
  await installEngine(page);
  const second = (await page.evaluate(inPage as never, args)) as R | undefined;
  if (second === undefined) throw new Error('the snapshot engine did not install in this document');
  return second;
}
