import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import { type SessionLostEvent, TOPIC_FEEDS, topicFeed } from '../domain/cluster/topic-feeds.js';
import type { SessionEvent } from '../domain/sessions/session-event.js';
import { builder } from './builder.js';
import { shownText, shownUrl } from './reveal.js';
import { ExitRef, SessionStatusEnum } from './session.js';
import { AFTER, CURSOR, cursorOf, DROPPED_BEFORE } from './stream-cursor.js';

const SessionEventTypeEnum = builder.enumType('SessionEventType', {
  description: 'What happened to a session.',
  values: {
    STARTED: { description: 'The session was created (its status is still STARTING).' },
    WINDOW_OPENED: { description: 'A window opened; `window` says which.' },
    WINDOW_CLOSED: { description: 'A window closed; its refs are forgotten.' },
    RENDERER_CRASHED: {
      description: "A window's renderer crashed; the session and its other windows live on.",
    },
    STOPPED: { description: 'The app ended after stop or forceKill (or server shutdown); status STOPPED.' },
    EXITED: { description: 'The app process exited on its own; `exit.code` says how.' },
    CRASHED: { description: 'The app process was ended by a signal Stagegraph did not send; see `exit`.' },
    DISCONNECTED: {
      description: 'The connection to an attached or injected app was lost; the app may still run.',
    },
    DETACHED: { description: 'Stagegraph let go of an attached or injected app, which keeps running.' },
    LOST: {
      description:
        "Cluster mode, to a subscriber on another replica: the session's owner lost its lease (killed, paused, cut off) or restarted; status LOST, and the subscription ends.",
    },
  } as const,
});

const EventWindowRef = builder.objectRef<NonNullable<SessionEvent['window']>>('EventWindow').implement({
  description: 'The window an event is about, as it was when the event happened.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The window id (w1, w2, ...).' }),
    title: t.string({
      description: 'Its title then, shown as `Window.title` is.',
      resolve: (window, _args, context) => shownText(context, window.title),
    }),
    url: t.string({
      description: 'Its URL then, shown as `Window.url` is.',
      resolve: (window, _args, context) => shownUrl(context, window.url),
    }),
  }),
});

const SessionEventRef = builder
  .objectRef<CursoredDelivery<SessionEvent | SessionLostEvent>>('SessionEvent')
  .implement({
    description: 'One lifecycle event of a session, as delivered to this subscriber.',
    fields: (t) => ({
      type: t.field({
        type: SessionEventTypeEnum,
        description: 'What happened.',
        resolve: ({ event }) => event.type,
      }),
      sessionId: t.id({
        description: 'The session it happened to.',
        resolve: ({ event }) => event.sessionId,
      }),
      time: t.field({
        type: 'DateTime',
        description: 'When it happened.',
        resolve: ({ event }) => event.time,
      }),
      status: t.field({
        type: SessionStatusEnum,
        description: "The session's status just after the event.",
        resolve: ({ event }) => event.status,
      }),
      window: t.field({
        type: EventWindowRef,
        nullable: true,
        description:
          'The window of a WINDOW_OPENED, WINDOW_CLOSED or RENDERER_CRASHED event; null for the others.',
        resolve: ({ event }) => event.window,
      }),
      exit: t.field({
        type: ExitRef,
        nullable: true,
        description: "How the app's process ended, once it has (EXITED, CRASHED, STOPPED); null before.",
        resolve: ({ event }) => event.exit,
      }),
      droppedBefore: t.exposeInt('droppedBefore', DROPPED_BEFORE),
      cursor: t.string({ ...CURSOR, resolve: (delivery, _args, context) => cursorOf(delivery, context) }),
    }),
  });

builder.subscriptionField('sessionEvents', (t) =>
  t.field({
    type: SessionEventRef,
    description:
      'Lifecycle of sessions: started, windows opened and closed, crashed, exited, stopped, disconnected, detached.',
    args: {
      session: t.arg.id({ required: false, description: 'Only this session; all when absent.' }),
      after: t.arg.string(AFTER),
    },
    subscribe: (_root, args, context) => topicFeed(context, TOPIC_FEEDS.sessionEvent, args),
    resolve: (delivery) => delivery,
  }),
);
