import type { Page } from 'playwright-core';
import type { RawNode, RawSnapshot, RawSplice, SnapshotRequest } from '../../contract/window-driver.js';
import { decodeNode, type NodeTuple } from './encoding.js';
import type { ModelBase, ModelRead } from './model.js';

/**
 * Set to `0` to read every snapshot by a full walk: the bench's in-run reference for the incremental
 * reads. An internal switch, not part of any public surface.
 */
export const INCREMENTAL_SWITCH = 'STAGEGRAPH_INCREMENTAL_SNAPSHOT';

/** The last whole-document read of a page, and the model version it stands for. */
interface Cached {
  readonly version: number;
  readonly snapshot: RawSnapshot;
}

const cache = new WeakMap<Page, Cached>();

/** Whether the in-page model can answer this request: the whole document, without boxes. */
export function servedByModel(request: SnapshotRequest): boolean {
  return (
    process.env[INCREMENTAL_SWITCH] !== '0' &&
    request.within === undefined &&
    request.interactiveOnly !== true &&
    request.depth === undefined &&
    request.bounds === false
  );
}

/** The read the next one may be answered relative to; null when there is none. */
export function cachedRead(page: Page): Cached | null {
  return cache.get(page) ?? null;
}

export function baseOf(cached: Cached | null): ModelBase | null {
  return cached ? { documentId: cached.snapshot.documentId, version: cached.version } : null;
}

/** Keeps a read as the page's latest, unless a later one (by model version) was kept meanwhile. */
export function remember(page: Page, version: number, snapshot: RawSnapshot): void {
  const known = cache.get(page);
  if (!known || known.version <= version || known.snapshot.documentId !== snapshot.documentId)
    cache.set(page, { version, snapshot });
}

export function forget(page: Page): void {
  cache.delete(page);
}

type Delta = Extract<ModelRead, { kind: 'delta' }>;

interface Replacement {
  readonly nodes: RawNode[];
  /** A whole subtree (its extent in the base is found by parentage), or one node alone. */
  readonly subtree: boolean;
}

/**
 * The base read with the model's re-walked subtrees and re-described ancestors spliced in; null when the
 * delta does not fit the base (a key missing, a parent moved, regions overlapping): the caller then walks
 * the page afresh. Replacements equal to what they replace are left out, so a change that changed nothing
 * the snapshot shows costs nothing downstream.
 */
export function applyDelta(base: RawSnapshot, delta: Delta): RawSnapshot | null {
  const wanted = new Map<number, Replacement>();
  for (const region of delta.regions)
    wanted.set(region.key, { nodes: (region.nodes as NodeTuple[]).map(decodeNode), subtree: true });
  for (const tuple of delta.described) {
    const node = decodeNode(tuple as NodeTuple);
    if (!wanted.has(node.key)) wanted.set(node.key, { nodes: [node], subtree: false });
  }
  const old = base.nodes;
  const found: { from: number; replacement: Replacement }[] = [];
  for (let index = 0; index < old.length && found.length < wanted.size; index += 1) {
    const replacement = wanted.get((old[index] as RawNode).key);
    if (replacement) found.push({ from: index, replacement });
  }
  if (found.length !== wanted.size) return null;
  const parts: RawNode[][] = [];
  const splices: RawSplice[] = [];
  let cursor = 0;
  let reach = 0;
  let length = 0;
  for (const { from, replacement } of found) {
    if (from < reach) return null;
    const removed = replacement.subtree ? extentOf(old, from) : 1;
    reach = from + removed;
    const first = replacement.nodes[0];
    if (!first || first.parent !== (old[from] as RawNode).parent) return null;
    if (sameNodes(old, from, removed, replacement.nodes)) continue;
    parts.push(old.slice(cursor, from) as RawNode[]);
    length += from - cursor;
    splices.push({ from, removed, at: length, inserted: replacement.nodes.length });
    parts.push(replacement.nodes);
    length += replacement.nodes.length;
    cursor = from + removed;
  }
  const nodes = splices.length === 0 ? old : ([] as RawNode[]).concat(...parts, old.slice(cursor));
  return {
    documentId: base.documentId,
    url: delta.url,
    title: delta.title,
    nodes,
    detached: delta.detached,
    incremental: { base, splices },
  };
}

/** How many nodes the subtree rooted at `from` spans in pre-order. */
function extentOf(nodes: readonly RawNode[], from: number): number {
  const inside = new Set<number>([(nodes[from] as RawNode).key]);
  let end = from + 1;
  while (end < nodes.length && inside.has((nodes[end] as RawNode).parent as number)) {
    inside.add((nodes[end] as RawNode).key);
    end += 1;
  }
  return end - from;
}

function sameNodes(old: readonly RawNode[], from: number, count: number, nodes: readonly RawNode[]): boolean {
  if (count !== nodes.length) return false;
  for (let i = 0; i < count; i += 1)
    if (!sameNode(old[from + i] as RawNode, nodes[i] as RawNode)) return false;
  return true;
}

function sameNode(a: RawNode, b: RawNode): boolean {
  return (
    a.key === b.key &&
    a.parent === b.parent &&
    a.role === b.role &&
    a.name === b.name &&
    a.interactive === b.interactive &&
    a.value === b.value &&
    a.description === b.description &&
    a.level === b.level &&
    a.secret === b.secret &&
    a.url === b.url &&
    a.optionCount === b.optionCount &&
    a.bbox === undefined &&
    b.bbox === undefined &&
    a.states.length === b.states.length &&
    a.states.every((state, index) => b.states[index] === state)
  );
}
