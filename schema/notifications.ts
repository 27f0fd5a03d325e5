import type { Delivery } from '../resolvers/bounded/subscriber-queue.js';
import { nativeStream } from '../resolvers/native/native-streams.js';
import type { NotificationCapture, NotificationEntry } from '../resolvers/native/notification-log.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { SessionRef } from './session.js';

const NotificationRef = builder.objectRef<NotificationEntry>('Notification').implement({
  description: 'A notification the app showed (Notification#show in the main process).',
  fields: (t) => ({
    seq: t.exposeInt('seq'),
    sessionId: t.exposeID('sessionId'),
    title: t.exposeString('title'),
    body: t.exposeString('body'),
    subtitle: t.exposeString('subtitle'),
    silent: t.exposeBoolean('silent'),
    urgency: t.exposeString('urgency'),
    time: t.field({ type: 'DateTime', resolve: (entry) => entry.time }),
    beforeArm: t.exposeBoolean('beforeArm', {
      description: 'Shown before capture was first armed (start-up notifications, with instrumentNative).',
    }),
  }),
});

const NotificationCaptureRef = builder.objectRef<NotificationCapture>('NotificationCapture').implement({
  fields: (t) => ({
    armed: t.exposeBoolean('armed'),
    titleContains: t.exposeString('titleContains', { nullable: true }),
    armedAt: t.field({ type: 'DateTime', nullable: true, resolve: (capture) => capture.armedAt }),
    stoppedAt: t.field({ type: 'DateTime', nullable: true, resolve: (capture) => capture.stoppedAt }),
  }),
});

const NotificationLogRef = builder
  .objectRef<{ entries: NotificationEntry[]; overflowed: number; capture: NotificationCapture }>(
    'NotificationLog',
  )
  .implement({
    description: 'A read of the bounded notification buffer (the newest 200).',
    fields: (t) => ({
      entries: t.field({ type: [NotificationRef], resolve: (log) => log.entries }),
      overflowed: t.exposeInt('overflowed'),
      capture: t.field({ type: NotificationCaptureRef, resolve: (log) => log.capture }),
    }),
  });

builder.objectField(SessionRef, 'notifications', (t) =>
  t.field({
    type: NotificationLogRef,
    description:
      'Notifications kept so far: all of them until capture is first armed (tagged beforeArm), then those matching the filter.',
    ...requiresCapability('NATIVE_UI'),
    args: { titleContains: t.arg.string({ required: false }) },
    resolve: (session, args) => ({
      entries: session.native.notifications.read(args.titleContains),
      overflowed: session.native.notifications.overflowed,
      capture: session.native.notifications.capture,
    }),
  }),
);

builder.mutationFields((t) => ({
  armNotifications: t.field({
    type: NotificationCaptureRef,
    description: 'Starts notification capture, keeping only titles containing `titleContains` when given.',
    ...requiresCapability('NATIVE_UI'),
    args: { session: t.arg.id({ required: false }), titleContains: t.arg.string({ required: false }) },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.notifications.arm(args.titleContains ?? null),
  }),
  stopNotifications: t.field({
    type: NotificationCaptureRef,
    description: 'Stops notification capture; what was kept stays readable.',
    ...requiresCapability('NATIVE_UI'),
    args: { session: t.arg.id({ required: false }) },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).native.notifications.stop(),
  }),
}));

const NotificationEventRef = builder.objectRef<Delivery<NotificationEntry>>('NotificationEvent').implement({
  fields: (t) => ({
    notification: t.field({ type: NotificationRef, resolve: (delivery) => delivery.event }),
    droppedBefore: t.exposeInt('droppedBefore'),
  }),
});

builder.subscriptionField('notifications', (t) =>
  t.field({
    type: NotificationEventRef,
    description: 'Notifications as capture keeps them; all sessions unless `session` is given.',
    args: { session: t.arg.id({ required: false }) },
    subscribe: (_root, args, { hub, sessions }) => nativeStream(hub, sessions, 'notification', args.session),
    resolve: (delivery) => delivery,
  }),
);
