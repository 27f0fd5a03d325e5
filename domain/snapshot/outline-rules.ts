import { NAME_FROM_CONTENT_ROLES, type SnapshotNode } from './snapshot.js';

/**
 * What an outline leaves out because another line already says it. Each rule drops only a repetition:
 * every node an agent acts on keeps its line, and every text it would read stays on some line.
 */

/** The nodes an outline is written from: a snapshot, or the nodes a diff added. */
export interface OutlineSource {
  node(ref: string): SnapshotNode | undefined;
}

/**
 * Roles that contribute their value, not their name, to an ancestor's name from content (accname 1.2,
 * step 2C: an embedded control reads as its value), so a cell holding a select is named by its choice.
 */
const VALUE_ROLES: ReadonlySet<string> = new Set([
  'combobox',
  'textbox',
  'searchbox',
  'spinbutton',
  'slider',
]);

/** Option lists fold into their select's line; `within` the select lists them. */
const OPTION_ROLES: ReadonlySet<string> = new Set(['option', 'group']);

/**
 * The node is an option (or option group) of a select other than `rootRef`: the select's line says the
 * chosen value and how many options there are, and `snapshot(within:)` on the select lists them.
 */
export function isCollapsedOption(
  source: OutlineSource,
  node: SnapshotNode,
  rootRef: string | null,
): boolean {
  if (!OPTION_ROLES.has(node.role)) return false;
  for (let parent = parentOf(source, node); parent; parent = parentOf(source, parent)) {
    if (parent.role === 'combobox') return parent.ref !== rootRef;
    if (!OPTION_ROLES.has(parent.role)) return false;
  }
  return false;
}

/** A `text` node whose parent's name is exactly its parent's text: the parent's line already shows it. */
export function isFoldedText(source: OutlineSource, node: SnapshotNode): boolean {
  if (node.role !== 'text') return false;
  const parent = parentOf(source, node);
  return parent !== undefined && foldsItsText(source, parent);
}

/**
 * Whether the node's line shows its name: not when the name only repeats the text of the lines below it
 * (a row named by its cells, a cell by its button, a heading by its link), which the reader sees anyway.
 * A name that differs in anything but white space (an aria-label, a title) is always shown.
 */
export function showsName(source: OutlineSource, node: SnapshotNode): boolean {
  if (node.name === '' || node.childRefs.length === 0 || foldsItsText(source, node)) return true;
  const name = squash(node.name);
  const content = contentOf(source, node, name.length);
  return content === null || content !== name;
}

/** Named, with only `text` children that together read as its name: one line can say both. */
function foldsItsText(source: OutlineSource, node: SnapshotNode): boolean {
  if (node.name === '' || node.childRefs.length === 0) return false;
  const name = squash(node.name);
  let text = '';
  for (const ref of node.childRefs) {
    const child = source.node(ref);
    if (child?.role !== 'text') return false;
    text += squash(child.name);
    // Asked once per text child: stopping at the name's length keeps a long run of texts linear.
    if (text.length > name.length) return false;
  }
  return text === name;
}

/**
 * The text of the node's descendants as a name from content would read it, without white space; null when
 * a descendant is not in the source. Stops once longer than `limit`: no longer than the name, or no match.
 */
function contentOf(source: OutlineSource, node: SnapshotNode, limit: number): string | null {
  let content = '';
  const stack = [...node.childRefs].reverse();
  while (stack.length > 0 && content.length <= limit) {
    const descendant = source.node(stack.pop()!);
    if (!descendant) return null;
    const own = contribution(descendant);
    if (own === null)
      for (let i = descendant.childRefs.length - 1; i >= 0; i -= 1) stack.push(descendant.childRefs[i]!);
    else content += squash(own);
  }
  return content;
}

/** What a descendant adds to its ancestor's name, or null when its own descendants speak for it. */
function contribution(node: SnapshotNode): string | null {
  if (node.role === 'text') return node.name;
  if (VALUE_ROLES.has(node.role)) return node.value ?? '';
  if (node.name !== '' && NAME_FROM_CONTENT_ROLES.has(node.role)) return node.name;
  return null;
}

function parentOf(source: OutlineSource, node: SnapshotNode): SnapshotNode | undefined {
  return node.parentRef === null ? undefined : source.node(node.parentRef);
}

/** Names are compared without white space: walkers disagree on spaces between inline elements, not on words. */
function squash(text: string): string {
  return text.replace(/\s+/g, '');
}
