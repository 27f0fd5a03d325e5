import type { Delivery } from '../resolvers/bounded/subscriber-queue.js';
import { sessionEventStream } from '../resolvers/events/streams.js';
import type { SessionEvent } from '../resolvers/sessions/session-event.js';
import { builder } from './builder.js';
import { ExitRef, SessionStatusEnum } from './session.js';

const SessionEventTypeEnum = builder.enumType('SessionEventType', {
  values: [
    'STARTED',
    'WINDOW_OPENED',
    'WINDOW_CLOSED',
    'RENDERER_CRASHED',
    'STOPPED',
    'EXITED',
    'CRASHED',
    'DISCONNECTED',
    'DETACHED',
  ] as const,
});

const EventWindowRef = builder.objectRef<NonNullable<SessionEvent['window']>>('EventWindow').implement({
  description: 'The window an event is about, as it was when the event happened.',
  fields: (t) => ({ id: t.exposeID('id'), title: t.exposeString('title'), url: t.exposeString('url') }),
});

const SessionEventRef = builder.objectRef<Delivery<SessionEvent>>('SessionEvent').implement({
  fields: (t) => ({
    type: t.field({ type: SessionEventTypeEnum, resolve: ({ event }) => event.type }),
    sessionId: t.id({ resolve: ({ event }) => event.sessionId }),
    time: t.field({ type: 'DateTime', resolve: ({ event }) => event.time }),
    status: t.field({ type: SessionStatusEnum, resolve: ({ event }) => event.status }),
    window: t.field({ type: EventWindowRef, nullable: true, resolve: ({ event }) => event.window }),
    exit: t.field({ type: ExitRef, nullable: true, resolve: ({ event }) => event.exit }),
    droppedBefore: t.exposeInt('droppedBefore', {
      description: 'Events this subscriber lost just before this one because it read too slowly.',
    }),
  }),
});

builder.subscriptionField('sessionEvents', (t) =>
  t.field({
    type: SessionEventRef,
    description:
      'Lifecycle of sessions: started, windows opened and closed, crashed, exited, stopped, disconnected, detached.',
    args: { session: t.arg.id({ required: false, description: 'Only this session; all when absent.' }) },
    subscribe: (_root, args, { hub, sessions }) => sessionEventStream(hub, sessions, args.session),
    resolve: (delivery) => delivery,
  }),
);
