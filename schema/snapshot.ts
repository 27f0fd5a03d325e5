import { quietDiff, type SnapshotDiff } from '../domain/snapshot/diff.js';
import { outline } from '../domain/snapshot/outline.js';
import type { Snapshot, SnapshotNode } from '../domain/snapshot/snapshot.js';
import {
  type FindRequest,
  findNodes,
  readNode,
  readSnapshot,
  type SnapshotView,
} from '../domain/snapshot/snapshot-read.js';
import type { NodeField } from '../domain/snapshot/token-estimate.js';
import {
  CLIENT_PATTERN_DEADLINE_MS,
  CLIENT_PATTERN_MAX_CHARS,
} from '../transports/contract/client-pattern.js';
import type { NodeState } from '../transports/contract/window-driver.js';
import { builder } from './builder.js';
import { LoadStateEnum } from './load-state.js';
import { selectedFields } from './selection.js';
import { BoundsRef, WindowRef } from './window.js';

const NODE_STATES = {
  DISABLED: {
    description: 'Disabled: natively, by a disabled fieldset, or by aria-disabled on it or an ancestor.',
  },
  CHECKED: { description: 'A checkbox, radio, switch or checkable item that is checked.' },
  MIXED: {
    description: 'Neither checked nor unchecked (an indeterminate checkbox), or aria-pressed="mixed".',
  },
  EXPANDED: { description: 'Expandable and open (aria-expanded="true", an open <details> summary).' },
  COLLAPSED: { description: 'Expandable and closed.' },
  SELECTED: { description: 'A selected option, tab, row or item.' },
  FOCUSED: { description: 'Has keyboard focus.' },
  REQUIRED: { description: 'A form control that must be filled in.' },
  READONLY: { description: 'A field whose value can be read but not edited.' },
  PRESSED: { description: 'A toggle button that is pressed (aria-pressed="true").' },
} as const satisfies Record<NodeState, { description: string }>;

export const NodeStateEnum = builder.enumType('NodeState', {
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
    description: t.string({
      nullable: true,
      description: 'Accessible description (aria-describedby, title); null when it has none.',
      resolve: ({ node }) => node.description,
    }),
    states: t.field({
      type: [NodeStateEnum],
      description: 'The states it is in; any state not listed is false.',
      resolve: ({ node }) => node.states,
    }),
    level: t.int({
      nullable: true,
      description:
        'Heading level (1-6) or nesting level of tree and list items (aria-level); null when none.',
      resolve: ({ node }) => node.level,
    }),
    bbox: t.field({
      type: BoundsRef,
      nullable: true,
      description: "CSS pixels in the window's viewport; null when the node renders no box.",
      resolve: ({ node }) => node.bbox,
    }),
    atspiRole: t.string({
      nullable: true,
      description:
        "A desktop node's AT-SPI role name as the toolkit reports it (`push button`, `password text`), beside the ARIA `role` it maps to; null for page nodes.",
      resolve: ({ node }) => node.atspiRole ?? null,
    }),
    atspiPath: t.string({
      nullable: true,
      description:
        "A desktop node's AT-SPI object path on its application's accessibility bus (`/org/a11y/atspi/accessible/12`), for tools such as accerciser; null for page nodes.",
      resolve: ({ node }) => node.atspiPath ?? null,
    }),
    interactive: t.boolean({
      description: 'True for what an agent acts on: links, buttons, form controls, focusable widgets.',
      resolve: ({ node }) => node.interactive,
    }),
    parent: t.field({
      type: SnapshotNodeRef,
      nullable: true,
      description:
        "Its nearest ancestor in the same snapshot; null for the snapshot's root and for a node read alone (an action's `target` and `diff`).",
      resolve: ({ node, snapshot }) => {
        const parent = node.parentRef === null ? undefined : snapshot?.node(node.parentRef);
        return parent ? { node: parent, snapshot } : null;
      },
    }),
    children: t.field({
      type: [SnapshotNodeRef],
      description:
        'The nodes of the same snapshot directly under it, in document order (with interactiveOnly: its nearest interactive descendants); empty for a node read alone.',
      resolve: ({ node, snapshot }) =>
        snapshot ? snapshot.children(node.ref).map(inSnapshot(snapshot)) : [],
    }),
    text: t.string({
      description:
        'The visible text of the node and its descendants, capped at 4,000 characters (then "…"); a node read alone gives its name.',
      resolve: ({ node, snapshot }) => (snapshot ? snapshot.text(node.ref) : node.name),
    }),
  }),
});

/** A diff travels with the snapshot it ends at, so added nodes can walk their new neighbours. */
export interface DiffInSnapshot {
  readonly diff: SnapshotDiff;
  readonly snapshot: Snapshot | null;
}

/** A diff as a field answers it: without what changes on its own when the caller asked for `quiet`. */
export function diffInSnapshot(
  diff: SnapshotDiff,
  snapshot: Snapshot | null,
  quiet: boolean | null | undefined,
): DiffInSnapshot {
  return { diff: quiet ? quietDiff(diff) : diff, snapshot };
}

/** The `quiet` argument of every field that answers a diff. */
export const QUIET_DIFF =
  'Leave out what the window changes on its own: nodes seen changing (a clock, a ticking counter, a spinner) between two reads of the same scope with no action of this gateway in between, twice or more. `leftOut` counts what was left out. Default false.';

/** Declared here for the fields that return it; its fields are in snapshot-diff.ts. */
export const SnapshotDiffRef = builder.objectRef<DiffInSnapshot>('SnapshotDiff');

export const SnapshotRef = builder.objectRef<SnapshotView>('Snapshot').implement({
  description:
    "A window's accessibility tree at one moment: one page of its nodes, or its diff from an earlier one.",
  fields: (t) => ({
    id: t.id({
      description: 'Pass it as `since` later to get only what changed.',
      resolve: (v) => v.snapshot.id,
    }),
    windowId: t.id({ description: 'The window it was read from.', resolve: (v) => v.snapshot.windowId }),
    url: t.string({ description: "The document's URL when it was read.", resolve: (v) => v.snapshot.url }),
    title: t.string({
      description: "The document's title when it was read.",
      resolve: (v) => v.snapshot.title,
    }),
    takenAt: t.field({
      type: 'DateTime',
      description: 'When it was read.',
      resolve: (v) => v.snapshot.takenAt,
    }),
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
      description: 'The root of the snapshot (the document, or the `within` node); walk `children` from it.',
      resolve: (v) => ({ node: v.snapshot.root, snapshot: v.snapshot }),
    }),
    totalNodes: t.int({
      description: 'Nodes in the whole snapshot, over all its pages.',
      resolve: (v) => v.snapshot.nodes.length,
    }),
    hasMore: t.boolean({
      description: 'More nodes follow this page: pass `endCursor` as `after`.',
      resolve: (v) => v.page.hasMore,
    }),
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
      description:
        'Estimated tokens of this page in the forms selected beside it: `nodes` with the fields selected on them, plus `outline` when selected. Selected alone, it prices the page as `outline` (the cheapest faithful form, the one next actions suggest), so the cost of a read is known before paying it; `budgetTokens` pages by the same price.',
      resolve: (v) => v.page.estimatedTokens,
    }),
    diff: t.field({
      type: SnapshotDiffRef,
      nullable: true,
      description:
        "With `since`: what changed from that snapshot to this one, read with that snapshot's scope; null otherwise.",
      args: { quiet: t.arg.boolean({ required: false, defaultValue: false, description: QUIET_DIFF }) },
      resolve: (v, args) => (v.diff ? diffInSnapshot(v.diff, v.snapshot, args.quiet) : null),
    }),
  }),
});

builder.objectFields(WindowRef, (t) => ({
  snapshot: t.field({
    type: SnapshotRef,
    description: 'Reads the window as an accessibility graph; refs stay stable across re-renders.',
    requiresCapability: 'SNAPSHOT',
    args: {
      interactiveOnly: t.arg.boolean({
        required: false,
        description:
          'Only interactive nodes (links, buttons, form controls, focusable widgets), each under its nearest kept ancestor; the root is always kept. Default false.',
      }),
      within: t.arg.id({ required: false, description: 'A ref: only its subtree.' }),
      depth: t.arg.int({ required: false, description: 'Levels below the root.' }),
      since: t.arg.string({ required: false, description: '"LAST" or a snapshot id: return `diff` only.' }),
      first: t.arg.int({
        required: false,
        description:
          'At most this many nodes in this page (a whole number >= 0); default: all, within budgetTokens.',
      }),
      after: t.arg.string({ required: false, description: 'An endCursor: the next page of that snapshot.' }),
      budgetTokens: t.arg.int({ required: false, description: 'Stop the page before this many tokens.' }),
      waitFor: t.arg({
        type: LoadStateEnum,
        required: false,
        description:
          'Read once the document has loaded this far (at most 30 s; `loadReached` says if it did).',
      }),
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
    requiresCapability: 'SNAPSHOT',
    args: {
      role: t.arg.string({
        required: false,
        description: 'Only nodes of this role, exactly (button, textbox, heading, text, ...).',
      }),
      name: t.arg.string({ required: false, description: 'The whole name, exactly.' }),
      nameContains: t.arg.string({ required: false, description: 'Case-insensitive.' }),
      nameRegex: t.arg.string({
        required: false,
        description: `A JavaScript regular expression the name matches (case-sensitive), at most ${CLIENT_PATTERN_MAX_CHARS} characters, matched in ${CLIENT_PATTERN_DEADLINE_MS} ms at most (docs/reliability.md); BAD_INPUT if invalid, longer, or slower.`,
      }),
      visible: t.arg.boolean({
        required: false,
        description: 'true: only nodes that render a box; false: only nodes that render none.',
      }),
      enabled: t.arg.boolean({
        required: false,
        description: 'true: only nodes without DISABLED; false: only DISABLED ones.',
      }),
      first: t.arg.int({
        required: false,
        description: 'At most this many matches, the earliest in document order.',
      }),
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
    requiresCapability: 'SNAPSHOT',
    args: {
      ref: t.arg.id({
        required: true,
        description:
          'A ref from a snapshot of this window. REF_STALE (with similar refs) when its element has left the page, REF_NOT_FOUND when never issued, BAD_INPUT when it belongs to another window.',
      }),
    },
    resolve: async (window, args, { sessions }) => {
      const session = sessions.get(window.sessionId);
      const node = await readNode(session, window.id, String(args.ref));
      return { node, snapshot: session.snapshots.last(window.id) ?? null };
    },
  }),
}));
