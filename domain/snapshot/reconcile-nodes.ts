import type { Bounds } from '../../transports/contract/bounds.js';
import type { RawNode, RawSnapshot, RawSplice } from '../../transports/contract/window-driver.js';
import { type SnapshotNode, toSnapshotNode } from './snapshot.js';
import type { Reconciled, RefEntry } from './window-refs.js';

/** The store's entry for one walker node, given the ref of its parent (null for a root). */
export type ReconcileNode = (rawNode: RawNode, parentRef: string | null) => RefEntry;

/**
 * Nodes reconciled between two pauses (a few milliseconds of work): a caller that steps the reconciliation
 * in turns of the event loop lets other sessions' operations run in between.
 */
export const NODES_PER_STEP = 4_096;

/**
 * Every node of the snapshot through the store, in document order; pauses every NODES_PER_STEP nodes. A node
 * equal to its element's node in `previous` (the window's last snapshot) is that node: snapshots never
 * change their nodes, so the window's recent snapshots share what did not change, and the collector walks
 * one copy of an unchanged page instead of one per snapshot kept.
 */
export function* reconcileWhole(
  raw: RawSnapshot,
  reconcile: ReconcileNode,
  previous: readonly SnapshotNode[] = [],
): Generator<void, Reconciled> {
  const indexOfKey = new Map<number, number>();
  const nodes: SnapshotNode[] = new Array(raw.nodes.length);
  const entries: RefEntry[] = new Array(raw.nodes.length);
  for (let index = 0; index < raw.nodes.length; index += 1) {
    const rawNode = raw.nodes[index]!;
    const parentIndex = rawNode.parent === null ? undefined : indexOfKey.get(rawNode.parent);
    const parentRef = parentIndex === undefined ? null : nodes[parentIndex]!.ref;
    const entry = reconcile(rawNode, parentRef);
    indexOfKey.set(rawNode.key, index);
    // Filled as this node's children arrive: a snapshot is built in one pass over document order.
    if (parentIndex !== undefined) (nodes[parentIndex]!.childRefs as string[]).push(entry.ref);
    nodes[index] = toSnapshotNode(rawNode, entry.ref, parentRef, []);
    entries[index] = entry;
    if ((index + 1) % NODES_PER_STEP === 0) yield;
  }
  if (previous.length === 0) return { nodes, entries };
  // Once every child list is complete. An entry's seenAt is still its index in an earlier snapshot; the
  // ref check tells whether that snapshot is `previous`.
  for (let index = 0; index < nodes.length; index += 1) {
    const before = previous[entries[index]!.seenAt];
    if (before !== undefined && sameNode(before, nodes[index]!)) nodes[index] = before;
    if ((index + 1) % NODES_PER_STEP === 0) yield;
  }
  return { nodes, entries };
}

/**
 * Every field of a node, each of which sameNode compares (reconcile-nodes.test.ts checks that a change to any
 * one of them makes two nodes differ): a field added to SnapshotNode does not compile until it is listed here.
 */
export const COMPARED_FIELDS = {
  ref: true,
  role: true,
  name: true,
  value: true,
  description: true,
  states: true,
  level: true,
  bbox: true,
  interactive: true,
  url: true,
  optionCount: true,
  atspiRole: true,
  atspiPath: true,
  parentRef: true,
  childRefs: true,
} as const satisfies Record<keyof Required<SnapshotNode>, true>;

/**
 * Two nodes with the same ref and the same facts: each field compared in line (a table of comparers called in
 * a loop made an unchanged 50,000-node re-snapshot twice as slow).
 */
export function sameNode(a: SnapshotNode, b: SnapshotNode): boolean {
  return (
    a.ref === b.ref &&
    a.role === b.role &&
    a.name === b.name &&
    a.value === b.value &&
    a.description === b.description &&
    a.level === b.level &&
    a.interactive === b.interactive &&
    a.url === b.url &&
    a.optionCount === b.optionCount &&
    a.parentRef === b.parentRef &&
    a.atspiRole === b.atspiRole &&
    a.atspiPath === b.atspiPath &&
    sameBounds(a.bbox, b.bbox) &&
    sameStrings(a.states, b.states) &&
    sameStrings(a.childRefs, b.childRefs)
  );
}

function sameBounds(a: Bounds | null, b: Bounds | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * The last snapshot's nodes with the splices' ranges reconciled afresh. A node outside them is unchanged
 * and live (its element neither moved nor left: the transport walked again wherever one did), so its
 * entry and node carry over; splices come in document order, so twins pair as in a whole pass. With no
 * splice the last snapshot's arrays are the answer as they are (snapshots never change their nodes); else
 * the arrays are sized once and filled by index, since growing 60,000-node arrays by push costs more than
 * the rest of an incremental read. Pauses every NODES_PER_STEP reconciled nodes.
 */
export function* reconcileSpliced(
  raw: RawSnapshot,
  last: Reconciled,
  splices: readonly RawSplice[],
  byKey: ReadonlyMap<number, RefEntry>,
  reconcile: ReconcileNode,
): Generator<void, Reconciled> {
  if (splices.length === 0) return last;
  let length = last.nodes.length;
  for (const splice of splices) length += splice.inserted - splice.removed;
  const nodes: SnapshotNode[] = new Array(length);
  const entries: RefEntry[] = new Array(length);
  let written = 0;
  let cursor = 0;
  let reconciled = 0;
  const carry = (end: number) => {
    for (let index = cursor; index < end; index += 1, written += 1) {
      nodes[written] = last.nodes[index]!;
      entries[written] = last.entries[index]!;
    }
  };
  for (const splice of splices) {
    carry(splice.from);
    // One node replacing one keeps its children (an ancestor described again); a subtree brings its own.
    const kept = splice.removed === 1 && splice.inserted === 1 ? last.nodes[splice.from]!.childRefs : null;
    const indexOfKey = new Map<number, number>();
    const childLists = new Map<number, string[]>();
    for (let at = splice.at; at < splice.at + splice.inserted; at += 1, written += 1) {
      const rawNode = raw.nodes[at]!;
      const parent = rawNode.parent;
      const parentIndex = parent === null ? undefined : indexOfKey.get(parent);
      const parentRef =
        parent === null
          ? null
          : parentIndex === undefined
            ? (byKey.get(parent)?.ref ?? null)
            : nodes[parentIndex]!.ref;
      const entry = reconcile(rawNode, parentRef);
      indexOfKey.set(rawNode.key, written);
      const childRefs: string[] = kept ? (kept as string[]) : [];
      childLists.set(written, childRefs);
      if (parentIndex !== undefined) childLists.get(parentIndex)!.push(entry.ref);
      nodes[written] = toSnapshotNode(rawNode, entry.ref, parentRef, childRefs);
      entries[written] = entry;
      reconciled += 1;
      if (reconciled % NODES_PER_STEP === 0) yield;
    }
    cursor = splice.from + splice.removed;
  }
  carry(last.nodes.length);
  return { nodes, entries };
}
