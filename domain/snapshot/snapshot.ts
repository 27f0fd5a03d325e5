import type { Bounds } from '../../transports/contract/bounds.js';
import {
  type NodeState,
  type RawNode,
  REDACTED_VALUE,
  type SnapshotRequest,
} from '../../transports/contract/window-driver.js';

/**
 * `text` of a node is capped: the root of the 5,000-row bench page reads as hundreds of kilobytes, which
 * no agent wants in one field. ~4,000 characters is about 1,000 tokens, enough for a dialog or a card.
 */
export const MAX_TEXT_CHARS = 4_000;

/** What a capped text ends with, so a reader knows there is more. */
export const TEXT_ELLIPSIS = '…';

/**
 * Roles whose accessible name is computed from their content (WAI-ARIA 1.2, "name from: contents"): for
 * them the name already is the visible text, so `text` need not walk their subtree.
 */
export const NAME_FROM_CONTENT_ROLES: ReadonlySet<string> = new Set([
  'button',
  'cell',
  'checkbox',
  'columnheader',
  'gridcell',
  'heading',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'row',
  'rowheader',
  'sectionhead',
  'switch',
  'tab',
  'tooltip',
  'treeitem',
]);

/** One node of a recorded snapshot; absent facts are null so the schema layer maps them one to one. */
export interface SnapshotNode {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
  readonly value: string | null;
  readonly description: string | null;
  readonly states: readonly NodeState[];
  readonly level: number | null;
  readonly bbox: Bounds | null;
  readonly interactive: boolean;
  /** A link's absolute URL; null for anything else. Shown in outlines, not a field of its own. */
  readonly url: string | null;
  /** A native select's option count; null for anything else. Lets an outline collapse the options. */
  readonly optionCount: number | null;
  /** A desktop node's AT-SPI role name and object path; absent for page nodes. */
  readonly atspiRole?: string;
  readonly atspiPath?: string;
  readonly parentRef: string | null;
  readonly childRefs: readonly string[];
}

/**
 * The domain node for a walker's node. `childRefs` is the caller's list, filled as later nodes arrive, so a
 * snapshot is built in one pass over document order.
 */
export function toSnapshotNode(
  raw: RawNode,
  ref: string,
  parentRef: string | null,
  childRefs: readonly string[],
): SnapshotNode {
  // One literal of one shape for every page node (a spread in it would cost a copy per node); the AT-SPI
  // facts are added after, on desktop nodes only.
  const node: { -readonly [K in keyof SnapshotNode]: SnapshotNode[K] } = {
    ref,
    role: raw.role,
    name: raw.name,
    // The walker already redacts secrets; redacting again here means one walker bug cannot leak one.
    value: raw.secret ? REDACTED_VALUE : (raw.value ?? null),
    description: raw.description ?? null,
    states: raw.states,
    level: raw.level ?? null,
    bbox: raw.bbox ?? null,
    interactive: raw.interactive,
    url: raw.url ?? null,
    optionCount: raw.optionCount ?? null,
    parentRef,
    childRefs,
  };
  if (raw.atspiRole !== undefined) node.atspiRole = raw.atspiRole;
  if (raw.atspiPath !== undefined) node.atspiPath = raw.atspiPath;
  return node;
}

export interface SnapshotHeader {
  /** `<windowId>#<n>`: unique within the session, so `since:` can name it. */
  readonly id: string;
  /** The session whose window it was read from: lazy node fields (textContent) reach the window through it. */
  readonly sessionId: string;
  readonly windowId: string;
  readonly documentId: string;
  readonly url: string;
  readonly title: string;
  readonly takenAt: Date;
  /** The window's previous snapshot showed another document: every earlier ref of it is stale. */
  readonly rendererReloaded: boolean;
  /** What the snapshot was asked to cover; a partial scope omits nodes that still exist. */
  readonly scope: SnapshotRequest;
}

/** A window's accessibility tree at one moment, nodes in document order and addressed by ref. */
export class Snapshot implements SnapshotHeader {
  readonly id: string;
  readonly sessionId: string;
  readonly windowId: string;
  readonly documentId: string;
  readonly url: string;
  readonly title: string;
  readonly takenAt: Date;
  readonly rendererReloaded: boolean;
  readonly scope: SnapshotRequest;
  readonly nodes: readonly SnapshotNode[];
  /** Built on first lookup: listing a snapshot's nodes, the commonest use, never needs it. */
  #byRef: Map<string, SnapshotNode> | undefined;

  /** `nodes` must be in document order with the root first, each parent before its children. */
  constructor(header: SnapshotHeader, nodes: readonly SnapshotNode[]) {
    if (nodes.length === 0) throw new Error(`snapshot ${header.id} has no root node`);
    this.id = header.id;
    this.sessionId = header.sessionId;
    this.windowId = header.windowId;
    this.documentId = header.documentId;
    this.url = header.url;
    this.title = header.title;
    this.takenAt = header.takenAt;
    this.rendererReloaded = header.rendererReloaded;
    this.scope = header.scope;
    this.nodes = nodes;
  }

  get root(): SnapshotNode {
    return this.nodes[0]!;
  }

  node(ref: string): SnapshotNode | undefined {
    this.#byRef ??= new Map(this.nodes.map((node) => [node.ref, node]));
    return this.#byRef.get(ref);
  }

  children(ref: string): SnapshotNode[] {
    return (this.node(ref)?.childRefs ?? []).map((child) => this.node(child)!);
  }

  parent(ref: string): SnapshotNode | null {
    const parentRef = this.node(ref)?.parentRef;
    return parentRef == null ? null : (this.node(parentRef) ?? null);
  }

  /**
   * The node's visible text as the graph shows it: a text node's or name-from-content node's own name,
   * else its descendants' texts joined by spaces. Walks only as far as the cap needs, so asking for the
   * root of a huge page costs O(MAX_TEXT_CHARS), not O(nodes).
   */
  text(ref: string): string {
    const start = this.node(ref);
    if (!start) return '';
    const parts: string[] = [];
    let length = 0;
    const stack: SnapshotNode[] = [start];
    while (stack.length > 0 && length <= MAX_TEXT_CHARS) {
      const node = stack.pop()!;
      if (ownsText(node)) {
        const part = node.name.replace(/\s+/g, ' ').trim();
        if (part !== '') {
          parts.push(part);
          length += part.length + 1;
        }
        continue;
      }
      for (let i = node.childRefs.length - 1; i >= 0; i -= 1) stack.push(this.node(node.childRefs[i]!)!);
    }
    const text = parts.join(' ');
    return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) + TEXT_ELLIPSIS : text;
  }
}

/** A nameless button (an icon) still has descendants worth reading, so only a non-empty name stops the walk. */
function ownsText(node: SnapshotNode): boolean {
  if (node.role === 'text') return true;
  return NAME_FROM_CONTENT_ROLES.has(node.role) && node.name.trim() !== '';
}
