import type { Bounds } from '../../transports/contract/bounds.js';
import type { ChangedNode, NodeChanges, SnapshotDiff } from './diff.js';
import { outlineEntries, outlineLine } from './outline.js';

/**
 * A diff as outline lines: `- e4 button "Send"` for a removed node, `~ e2 checkbox "Agree" [checked] (was [])`
 * for a changed one (its line now, then what the changed fields were), `+ e9 dialog "Confirm"` for an added
 * one, added subtrees indented below their added parent and folded as `Snapshot.outline` folds them.
 * After a reload or navigation the removed side is one line: every earlier ref is stale at once.
 */
export function diffOutline(diff: SnapshotDiff): string {
  const lines: string[] = [];
  if (diff.documentReplaced) {
    if (diff.removed.length > 0)
      lines.push(`- ${diff.removed.length} nodes of the replaced document (their refs are stale)`);
  } else {
    for (const node of diff.removed) lines.push(`- ${node.ref} ${node.role}${quoted(node.name)}`);
  }
  for (const change of diff.changed) lines.push(`~ ${changedLine(change, diff.url)}`);
  const added = new Map(diff.added.map((node) => [node.ref, node]));
  const source = { node: (ref: string) => added.get(ref) };
  for (const { depth, line } of outlineEntries(source, diff.added, diff.url))
    lines.push(`+ ${' '.repeat(depth)}${line}`);
  return lines.join('\n');
}

function changedLine({ node, changes, before }: ChangedNode, pageUrl: string): string {
  // An outline line shows neither description nor box, so a change of either shows its new value too.
  const shownNow = [
    'description' in changes ? `description ${valueText(changes.description)}` : '',
    changes.bbox !== undefined ? `box ${boxText(changes.bbox)}` : '',
  ].filter((part) => part !== '');
  const now = shownNow.length > 0 ? ` ${shownNow.join(' ')}` : '';
  return `${outlineLine(node, { pageUrl })}${now} (was ${wasText(before)})`;
}

/** The changed fields' old values, each written as the outline writes that field. */
function wasText(before: NodeChanges): string {
  const parts: string[] = [];
  if (before.role !== undefined) parts.push(before.role);
  if (before.name !== undefined) parts.push(JSON.stringify(before.name));
  if ('value' in before) parts.push(`= ${valueText(before.value)}`);
  if ('description' in before) parts.push(`description ${valueText(before.description)}`);
  if (before.level !== undefined) parts.push(`level=${before.level ?? 'none'}`);
  if (before.states !== undefined) parts.push(`[${before.states.join(' ').toLowerCase()}]`);
  if (before.bbox !== undefined) parts.push(`box ${boxText(before.bbox)}`);
  return parts.join(' ');
}

function quoted(name: string): string {
  return name ? ` ${JSON.stringify(name)}` : '';
}

function valueText(value: string | null | undefined): string {
  return value == null ? 'none' : JSON.stringify(value);
}

function boxText(box: Bounds | null | undefined): string {
  return box == null ? 'none' : `${box.x},${box.y},${box.width},${box.height}`;
}
