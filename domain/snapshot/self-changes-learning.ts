import { diff, sameScope } from './diff.js';
import { LEARN_DIFF_MAX_NODES, type SelfChanges } from './self-changes.js';
import type { Snapshot } from './snapshot.js';
import { splicesOf } from './snapshot-splices.js';

/**
 * Compares a new snapshot with the window's latest recent one of the same scope and document, when no
 * action came between them (`noActionSince`) and the comparison is cheap (spliced from it, or small
 * pages): whatever changed between the two changed on its own.
 */
export function learnSelfChanges(
  selfChanges: SelfChanges,
  recent: readonly Snapshot[],
  snapshot: Snapshot,
  noActionSince: (earlier: Snapshot) => boolean,
): void {
  let partner: Snapshot | undefined;
  for (let index = recent.length - 1; index >= 0 && !partner; index -= 1) {
    const earlier = recent[index]!;
    if (earlier.documentId === snapshot.documentId && sameScope(earlier.scope, snapshot.scope))
      partner = earlier;
  }
  if (!partner || !noActionSince(partner)) return;
  const spliced = splicesOf(snapshot)?.base === partner;
  if (!spliced && partner.nodes.length + snapshot.nodes.length > 2 * LEARN_DIFF_MAX_NODES) return;
  selfChanges.learn(diff(partner, snapshot), partner, snapshot);
}
