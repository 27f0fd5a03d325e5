import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import { TOPIC_FEEDS, topicFeed } from '../domain/cluster/topic-feeds.js';
import type { NotificationCapture, NotificationEntry } from '../domain/native/notification-log.js';
import { builder } from './builder.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';
import { AFTER, CURSOR, cursorOf, DROPPED_BEFORE } from './stream-cursor.js';

const NotificationRef = builder.objectRef<NotificationEntry>('Notification').implement({
  description: 'A notification the app showed (Notification#show in the main process).',
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'Per-session, strictly increasing.' }),
    sessionId: t.exposeID('sessionId', { description: 'The session whose app showed it.' }),
    title: t.exposeString('title', { description: 'Its title; empty when none.' }),
    body: t.exposeString('body', { description: 'Its body text; empty when none.' }),
    subtitle: t.exposeString('subtitle', { description: 'Its subtitle (macOS); empty when none.' }),
    silent: t.exposeBoolean('silent', { description: 'True when the app asked for no sound.' }),
    urgency: t.exposeString('urgency', {
      description: "The urgency the app set (Electron's normal, critical or low); normal when unset.",
    }),
    time: t.field({
      type: 'DateTime',
      description: 'When the app called show(), by the main process clock.',
      resolve: (entry) => entry.time,
    }),
    beforeArm: t.exposeBoolean('beforeArm', {
      description: 'Shown before capture was first armed (start-up notifications, with instrumentNative).',
    }),
  }),
});

const NotificationCaptureRef = builder.objectRef<NotificationCapture>('NotificationCapture').implement({
  description: "The state of the session's notification capture.",
  fields: (t) => ({
    armed: t.exposeBoolean('armed', { description: 'True while capture keeps new notifications.' }),
    titleContains: t.exposeString('titleContains', {
      nullable: true,
      description: 'The title filter of the last armNotifications; null keeps every title.',
    }),
    armedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When capture was first armed (re-arming keeps it); null before then.',
      resolve: (capture) => capture.armedAt,
    }),
    stoppedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When stopNotifications last ran; null while armed or never stopped.',
      resolve: (capture) => capture.stoppedAt,
    }),
  }),
});

const NotificationLogRef = builder
  .objectRef<{ entries: NotificationEntry[]; overflowed: number; capture: NotificationCapture }>(
    'NotificationLog',
  )
  .implement({
    description: 'A read of the bounded notification buffer (the newest 200).',
    fields: (t) => ({
      entries: t.field({
        type: [NotificationRef],
        description: 'The notifications still in the buffer, oldest first.',
        resolve: (log) => log.entries,
      }),
      overflowed: t.exposeInt('overflowed', {
        description: 'Notifications pushed out of the buffer so far.',
      }),
      capture: t.field({
        type: NotificationCaptureRef,
        description: 'The capture state now.',
        resolve: (log) => log.capture,
      }),
    }),
  });

builder.objectField(SessionRef, 'notifications', (t) =>
  t.field({
    type: NotificationLogRef,
    description:
      'Notifications kept so far: all of them until capture is first armed (tagged beforeArm), then those matching the filter.',
    requiresCapability: 'NATIVE_UI',
    args: {
      titleContains: t.arg.string({
        required: false,
        description: 'Only kept notifications whose title contains this.',
      }),
    },
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
    requiresCapability: 'NATIVE_UI',
    governance: { session: 'session' },
    args: {
      ...sessionArg,
      titleContains: t.arg.string({
        required: false,
        description: 'Keep only titles containing this text; every title when absent.',
      }),
    },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.notifications.arm(args.titleContains ?? null),
  }),
  stopNotifications: t.field({
    type: NotificationCaptureRef,
    description: 'Stops notification capture; what was kept stays readable.',
    requiresCapability: 'NATIVE_UI',
    governance: { session: 'session' },
    args: {
      ...sessionArg,
    },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).native.notifications.stop(),
  }),
}));

const NotificationEventRef = builder
  .objectRef<CursoredDelivery<NotificationEntry>>('NotificationEvent')
  .implement({
    description: 'One delivery of the `notifications` subscription.',
    fields: (t) => ({
      notification: t.field({
        type: NotificationRef,
        description: 'The notification kept.',
        resolve: (delivery) => delivery.event,
      }),
      droppedBefore: t.exposeInt('droppedBefore', DROPPED_BEFORE),
      cursor: t.string({ ...CURSOR, resolve: (delivery, _args, context) => cursorOf(delivery, context) }),
    }),
  });

builder.subscriptionField('notifications', (t) =>
  t.field({
    type: NotificationEventRef,
    description: 'Notifications as capture keeps them; all sessions unless `session` is given.',
    args: {
      session: t.arg.id({
        required: false,
        description: "Only this session's notifications; an unknown id fails with SESSION_NOT_FOUND.",
      }),
      after: t.arg.string(AFTER),
    },
    subscribe: (_root, args, context) => topicFeed(context, TOPIC_FEEDS.notification, args),
    resolve: (delivery) => delivery,
  }),
);
