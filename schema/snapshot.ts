import {
  type FindRequest,
  findNodes,
  readNode,
  readSnapshot,
  type SnapshotView,
} from '../resolvers/interaction/snapshot-read.js';
import type { ChangedNode, RemovedNode, SnapshotDiff } from '../resolvers/snapshot/diff.js';
import { outline } from '../resolvers/snapshot/outline.js';
import type { Snapshot, SnapshotNode } from '../resolvers/snapshot/snapshot.js';
import type { NodeField } from '../resolvers/snapshot/token-estimate.js';
import type { NodeState } from '../transports/window-driver.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { selectedFields } from './selection.js';
import { BoundsRef, WindowRef } from './window.js';

const NODE_STATES = [
  'DISABLED',
  'CHECKED',
  'MIXED',
  'EXPANDED',
  'COLLAPSED',
  'SELECTED',
  'FOCUSED',
  'REQUIRED',
  'READONLY',
  'PRESSED',
] as const satisfies readonly NodeState[];

const NodeStateEnum = builder.enumType('NodeState', {
  description: 'A state a node is in; absent states are false (COLLAPSED: expandable and closed).',
  values: NODE_STATES,
});

/** A node travels with the snapshot it was read in, so its graph fields can walk that snapshot. */
export interface NodeInSnapshot {
  readonly node: SnapshotNode;
  readonly snapshot: Snapshot | null;
}

export const inSnapshot = (snapshot: Snapshot | null) => (node: SnapshotNode) => ({ node, snapshot });

export const SnapshotNodeRef = builder.objectRef<NodeInSnapshot>('SnapshotNode');
SnapshotNodeRef.implement({
  description:
    "A node of a window's accessibility tree. Select only what you need: `{ ref role name }` costs a few tokens a node.",
  fields: (t) => ({
    ref: t.id({
      description: 'Stable across re-renders of the same document; use it as a target.',
      resolve: ({ node }) => node.ref,
    }),
    role: t.string({
      description: 'ARIA role, or `text` for a run of text.',
      resolve: ({ node }) => node.role,
    }),
    name: t.string({ description: 'Accessible name (accname 1.2).', resolve: ({ node }) => node.name }),
    value: t.string({
      nullable: true,
      description: 'Form value; secrets read as "[redacted]".',
      resolve: ({ node }) => node.value,
    }),
    description: t.string({ nullable: true, resolve: ({ node }) => node.description }),
    states: t.field({ type: [NodeStateEnum], resolve: ({ node }) => node.states }),
    level: t.int({ nullable: true, resolve: ({ node }) => node.level }),
    bbox: t.field({
      type: BoundsRef,
      nullable: true,
      description: "CSS pixels in the window's viewport; null when the node renders no box.",
      resolve: ({ node }) => node.bbox,
    }),
    interactive: t.boolean({ resolve: ({ node }) => node.interactive }),
    parent: t.field({
      type: SnapshotNodeRef,
      nullable: true,
      resolve: ({ node, snapshot }) => {
        const parent = node.parentRef === null ? undefined : snapshot?.node(node.parentRef);
        return parent ? { node: parent, snapshot } : null;
      },
    }),
    children: t.field({
      type: [SnapshotNodeRef],
      resolve: ({ node, snapshot }) =>
        snapshot ? snapshot.children(node.ref).map(inSnapshot(snapshot)) : [],
    }),
    text: t.string({
      description: 'The visible text of the node and its descendants, capped at 4,000 characters.',
      resolve: ({ node, snapshot }) => (snapshot ? snapshot.text(node.ref) : node.name),
    }),
  }),
});

const RemovedNodeRef = builder.objectRef<RemovedNode>('RemovedNode').implement({
  description: 'A node of the earlier snapshot that is gone, as it was.',
  fields: (t) => ({ ref: t.exposeID('ref'), role: t.exposeString('role'), name: t.exposeString('name') }),
});

const ChangedNodeRef = builder.objectRef<ChangedNode>('ChangedNode').implement({
  description:
    'A node present in both snapshots; only `changedFields` changed, and they hold the new values.',
  fields: (t) => ({
    ref: t.exposeID('ref'),
    changedFields: t.stringList({ resolve: ({ changes }) => Object.keys(changes) }),
    role: t.string({ nullable: true, resolve: ({ changes }) => changes.role ?? null }),
    name: t.string({ nullable: true, resolve: ({ changes }) => changes.name ?? null }),
    value: t.string({ nullable: true, resolve: ({ changes }) => changes.value ?? null }),
    description: t.string({ nullable: true, resolve: ({ changes }) => changes.description ?? null }),
    states: t.field({
      type: [NodeStateEnum],
      nullable: true,
      resolve: ({ changes }) => changes.states ?? null,
    }),
    level: t.int({ nullable: true, resolve: ({ changes }) => changes.level ?? null }),
    bbox: t.field({ type: BoundsRef, nullable: true, resolve: ({ changes }) => changes.bbox ?? null }),
  }),
});

/** A diff travels with the snapshot it ends at, so added nodes can walk their new neighbours. */
export interface DiffInSnapshot {
  readonly diff: SnapshotDiff;
  readonly snapshot: Snapshot | null;
}

export const SnapshotDiffRef = builder.objectRef<DiffInSnapshot>('SnapshotDiff').implement({
  description: 'What changed between two snapshots of one window, by ref.',
  fields: (t) => ({
    from: t.id({ description: 'The earlier snapshot.', resolve: ({ diff }) => diff.from }),
    to: t.id({ resolve: ({ diff }) => diff.to }),
    documentReplaced: t.boolean({
      description: 'The window reloaded or navigated in between: every node is removed and added.',
      resolve: ({ diff }) => diff.documentReplaced,
    }),
    added: t.field({
      type: [SnapshotNodeRef],
      resolve: ({ diff, snapshot }) => diff.added.map(inSnapshot(snapshot)),
    }),
    removed: t.field({ type: [RemovedNodeRef], resolve: ({ diff }) => diff.removed }),
    changed: t.field({ type: [ChangedNodeRef], resolve: ({ diff }) => diff.changed }),
    empty: t.boolean({
      description: 'Nothing changed.',
      resolve: ({ diff }) => diff.added.length + diff.removed.length + diff.changed.length === 0,
    }),
  }),
});

const SnapshotRef = builder.objectRef<SnapshotView>('Snapshot').implement({
  description:
    "A window's accessibility tree at one moment: one page of its nodes, or its diff from an earlier one.",
  fields: (t) => ({
    id: t.id({
      description: 'Pass it as `since` later to get only what changed.',
      resolve: (v) => v.snapshot.id,
    }),
    windowId: t.id({ resolve: (v) => v.snapshot.windowId }),
    url: t.string({ resolve: (v) => v.snapshot.url }),
    title: t.string({ resolve: (v) => v.snapshot.title }),
    takenAt: t.field({ type: 'DateTime', resolve: (v) => v.snapshot.takenAt }),
    rendererReloaded: t.boolean({
      description: "The document was replaced since the window's previous snapshot: older refs are stale.",
      resolve: (v) => v.snapshot.rendererReloaded,
    }),
    nodes: t.field({
      type: [SnapshotNodeRef],
      description: 'This page of nodes in document order (empty when `since` was given: read `diff`).',
      resolve: (v) => v.page.nodes.map(inSnapshot(v.snapshot)),
    }),
    outline: t.string({
      description:
        'This page of nodes as compact text, one indented line a node: `e7 button "Edit" = "value" [disabled]`. The cheapest way to read a window.',
      resolve: (v) => outline(v.snapshot, v.page.nodes),
    }),
    root: t.field({
      type: SnapshotNodeRef,
      resolve: (v) => ({ node: v.snapshot.root, snapshot: v.snapshot }),
    }),
    totalNodes: t.int({ resolve: (v) => v.snapshot.nodes.length }),
    hasMore: t.boolean({ resolve: (v) => v.page.hasMore }),
    endCursor: t.string({
      nullable: true,
      description: 'Pass as `after` to continue this same snapshot.',
      resolve: (v) => v.page.endCursor,
    }),
    truncated: t.boolean({
      description: 'budgetTokens ended this page early.',
      resolve: (v) => v.page.truncated,
    }),
    estimatedTokens: t.int({
      description: 'Estimated tokens of `nodes` with the fields selected on them.',
      resolve: (v) => v.page.estimatedTokens,
    }),
    diff: t.field({
      type: SnapshotDiffRef,
      nullable: true,
      resolve: (v) => (v.diff ? { diff: v.diff, snapshot: v.snapshot } : null),
    }),
  }),
});

builder.objectFields(WindowRef, (t) => ({
  snapshot: t.field({
    type: SnapshotRef,
    description: 'Reads the window as an accessibility graph; refs stay stable across re-renders.',
    ...requiresCapability('SNAPSHOT'),
    args: {
      interactiveOnly: t.arg.boolean({ required: false }),
      within: t.arg.id({ required: false, description: 'A ref: only its subtree.' }),
      depth: t.arg.int({ required: false, description: 'Levels below the root.' }),
      since: t.arg.string({ required: false, description: '"LAST" or a snapshot id: return `diff` only.' }),
      first: t.arg.int({ required: false }),
      after: t.arg.string({ required: false, description: 'An endCursor: the next page of that snapshot.' }),
      budgetTokens: t.arg.int({ required: false, description: 'Stop the page before this many tokens.' }),
    },
    resolve: (window, args, { sessions }, info) =>
      readSnapshot(sessions.get(window.sessionId), window.id, {
        ...args,
        fields: selectedFields(info, ['nodes']) as NodeField[],
        outline: selectedFields(info, []).includes('outline'),
      }),
  }),
  find: t.field({
    type: [SnapshotNodeRef],
    description: 'Nodes of a fresh read that match every condition given, in document order.',
    ...requiresCapability('SNAPSHOT'),
    args: {
      role: t.arg.string({ required: false }),
      name: t.arg.string({ required: false, description: 'The whole name, exactly.' }),
      nameContains: t.arg.string({ required: false, description: 'Case-insensitive.' }),
      nameRegex: t.arg.string({ required: false }),
      visible: t.arg.boolean({ required: false }),
      enabled: t.arg.boolean({ required: false }),
      first: t.arg.int({ required: false }),
    },
    resolve: async (window, args: Omit<FindRequest, 'bounds'>, { sessions }, info) => {
      const session = sessions.get(window.sessionId);
      const nodes = await findNodes(session, window.id, {
        ...args,
        bounds: selectedFields(info, []).includes('bbox'),
      });
      return nodes.map(inSnapshot(session.snapshots.last(window.id) ?? null));
    },
  }),
  node: t.field({
    type: SnapshotNodeRef,
    description: 'One node by ref, as the window shows it now.',
    ...requiresCapability('SNAPSHOT'),
    args: { ref: t.arg.id({ required: true }) },
    resolve: async (window, args, { sessions }) => {
      const session = sessions.get(window.sessionId);
      const node = await readNode(session, window.id, String(args.ref));
      return { node, snapshot: session.snapshots.last(window.id) ?? null };
    },
  }),
}));
