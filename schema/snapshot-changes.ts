import { type SnapshotChange, snapshotChanges } from '../domain/interaction/snapshot-changes.js';
import { builder } from './builder.js';
import { selectedFields } from './selection.js';
import { sessionArg } from './session-arg.js';
import { QUIET_DIFF, SnapshotDiffRef } from './snapshot.js';

const SnapshotChangeRef = builder.objectRef<SnapshotChange>('SnapshotChange').implement({
  description: 'One settled change of a window, as a diff against the previous change this subscriber got.',
  fields: (t) => ({
    windowId: t.exposeID('windowId', { description: 'The window that changed.' }),
    snapshotId: t.id({
      description: "The snapshot this change ends at; usable as `since` while kept (a window's last 5).",
      resolve: (change) => change.snapshot.id,
    }),
    rendererReloaded: t.boolean({
      description:
        "The window's document was replaced (reload, navigation) since its previous snapshot: refs from before are stale.",
      resolve: (change) => change.snapshot.rendererReloaded,
    }),
    diff: t.field({
      type: SnapshotDiffRef,
      description:
        'What changed since the previous change this subscriber got (the first: since the window as the subscription found it). Never empty.',
      resolve: (change) => ({ diff: change.diff, snapshot: change.snapshot }),
    }),
  }),
});

builder.subscriptionField('snapshotChanges', (t) =>
  t.field({
    type: SnapshotChangeRef,
    description:
      'Live diffs of one window (default: the active one) as its DOM changes, debounced. A slow reader gets fewer, larger diffs; nothing queues up.',
    requiresCapability: { capability: 'SNAPSHOT', session: 'session' },
    args: {
      ...sessionArg,
      window: t.arg.id({
        required: false,
        description:
          'A window id; default: the active window. The stream ends when the window closes or the session ends.',
      }),
      interactiveOnly: t.arg.boolean({
        required: false,
        description:
          'Diff only interactive nodes, as snapshot(interactiveOnly: true) reads them. Default false.',
      }),
      quiet: t.arg.boolean({
        required: false,
        defaultValue: false,
        description: `${QUIET_DIFF} A change that is all such nodes is not delivered.`,
      }),
    },
    subscribe: (_root, args, { sessions }, info) =>
      snapshotChanges(sessions.get(args.session == null ? null : String(args.session)), {
        window: args.window == null ? null : String(args.window),
        interactiveOnly: args.interactiveOnly ?? null,
        quiet: args.quiet ?? false,
        bounds: selectedFields(info, ['diff', 'added']).includes('bbox'),
      }),
    resolve: (change) => change,
  }),
);
