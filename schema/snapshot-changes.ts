import { type SnapshotChange, snapshotChanges } from '../resolvers/interaction/snapshot-changes.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { selectedFields } from './selection.js';
import { SnapshotDiffRef } from './snapshot.js';

const SnapshotChangeRef = builder.objectRef<SnapshotChange>('SnapshotChange').implement({
  description: 'One settled change of a window, as a diff against the previous change this subscriber got.',
  fields: (t) => ({
    windowId: t.exposeID('windowId'),
    snapshotId: t.id({ resolve: (change) => change.snapshot.id }),
    rendererReloaded: t.boolean({ resolve: (change) => change.snapshot.rendererReloaded }),
    diff: t.field({
      type: SnapshotDiffRef,
      resolve: (change) => ({ diff: change.diff, snapshot: change.snapshot }),
    }),
  }),
});

builder.subscriptionField('snapshotChanges', (t) =>
  t.field({
    type: SnapshotChangeRef,
    description:
      'Live diffs of one window (default: the active one) as its DOM changes, debounced. A slow reader gets fewer, larger diffs; nothing queues up.',
    ...requiresCapability('SNAPSHOT'),
    args: {
      session: t.arg.id({ required: false }),
      window: t.arg.id({ required: false }),
      interactiveOnly: t.arg.boolean({ required: false }),
    },
    subscribe: (_root, args, { sessions }, info) =>
      snapshotChanges(sessions.get(args.session == null ? null : String(args.session)), {
        window: args.window == null ? null : String(args.window),
        interactiveOnly: args.interactiveOnly ?? null,
        bounds: selectedFields(info, ['diff', 'added']).includes('bbox'),
      }),
    resolve: (change) => change,
  }),
);
