/// <reference lib="dom" />
import type { ElementHandle, Page } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { TargetSpec } from '../../contract/window-driver.js';
import { changeCount, nextChange } from '../expectation/change-signal.js';
import type { NodeTuple } from '../snapshot/encoding.js';
import { ENGINE_GLOBAL, type Engine, installEngine } from '../snapshot/install.js';
import { elementForKey } from '../snapshot/page-snapshot.js';
import { AMBIGUITY_LISTING, ambiguityError } from './ambiguity.js';

type RoleSpec = Extract<TargetSpec, { kind: 'role' }>;

/**
 * How long a wait for a match trusts the page's change counter alone. The counter observes the top
 * document; a match may appear inside a shadow root or an iframe, whose changes it does not see, so the
 * walk is repeated at least this often while the wait lasts.
 */
const UNOBSERVED_CHANGE_MS = 500;

interface Matches {
  readonly documentId: string;
  readonly keys: readonly number[];
  /** The first AMBIGUITY_LISTING matches as the walker describes them, when there are several. */
  readonly described: readonly { readonly node: NodeTuple; readonly testId: string | null }[];
}

/**
 * The walker's own matches for a role and name, under `scope` when given: the nodes of the very walk a
 * snapshot makes, compared by the very names it shows, so a snapshot's names and role targets agree by
 * construction (Playwright's getByRole computes names of its own, which differ from Chromium's — and so
 * from the snapshot's — wherever the two implementations do). Undefined when the page has no engine yet.
 */
export function matchInPage(args: {
  root: Element | null;
  global: string;
  role: string;
  name: string | null;
  exact: boolean;
  limit: number;
}): Matches | null | undefined {
  const { root } = args;
  const top = root?.ownerDocument.defaultView?.top ?? window;
  const engine = (top as unknown as Record<string, Engine | undefined>)[args.global];
  if (!engine || engine.root !== top.document.documentElement) return undefined;
  const walker = engine.walker;
  const within = root ? (JSON.parse(walker.describe(root)) as { node: [number] }).node[0] : undefined;
  const tuples = walker.nodes({ within, bounds: false, role: args.role }) as NodeTuple[] | null;
  if (!tuples) return null;
  // Whitespace-insensitive as the names themselves are (and as Playwright's name matching is).
  const wanted = args.name === null ? null : args.name.replace(/\s+/g, ' ').trim();
  const folded = wanted?.toLowerCase() ?? '';
  const keys: number[] = [];
  // A scope's own node is not inside itself.
  for (let i = root ? 1 : 0; i < tuples.length; i += 1) {
    const [key, , role, name] = tuples[i] as NodeTuple;
    if (role !== args.role) continue;
    if (wanted !== null && (args.exact ? name !== wanted : !name.toLowerCase().includes(folded))) continue;
    keys.push(key);
  }
  const described =
    keys.length < 2
      ? []
      : keys.slice(0, args.limit).map((key) => {
          const element = walker.elementFor(key) as Element;
          const { node } = JSON.parse(walker.describe(element)) as { node: NodeTuple };
          return { node, testId: element.getAttribute('data-testid') };
        });
  return { documentId: walker.documentId, keys, described };
}

async function matchNow(
  page: Page,
  spec: RoleSpec,
  scope: ElementHandle<Element> | null,
): Promise<Matches | null> {
  const args = {
    root: scope,
    global: ENGINE_GLOBAL,
    role: spec.role,
    name: spec.name ?? null,
    exact: spec.exact ?? true,
    limit: AMBIGUITY_LISTING,
  };
  const run = () => page.evaluate(matchInPage, args);
  const first = await run();
  if (first !== undefined) return first;
  await installEngine(page);
  return (await run()) ?? null;
}

/**
 * Resolves a role (and name) target through the snapshot walker, waiting (bounded) for a match: on the
 * page's own change events, re-walking at least every UNOBSERVED_CHANGE_MS for changes those miss. The
 * element comes back as a handle, as a ref's does. SELECTOR_NO_MATCH when nothing matched in time,
 * AMBIGUOUS_TARGET (with the candidates described) for several without `nth`.
 */
export async function resolveRole(
  page: Page,
  spec: RoleSpec,
  scope: ElementHandle<Element> | null,
  nth: number | undefined,
  timeoutMs: number,
  what: string,
): Promise<ElementHandle<Element>> {
  const deadline = Date.now() + timeoutMs;
  let seen = await changeCount(page).catch(() => -1);
  for (;;) {
    const matches = await matchNow(page, spec, scope);
    if (!matches) throw new StagegraphError('REF_STALE', `The scope of ${what} left the document.`);
    const { keys } = matches;
    if (keys.length > 1 && nth === undefined)
      throw ambiguityError(keys.length, matches.documentId, matches.described, spec, what);
    const key = keys[nth ?? 0];
    const element = key === undefined ? null : await elementForKey(page, key);
    if (element) return element;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new StagegraphError('SELECTOR_NO_MATCH', `No element matches ${what}.`, {
        details: { target: spec },
      });
    }
    seen = await nextChange(page, seen, Math.min(remaining, UNOBSERVED_CHANGE_MS));
  }
}
