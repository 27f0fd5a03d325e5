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
