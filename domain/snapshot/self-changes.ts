import type { DiffQuieter, QuietChanges, SnapshotDiff } from './diff.js';
import type { Snapshot } from './snapshot.js';

/**
 * Spots remembered per window. A page has few places that change on their own (a clock, a counter, a
 * spinner, a feed); past this the least recently seen are forgotten, so a page that changes everywhere
 * costs no more.
 */
export const SELF_CHANGE_SPOTS_MAX = 256;
/**
 * Times a spot must be seen changing between two reads with no action in between before a quiet diff
 * leaves it out. Once could be the late effect of an operation that is not an action (a menu item, a
 * clock advance, a reply arriving); a ticking counter is seen again at the next pair of reads.
 */
export const SELF_CHANGES_TO_MARK = 2;
/**
 * Past this many nodes, two reads the store did not splice from one another are not diffed only to learn
 * from them: that would add a pass over the page to every read. Spliced reads cost their change.
 */
export const LEARN_DIFF_MAX_NODES = 10_000;

/**
 * What a window changes on its own, learnt from pairs of reads with no action in between: a node whose
 * fields changed (by ref), or a place whose children of one role come and go (parent ref and role: a
 * counter's text is a new node at every tick, a toast a new dialog). Diffs asked to be quiet leave those
 * out, and say how many nodes they left out.
 */
export class SelfChanges implements DiffQuieter {
  /** Spot → times seen changing, least recently seen first. */
  readonly #seen = new Map<string, number>();

  learn(changes: SnapshotDiff, previous: Snapshot, next: Snapshot): void {
    if (changes.documentReplaced) return;
    const spots = new Set<string>();
    for (const node of changes.changed) spots.add(nodeSpot(node.ref));
    for (const node of tops(changes.added, (ref) => next.node(ref)?.parentRef ?? null))
      spots.add(childSpot(node.parentRef, node.role));
    for (const node of tops(changes.removed, (ref) => previous.node(ref)?.parentRef ?? null))
      spots.add(childSpot(node.parentRef, node.role));
    for (const spot of spots) {
      const times = (this.#seen.get(spot) ?? 0) + 1;
      this.#seen.delete(spot);
      this.#seen.set(spot, times);
    }
    for (const spot of this.#seen.keys()) {
      if (this.#seen.size <= SELF_CHANGE_SPOTS_MAX) break;
      this.#seen.delete(spot);
    }
  }

  /** The diff's lists less the nodes at marked spots (with whatever was added or removed below them). */
  quiet(changes: SnapshotDiff, previous: Snapshot, next: Snapshot): QuietChanges {
    if (changes.documentReplaced || this.#seen.size === 0) return { ...changes, leftOut: 0 };
    const changed = changes.changed.filter((node) => !this.#marked(nodeSpot(node.ref)));
    const added = this.#kept(changes.added, (ref) => next.node(ref)?.parentRef ?? null);
    const removed = this.#kept(changes.removed, (ref) => previous.node(ref)?.parentRef ?? null);
    const leftOut =
      changes.changed.length -
      changed.length +
      changes.added.length -
      added.length +
      changes.removed.length -
      removed.length;
    return { added, removed, changed, leftOut };
  }

  #marked(spot: string): boolean {
    return (this.#seen.get(spot) ?? 0) >= SELF_CHANGES_TO_MARK;
  }

  /** Nodes in document order less those at a marked spot and below one left out. */
  #kept<T extends { ref: string; role: string }>(nodes: readonly T[], parentOf: ParentOf): T[] {
    const dropped = new Set<string>();
    return nodes.filter((node) => {
      const parentRef = parentOf(node.ref);
      if ((parentRef !== null && dropped.has(parentRef)) || this.#marked(childSpot(parentRef, node.role))) {
        dropped.add(node.ref);
        return false;
      }
      return true;
    });
  }
}

type ParentOf = (ref: string) => string | null;

/** Nodes (in document order) whose parent is not among them: the roots of what was added or removed. */
function tops<T extends { ref: string; role: string }>(
  nodes: readonly T[],
  parentOf: ParentOf,
): { parentRef: string | null; role: string }[] {
  const refs = new Set(nodes.map((node) => node.ref));
  return nodes.flatMap((node) => {
    const parentRef = parentOf(node.ref);
    return parentRef !== null && refs.has(parentRef) ? [] : [{ parentRef, role: node.role }];
  });
}

const nodeSpot = (ref: string) => `~${ref}`;
const childSpot = (parentRef: string | null, role: string) => `${parentRef ?? ''}>${role}`;
