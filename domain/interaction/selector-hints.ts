import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { TargetQuery, TargetSpec } from '../../transports/contract/window-driver.js';
import type { Session } from '../sessions/session.js';
import type { SnapshotNode } from '../snapshot/snapshot.js';

export const SELECTOR_HINTS_DEFAULT = 20;
export const SELECTOR_HINTS_MAX = 200;
/**
 * Candidates counted at most per call: each costs one count in the page, and a page with thousands of
 * names should still answer quickly. Test ids come first, so they are never crowded out.
 */
const CANDIDATES_COUNTED_MAX = 500;
/** Longer texts are sentences, not handles a test would hold on to. */
const TEXT_HINT_MAX_CHARS = 60;
/**
 * Roles worth a role+name hint besides the interactive ones: what a test looks for to know where it is.
 * Generic containers and text runs are left out (text runs become text hints).
 */
const STRUCTURAL_ROLES: ReadonlySet<string> = new Set([
  'heading',
  'dialog',
  'alertdialog',
  'region',
  'navigation',
  'main',
  'form',
  'tabpanel',
  'table',
  'list',
  'img',
  'status',
  'alert',
]);

export type HintKind = 'TEST_ID' | 'ROLE' | 'TEXT';

/** One way a stable test could name an element, shaped as a TargetInput, and how many elements it matches. */
export interface SelectorHint {
  readonly kind: HintKind;
  readonly testId: string | null;
  readonly role: string | null;
  readonly name: string | null;
  readonly text: string | null;
  /** True for text hints: whole-string match (`exact: true` in the target). */
  readonly exact: boolean | null;
  readonly matches: number;
}

export interface SelectorHintsRequest {
  readonly window?: string | null;
  readonly first?: number | null;
  /** Only hints matching exactly one element (default true): the only kind a test can act on as written. */
  readonly uniqueOnly?: boolean | null;
}

/**
 * Hints for people writing stable tests against the window: its test ids, then role+name pairs of what an
 * agent acts on and what orients it (headings, landmarks), then short visible texts — each counted by the
 * same targeting engine an action uses, in document order within each kind.
 */
export async function selectorHints(
  session: Session,
  request: SelectorHintsRequest,
): Promise<SelectorHint[]> {
  const first = request.first ?? SELECTOR_HINTS_DEFAULT;
  if (!Number.isInteger(first) || first < 0 || first > SELECTOR_HINTS_MAX) {
    throw new StagegraphError(
      'BAD_INPUT',
      `first must be a whole number from 0 to ${SELECTOR_HINTS_MAX}, got ${first}.`,
    );
  }
  const { window, driver } = await session.window(request.window);
  const snapshot = await session.snapshots.read(window.id, driver, { bounds: false });
  const testIds = await driver.testIds(CANDIDATES_COUNTED_MAX);
  const candidates = [
    ...testIds.map((testId) => hint('TEST_ID', { testId })),
    ...roleHints(snapshot.nodes),
    ...textHints(snapshot.nodes),
  ].slice(0, CANDIDATES_COUNTED_MAX);
  const counts = await driver.countMatches(candidates.map(({ query }) => query));
  const uniqueOnly = request.uniqueOnly ?? true;
  return candidates
    .map(({ shape }, index) => ({ ...shape, matches: counts[index] ?? 0 }))
    .filter((counted) => counted.matches > 0 && (!uniqueOnly || counted.matches === 1))
    .slice(0, first);
}

interface Candidate {
  readonly shape: Omit<SelectorHint, 'matches'>;
  readonly query: TargetQuery;
}

function hint(
  kind: HintKind,
  fields: { testId?: string; role?: string; name?: string; text?: string },
): Candidate {
  const spec: TargetSpec =
    kind === 'TEST_ID'
      ? { kind: 'testId', testId: fields.testId! }
      : kind === 'ROLE'
        ? { kind: 'role', role: fields.role!, name: fields.name!, exact: true }
        : { kind: 'text', text: fields.text!, exact: true };
  return {
    shape: {
      kind,
      testId: fields.testId ?? null,
      role: fields.role ?? null,
      name: fields.name ?? null,
      text: fields.text ?? null,
      exact: kind === 'TEXT' ? true : null,
    },
    query: { spec },
  };
}

function roleHints(nodes: readonly SnapshotNode[]): Candidate[] {
  const seen = new Set<string>();
  const hints: Candidate[] = [];
  for (const node of nodes) {
    if (node.name.trim() === '' || !(node.interactive || STRUCTURAL_ROLES.has(node.role))) continue;
    const key = `${node.role}\u0000${node.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    hints.push(hint('ROLE', { role: node.role, name: node.name }));
  }
  return hints;
}

function textHints(nodes: readonly SnapshotNode[]): Candidate[] {
  const seen = new Set<string>();
  const hints: Candidate[] = [];
  for (const node of nodes) {
    const text = node.role === 'text' ? node.name.replace(/\s+/g, ' ').trim() : '';
    if (text.length < 2 || text.length > TEXT_HINT_MAX_CHARS || seen.has(text)) continue;
    seen.add(text);
    hints.push(hint('TEXT', { text }));
  }
  return hints;
}
