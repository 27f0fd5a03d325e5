import type { Bounds } from '../../contract/bounds.js';
import {
  type RawNode,
  type RawSnapshot,
  REDACTED_VALUE,
  type SnapshotRequest,
} from '../../contract/window-driver.js';
import { type AtspiBus, whenGone } from '../bus/atspi-bus.js';
import { isInteractiveRole, isRangeRole, isSecretRole } from './atspi-roles.js';
import { hasState, nodeStates } from './atspi-states.js';
import type { TreeNode, WindowTree } from './tree-read.js';

/** Screen coordinates (AT-SPI's ATSPI_COORD_TYPE_SCREEN) for Component.GetExtents. */
export const SCREEN_COORDS = 0;

/** What the snapshot reads beyond the tree: values and boxes, each node's calls all in flight at once. */
export interface NodeExtras {
  readonly value?: string;
  readonly bbox?: Bounds;
}

export function isSecret(node: TreeNode, secrets: ReadonlySet<number>): boolean {
  return isSecretRole(node.roleNumber) || secrets.has(node.key);
}

export function isInteractive(node: TreeNode): boolean {
  return isInteractiveRole(node.role, hasState(node.states, 'SELECTABLE'), node.interfaces.has('Action'));
}

/**
 * A control's current value: its text (Text.GetText) for text fields, Value.CurrentValue for ranges,
 * the toolkit's own name for a labelled combo box (GTK names a combo after its active item). A secret's
 * text is never read.
 */
export async function controlValue(
  bus: AtspiBus,
  node: TreeNode,
  secrets: ReadonlySet<number>,
): Promise<string | undefined> {
  if (isSecret(node, secrets)) return REDACTED_VALUE;
  const { ref } = node;
  if (isRangeRole(node.role) && node.interfaces.has('Value')) {
    const value = await bus.property(ref, 'org.a11y.atspi.Value', 'CurrentValue').catch(whenGone(undefined));
    return value === undefined ? undefined : String(value);
  }
  if (node.role === 'combobox') return node.ownName;
  if (node.role === 'textbox' && node.interfaces.has('Text')) {
    const [text] = await bus
      .call(ref.busName, ref.path, 'org.a11y.atspi.Text', 'GetText', 'ii', [0, -1])
      .catch(whenGone(['']));
    return String(text);
  }
  return undefined;
}

/** The node's extents on the screen; null when it has no box (no Component, or nothing drawn). */
export async function screenExtents(bus: AtspiBus, node: TreeNode): Promise<Bounds | null> {
  if (!node.interfaces.has('Component')) return null;
  const [extents] = await bus
    .call(node.ref.busName, node.ref.path, 'org.a11y.atspi.Component', 'GetExtents', 'u', [SCREEN_COORDS])
    .catch(whenGone([null]));
  if (!Array.isArray(extents)) return null;
  const [x, y, width, height] = extents as number[];
  if (!width || !height || width <= 0 || height <= 0) return null;
  return { x: x ?? 0, y: y ?? 0, width, height };
}

export function rawNode(
  node: TreeNode,
  parent: number | null,
  extras: NodeExtras,
  secrets: ReadonlySet<number>,
): RawNode {
  const secret = isSecret(node, secrets);
  return {
    key: node.key,
    parent,
    role: node.role,
    name: node.name,
    ...(extras.value === undefined ? {} : { value: secret ? REDACTED_VALUE : extras.value }),
    ...(node.description ? { description: node.description } : {}),
    states: nodeStates(node.states, node.role),
    ...(extras.bbox ? { bbox: extras.bbox } : {}),
    interactive: isInteractive(node),
    ...(secret ? { secret: true } : {}),
    atspiRole: node.atspiRole,
    atspiPath: node.ref.path,
  };
}

/** Reads one node's extras (value and, when asked, its box relative to `origin`). */
export async function extrasOf(
  bus: AtspiBus,
  node: TreeNode,
  secrets: ReadonlySet<number>,
  origin: { readonly x: number; readonly y: number } | null,
): Promise<NodeExtras> {
  const [value, extents] = await Promise.all([
    controlValue(bus, node, secrets),
    origin ? screenExtents(bus, node) : null,
  ]);
  return {
    ...(value === undefined ? {} : { value }),
    ...(extents && origin ? { bbox: { ...extents, x: extents.x - origin.x, y: extents.y - origin.y } } : {}),
  };
}

/**
 * The snapshot of a read tree: unnamed generic containers left out (their children go to the nearest
 * included ancestor, as the DOM walker does with plain divs), nodes covered by an ancestor's name from
 * content left out unless an agent acts on them, then `within`, `interactiveOnly` and `depth`. Boxes are
 * in pixels from the window's top-left corner — the frame's extents — so they line up with the window's
 * screenshot.
 */
export async function snapshotOf(
  bus: AtspiBus,
  tree: WindowTree,
  request: SnapshotRequest,
  secrets: ReadonlySet<number>,
  documentId: string,
  detached: readonly number[],
): Promise<RawSnapshot | null> {
  const root = request.within === undefined ? tree.root : tree.byKey.get(request.within);
  if (!root) return null;
  const maxDepth = request.depth ?? Number.POSITIVE_INFINITY;
  const chosen: { node: TreeNode; parent: number | null }[] = [];
  const visit = (node: TreeNode, parent: number | null, depth: number) => {
    const included =
      node === root ||
      (request.interactiveOnly
        ? isInteractive(node)
        : (node.role !== 'generic' || node.name !== '') && (!node.covered || isInteractive(node)));
    if (included && node !== root && depth + 1 > maxDepth) return;
    if (included) chosen.push({ node, parent });
    const below = included ? node.key : parent;
    const childDepth = included && node !== root ? depth + 1 : depth;
    for (const child of node.children) visit(child, below, childDepth);
  };
  visit(root, null, 0);
  const origin = request.bounds === false ? null : ((await screenExtents(bus, tree.root)) ?? { x: 0, y: 0 });
  const extras = await Promise.all(chosen.map(({ node }) => extrasOf(bus, node, secrets, origin)));
  return {
    documentId,
    url: '',
    title: tree.root.ownName,
    nodes: chosen.map(({ node, parent }, index) => rawNode(node, parent, extras[index] ?? {}, secrets)),
    detached,
  };
}
