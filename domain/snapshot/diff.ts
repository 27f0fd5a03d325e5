import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Bounds } from '../../transports/contract/bounds.js';
import type { NodeState, SnapshotRequest } from '../../transports/contract/window-driver.js';
import type { Snapshot, SnapshotNode } from './snapshot.js';
import { type SnapshotSplices, splicesOf } from './snapshot-splices.js';

export interface DiffOptions {
  /**
   * Report moved or resized boxes. Off by default: a scroll moves every box on the page, and a diff meant
   * to show what a click did would list them all.
   */
  readonly bbox?: boolean;
}

export interface RemovedNode {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
}

/** Values of the fields that differ, by field; a field is present only when it changed. */
export interface NodeChanges {
  role?: string;
  name?: string;
  value?: string | null;
  description?: string | null;
  states?: readonly NodeState[];
  level?: number | null;
  bbox?: Bounds | null;
}

/** A node in both snapshots whose fields differ: what it is now, and each changed field before and after. */
export interface ChangedNode {
  readonly ref: string;
  /** The node as the later snapshot has it, so an entry always says what changed, not only how. */
  readonly node: SnapshotNode;
  /** The new values of the changed fields. */
  readonly changes: NodeChanges;
  /** The old values of the same fields. */
  readonly before: NodeChanges;
}

export interface SnapshotDiff {
  readonly from: string;
  readonly to: string;
  /** The document's URL in the later snapshot: what the diff's outline shows links relative to. */
  readonly url: string;
  /**
   * The window's document was replaced between the two (reload, navigation): no ref carries over, so
   * everything of `previous` is removed and everything of `next` added.
   */
  readonly documentReplaced: boolean;
  readonly added: SnapshotNode[];
  readonly removed: RemovedNode[];
  readonly changed: ChangedNode[];
  /** Nodes left out as changing on their own: set on a diff made quiet (`quietDiff`), else 0. */
  readonly leftOut?: number;
}

/**
 * What changed from `previous` to `next` of one window, by ref, in document order. Linear in the two
 * snapshots' sizes, and as small as the change: one click on a 5,000-row page yields a handful of entries.
 */
export function diff(previous: Snapshot, next: Snapshot, options: DiffOptions = {}): SnapshotDiff {
  if (previous.windowId !== next.windowId)
    throw new StagegraphError(
      'BAD_INPUT',
      `Cannot diff snapshot ${previous.id} of window ${previous.windowId} against ${next.id} of window ${next.windowId}.`,
    );
  const base = { from: previous.id, to: next.id, url: next.url };
  if (previous.documentId !== next.documentId)
    return {
      ...base,
      documentReplaced: true,
      added: [...next.nodes],
      removed: previous.nodes.map(removedOf),
      changed: [],
    };
  if (!sameScope(previous.scope, next.scope))
    throw new StagegraphError(
      'BAD_INPUT',
      `Snapshot ${previous.id} covered ${JSON.stringify(previous.scope)} and ${next.id} covers ${JSON.stringify(next.scope)}: nodes outside one scope would read as removed or added.`,
      {
        hint: 'Diff against a snapshot taken with the same interactiveOnly, within and depth arguments.',
        details: { previousScope: previous.scope, nextScope: next.scope },
      },
    );
  const spliced = splicesOf(next);
  const changes: SnapshotDiff =
    spliced?.base === previous
      ? { ...base, documentReplaced: false, ...splicedChanges(spliced, next, options) }
      : { ...base, documentReplaced: false, ...wholeChanges(previous, next, options) };
  const quieter = quieters.get(next);
  if (quieter) quieting.set(changes, () => quieter.quiet(changes, previous, next));
  return changes;
}

/** A diff's lists without what changes on its own, and how many nodes that left out. */
export interface QuietChanges {
  readonly added: SnapshotNode[];
  readonly removed: RemovedNode[];
  readonly changed: ChangedNode[];
  readonly leftOut: number;
}

/** What a window changes on its own, as far as it is known (SelfChanges learns it from its reads). */
export interface DiffQuieter {
  quiet(changes: SnapshotDiff, previous: Snapshot, next: Snapshot): QuietChanges;
}

const quieters = new WeakMap<Snapshot, DiffQuieter>();

/** Ties a snapshot to what its window changes on its own, so a diff ending at it can be made quiet. */
export function noteSelfChanges(snapshot: Snapshot, selfChanges: DiffQuieter): void {
  quieters.set(snapshot, selfChanges);
}

/** How to make each diff of recorded snapshots quiet, asked only when a caller wants it so. */
const quieting = new WeakMap<SnapshotDiff, () => QuietChanges>();

/** The diff without what the window changes on its own, as far as the store has learnt it. */
export function quietDiff(changes: SnapshotDiff): SnapshotDiff {
  const quiet = quieting.get(changes);
  return quiet ? { ...changes, ...quiet() } : { ...changes, leftOut: 0 };
}

function wholeChanges(
  previous: Snapshot,
  next: Snapshot,
  options: DiffOptions,
): Pick<SnapshotDiff, 'added' | 'removed' | 'changed'> {
  const added: SnapshotNode[] = [];
  const changed: ChangedNode[] = [];
  for (const node of next.nodes) {
    const before = previous.node(node.ref);
    if (!before) {
      added.push(node);
      continue;
    }
    const changes = changesOf(before, node, options.bbox ?? false);
    if (changes) changed.push({ ref: node.ref, node, changes, before: valuesOf(before, changes) });
  }
  const removed = previous.nodes.filter((node) => next.node(node.ref) === undefined).map(removedOf);
  return { added, removed, changed };
}

/**
 * The same lists for a snapshot the ref store made from `previous` by splicing: every node outside the
 * splices is the very object `previous` holds, and no ref outside them occurs inside, so only the
 * replaced ranges are compared (a ref may move from one range to another, hence one map across them).
 */
function splicedChanges(
  { base: previous, splices }: SnapshotSplices,
  next: Snapshot,
  options: DiffOptions,
): Pick<SnapshotDiff, 'added' | 'removed' | 'changed'> {
  const before = new Map<string, SnapshotNode>();
  const after = new Set<string>();
  for (const splice of splices) {
    for (let index = splice.from; index < splice.from + splice.removed; index += 1) {
      const node = previous.nodes[index]!;
      before.set(node.ref, node);
    }
    for (let index = splice.at; index < splice.at + splice.inserted; index += 1)
      after.add(next.nodes[index]!.ref);
  }
  const added: SnapshotNode[] = [];
  const changed: ChangedNode[] = [];
  for (const splice of splices)
    for (let index = splice.at; index < splice.at + splice.inserted; index += 1) {
      const node = next.nodes[index]!;
      const old = before.get(node.ref);
      if (!old) {
        added.push(node);
        continue;
      }
      const changes = changesOf(old, node, options.bbox ?? false);
      if (changes) changed.push({ ref: node.ref, node, changes, before: valuesOf(old, changes) });
    }
  const removed: RemovedNode[] = [];
  for (const node of before.values()) if (!after.has(node.ref)) removed.push(removedOf(node));
  return { added, removed, changed };
}

function removedOf({ ref, role, name }: SnapshotNode): RemovedNode {
  return { ref, role, name };
}

function changesOf(before: SnapshotNode, after: SnapshotNode, withBbox: boolean): NodeChanges | null {
  const changes: NodeChanges = {
    ...(before.role !== after.role && { role: after.role }),
    ...(before.name !== after.name && { name: after.name }),
    ...(before.value !== after.value && { value: after.value }),
    ...(before.description !== after.description && { description: after.description }),
    ...(!sameStates(before.states, after.states) && { states: after.states }),
    ...(before.level !== after.level && { level: after.level }),
    ...(withBbox && !sameBounds(before.bbox, after.bbox) && { bbox: after.bbox }),
  };
  return Object.keys(changes).length > 0 ? changes : null;
}

/** `node`'s values of the fields named in `changes`. */
function valuesOf(node: SnapshotNode, changes: NodeChanges): NodeChanges {
  const values: Record<string, unknown> = {};
  for (const field of Object.keys(changes) as (keyof NodeChanges)[]) values[field] = node[field];
  return values as NodeChanges;
}

/** States are a set; the walker's order carries no meaning. */
function sameStates(a: readonly NodeState[], b: readonly NodeState[]): boolean {
  return a.length === b.length && a.every((state) => b.includes(state));
}

function sameBounds(a: Bounds | null, b: Bounds | null): boolean {
  if (a === null || b === null) return a === b;
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

export function sameScope(a: SnapshotRequest, b: SnapshotRequest): boolean {
  return (
    (a.within ?? null) === (b.within ?? null) &&
    !!a.interactiveOnly === !!b.interactiveOnly &&
    (a.depth ?? null) === (b.depth ?? null)
  );
}
