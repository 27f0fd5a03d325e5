import { linkTarget } from './link-target.js';
import { isCollapsedOption, isFoldedText, type OutlineSource, showsName } from './outline-rules.js';
import type { Snapshot, SnapshotNode } from './snapshot.js';

/**
 * One space per level: the tree still reads, and on a 5,000-row table two spaces a level were a quarter of
 * the outline's characters.
 */
const INDENT = ' ';

/**
 * A page of nodes as compact text, one line a node: `e7 button "Edit" = "value" [disabled focused]`,
 * indented by depth in the snapshot. It carries what `{ ref role name value states level }` does, minus
 * what another line already says (outline-rules.ts): a select's options fold into its line (listed when the
 * select is the snapshot's `within` root), a row or cell does not repeat its cells' text, and a text node
 * that is all of its parent's name is not listed again. Links show where they go.
 */
export function outline(snapshot: Snapshot, nodes: readonly SnapshotNode[]): string {
  const depths = new Map<string, number>();
  for (const node of snapshot.nodes) {
    depths.set(node.ref, node.parentRef === null ? 0 : (depths.get(node.parentRef) ?? -1) + 1);
  }
  const rootRef = snapshot.root.ref;
  const lines: string[] = [];
  for (const node of nodes) {
    if (isCollapsedOption(snapshot, node, rootRef) || isFoldedText(snapshot, node)) continue;
    const line = outlineLine(node, { pageUrl: snapshot.url, showName: showsName(snapshot, node) });
    lines.push(INDENT.repeat(depths.get(node.ref) ?? 0) + line);
  }
  return lines.join('\n');
}

/**
 * The nodes of `nodes` an outline of `source` lists, each with its depth below the nearest listed
 * ancestor: what a diff's `+` lines are written from.
 */
export function outlineEntries(
  source: OutlineSource,
  nodes: readonly SnapshotNode[],
  pageUrl: string,
): { depth: number; line: string }[] {
  const depths = new Map<string, number>();
  const entries: { depth: number; line: string }[] = [];
  for (const node of nodes) {
    const parentDepth = node.parentRef === null ? undefined : depths.get(node.parentRef);
    const depth = parentDepth === undefined ? 0 : parentDepth + 1;
    depths.set(node.ref, depth);
    if (isCollapsedOption(source, node, null) || isFoldedText(source, node)) continue;
    entries.push({ depth, line: outlineLine(node, { pageUrl, showName: showsName(source, node) }) });
  }
  return entries;
}

export interface LineOptions {
  /** The URL of the page the node is on: its links are shown relative to it. */
  readonly pageUrl?: string;
  /** False when the lines below already say the name (see `showsName`). Default true. */
  readonly showName?: boolean;
}

/**
 * A node's outline line without its indentation:
 * `e7 combobox "Status" = "open" (3 options) level=2 [disabled]`, `e9 link "Docs" <#docs>`.
 */
export function outlineLine(node: SnapshotNode, options: LineOptions = {}): string {
  const name = node.name && options.showName !== false ? ` ${JSON.stringify(node.name)}` : '';
  const value = node.value ? ` = ${JSON.stringify(node.value)}` : '';
  const optionCount =
    node.optionCount === null ? '' : ` (${node.optionCount} option${node.optionCount === 1 ? '' : 's'})`;
  const url = node.url === null ? '' : ` <${linkTarget(node.url, options.pageUrl ?? '')}>`;
  const states = node.states.length > 0 ? ` [${node.states.join(' ').toLowerCase()}]` : '';
  const level = node.level === null ? '' : ` level=${node.level}`;
  return `${node.ref} ${node.role}${name}${value}${optionCount}${url}${level}${states}`;
}
