import type { Snapshot, SnapshotNode } from './snapshot.js';

/** Two spaces per level: enough to read the tree, cheap in tokens. */
const INDENT = '  ';

/**
 * A page of nodes as compact text, one line a node: `e7 button "Edit" = "value" [disabled focused]`,
 * indented by depth in the snapshot. For agents that read a window to decide what to do, it carries the
 * same facts as `{ ref role name value states }` in about half the characters of the JSON.
 */
export function outline(snapshot: Snapshot, nodes: readonly SnapshotNode[]): string {
  const depths = new Map<string, number>();
  for (const node of snapshot.nodes) {
    depths.set(node.ref, node.parentRef === null ? 0 : (depths.get(node.parentRef) ?? -1) + 1);
  }
  return nodes.map((node) => INDENT.repeat(depths.get(node.ref) ?? 0) + outlineLine(node)).join('\n');
}

/** A node's outline line without its indentation. */
export function outlineLine(node: SnapshotNode): string {
  const name = node.name ? ` ${JSON.stringify(node.name)}` : '';
  const value = node.value ? ` = ${JSON.stringify(node.value)}` : '';
  const states = node.states.length > 0 ? ` [${node.states.join(' ').toLowerCase()}]` : '';
  const level = node.level === null ? '' : ` level=${node.level}`;
  return `${node.ref} ${node.role}${name}${value}${level}${states}`;
}
