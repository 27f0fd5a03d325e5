import { outlineLine } from './outline.js';
import type { Snapshot, SnapshotNode } from './snapshot.js';

/**
 * Characters per token: the usual rule of thumb for BPE tokenizers on English and JSON. Estimates steer a
 * budget, they need not be exact; erring by a token or two per node is fine.
 */
export const CHARS_PER_TOKEN = 4;

/**
 * A SnapshotNode field an agent can select: the node's own fields, its graph fields `parent` and `children`
 * (estimated as the minimal selection `{ ref }` under them — a lower bound), and `text`.
 */
export type NodeField = keyof SnapshotNode | 'parent' | 'children' | 'text';

/**
 * Tokens the node costs in a response selecting `fields`: the length of the JSON those fields produce, plus
 * one for the comma that separates list items, over CHARS_PER_TOKEN, rounded up.
 */
export function estimateNodeTokens(
  snapshot: Snapshot,
  node: SnapshotNode,
  fields: readonly NodeField[],
): number {
  const selected: Record<string, unknown> = {};
  for (const field of fields) selected[field] = fieldValue(snapshot, node, field);
  return Math.ceil((JSON.stringify(selected).length + 1) / CHARS_PER_TOKEN);
}

function fieldValue(snapshot: Snapshot, node: SnapshotNode, field: NodeField): unknown {
  switch (field) {
    case 'parent':
      return node.parentRef === null ? null : { ref: node.parentRef };
    case 'children':
      return node.childRefs.map((ref) => ({ ref }));
    case 'text':
      return snapshot.text(node.ref);
    default:
      return node[field];
  }
}

/** What a page of nodes is priced as: the forms the caller selected beside the estimate. */
export interface Pricing {
  /** The fields selected on `nodes`; empty when `nodes` is not selected. */
  readonly fields: readonly NodeField[];
  /** `outline` is selected. */
  readonly outline?: boolean;
}

/**
 * Tokens one node adds to a page read in the selected forms. With neither `nodes` nor `outline` selected
 * the node is priced as its outline line: the estimate then answers "what would reading this cost" before
 * the caller pays for it, in the form the next actions suggest (the cheapest faithful one).
 */
export function estimatePageNodeTokens(snapshot: Snapshot, node: SnapshotNode, pricing: Pricing): number {
  const outline = pricing.outline === true || pricing.fields.length === 0;
  return (
    (pricing.fields.length > 0 ? estimateNodeTokens(snapshot, node, pricing.fields) : 0) +
    (outline ? Math.ceil((outlineLine(node).length + 1) / CHARS_PER_TOKEN) : 0)
  );
}
