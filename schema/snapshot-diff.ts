import type { ChangedNode, NodeChanges, RemovedNode } from '../domain/snapshot/diff.js';
import { diffOutline } from '../domain/snapshot/diff-outline.js';
import { type FieldChange, fieldChanges } from '../domain/snapshot/field-changes.js';
import { builder } from './builder.js';
import { inSnapshot, NodeStateEnum, SnapshotDiffRef, SnapshotNodeRef } from './snapshot.js';
import { BoundsRef } from './window.js';

const RemovedNodeRef = builder.objectRef<RemovedNode>('RemovedNode').implement({
  description: 'A node of the earlier snapshot that is gone, as it was.',
  fields: (t) => ({
    ref: t.exposeID('ref', { description: 'Its ref; a target naming it now fails with REF_STALE.' }),
    role: t.exposeString('role', { description: 'Its role then.' }),
    name: t.exposeString('name', { description: 'Its accessible name then.' }),
  }),
});

const FieldChangeRef = builder.objectRef<FieldChange>('FieldChange').implement({
  description:
    'One field of a node, before and after, written as text: states as their names joined by spaces ("" for none), a level as its number, a box as "x,y,width,height".',
  fields: (t) => ({
    field: t.exposeString('field', {
      description: 'The field: role, name, value, description, states, level or bbox.',
    }),
    before: t.exposeString('before', {
      nullable: true,
      description: 'Its value in the earlier snapshot; null when it had none.',
    }),
    after: t.exposeString('after', {
      nullable: true,
      description: 'Its value in the later snapshot; null when it has none.',
    }),
  }),
});

/** The new value of `field` when it changed; null otherwise (what these fields always meant). */
const newValue =
  <K extends keyof NodeChanges>(field: K) =>
  ({ changes }: ChangedNode): NonNullable<NodeChanges[K]> | null =>
    changes[field] ?? null;

const ChangedNodeRef = builder.objectRef<ChangedNode>('ChangedNode').implement({
  description:
    'A node present in both snapshots whose fields differ: what it is now (`ref`, `role`, `name`), and in `changes` each changed field before and after.',
  fields: (t) => ({
    ref: t.exposeID('ref', { description: 'The ref of the node that changed.' }),
    role: t.string({
      description: 'Its role now, whether or not it changed.',
      resolve: ({ node }) => node.role,
    }),
    name: t.string({
      description: 'Its accessible name now, whether or not it changed.',
      resolve: ({ node }) => node.name,
    }),
    changes: t.field({
      type: [FieldChangeRef],
      description: 'Each field that changed, with its value before and after.',
      resolve: ({ changes, before }) => fieldChanges(before, changes),
    }),
    changedFields: t.stringList({
      description:
        'The fields that changed, by name (role, name, value, description, states, level); a null below that is listed here became null.',
      resolve: ({ changes }) => Object.keys(changes),
    }),
    value: t.string({
      nullable: true,
      description: 'The new value, when it changed (secrets read "[redacted]"); null otherwise.',
      resolve: newValue('value'),
    }),
    description: t.string({
      nullable: true,
      description: 'The new accessible description, when it changed; null otherwise.',
      resolve: newValue('description'),
    }),
    states: t.field({
      type: [NodeStateEnum],
      nullable: true,
      description: 'The whole new set of states, when it changed; null otherwise.',
      resolve: newValue('states'),
    }),
    level: t.int({
      nullable: true,
      description: 'The new level, when it changed; null otherwise.',
      resolve: newValue('level'),
    }),
    bbox: t.field({
      type: BoundsRef,
      nullable: true,
      description:
        'Always null today: diffs do not compare boxes (a scroll would move every one). Read `node(ref) { bbox }` for the box now.',
      resolve: newValue('bbox'),
    }),
  }),
});

SnapshotDiffRef.implement({
  description: 'What changed between two snapshots of one window, by ref.',
  fields: (t) => ({
    from: t.id({ description: 'The earlier snapshot.', resolve: ({ diff }) => diff.from }),
    to: t.id({ description: 'The later snapshot.', resolve: ({ diff }) => diff.to }),
    documentReplaced: t.boolean({
      description: 'The window reloaded or navigated in between: every node is removed and added.',
      resolve: ({ diff }) => diff.documentReplaced,
    }),
    added: t.field({
      type: [SnapshotNodeRef],
      description: 'Nodes of the later snapshot whose refs the earlier one lacked, in document order.',
      resolve: ({ diff, snapshot }) => diff.added.map(inSnapshot(snapshot)),
    }),
    removed: t.field({
      type: [RemovedNodeRef],
      description: 'Nodes of the earlier snapshot whose refs the later one lacks, as they were.',
      resolve: ({ diff }) => diff.removed,
    }),
    changed: t.field({
      type: [ChangedNodeRef],
      description: 'Nodes in both whose role, name, value, description, states or level differ.',
      resolve: ({ diff }) => diff.changed,
    }),
    outline: t.string({
      description:
        'The diff as `Snapshot.outline` lines, one a node: `- e4 button "Send"` removed, `~ e2 checkbox "Agree" [checked] (was [])` changed (its line now, then the old values of what changed), `+ e9 dialog "Sent"` added (added subtrees indented and folded as in `Snapshot.outline`). After a reload the removed side is one line. Empty when nothing changed. The cheapest way to read an effect.',
      resolve: ({ diff }) => diffOutline(diff),
    }),
    leftOut: t.int({
      description:
        'Nodes left out because they change on their own (asked with `quiet: true`); 0 otherwise. `empty` and the lists count only what is shown.',
      resolve: ({ diff }) => diff.leftOut ?? 0,
    }),
    empty: t.boolean({
      description: 'Nothing changed.',
      resolve: ({ diff }) => diff.added.length + diff.removed.length + diff.changed.length === 0,
    }),
  }),
});
