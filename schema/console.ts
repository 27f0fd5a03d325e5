import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import { TOPIC_FEEDS, topicFeed } from '../domain/cluster/topic-feeds.js';
import { redactUrl } from '../domain/governance/redaction/redaction-network.js';
import type { ConsoleEntry, ConsoleSnapshot } from '../domain/sessions/console-log.js';
import { builder } from './builder.js';
import { redactorOf, shownText } from './reveal.js';
import { SessionRef } from './session.js';
import { sharesExecutionPerEvent } from './shared-execution.js';
import { AFTER, CURSOR, cursorOf, DROPPED_BEFORE } from './stream-cursor.js';

/** The filters the console read and the console subscription share: fresh refs for each field, as Pothos wants. */
const entryFilterArgs = () =>
  builder.args((t) => ({
    types: t.stringList({
      required: false,
      description: 'Only entries of these types (log, warning, error, pageerror, ...); absent or empty: all.',
    }),
    windowId: t.id({ required: false, description: 'Only entries logged by the window with this id.' }),
    textContains: t.string({
      required: false,
      description: 'Only entries whose text, as this reader is shown it, contains this (case-sensitive).',
    }),
    since: t.field({
      type: 'DateTime',
      required: false,
      description: 'Only entries logged at or after this.',
    }),
  }));

const ConsoleSourceEnum = builder.enumType('ConsoleSource', {
  values: {
    RENDERER: { description: "A window's page." },
    MAIN: { description: "The app's main process." },
  } as const,
  description: "RENDERER: a window's page; MAIN: the app's main process.",
});

const ConsoleEntryRef = builder.objectRef<ConsoleEntry>('ConsoleEntry').implement({
  description: "One console message, or uncaught page error, of a session's windows or main process.",
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'Per-session, strictly increasing: resume with `afterSeq`.' }),
    sessionId: t.exposeID('sessionId', { description: 'The session that logged it.' }),
    time: t.field({ type: 'DateTime', description: 'When it was logged.', resolve: (entry) => entry.time }),
    type: t.exposeString('type', { description: 'log, info, warning, error, debug, trace, ...' }),
    text: t.string({
      description:
        "The message text: in clear for an agent; for approvers and observers (and everyone under the policy's `reveal: NONE`) scrubbed by the policy's redaction patterns, as the run log is.",
      resolve: (entry, _args, context) => shownText(context, entry.text),
    }),
    source: t.field({
      type: ConsoleSourceEnum,
      description: 'Where it was logged: a window or the main process.',
      resolve: (entry) => entry.source,
    }),
    windowId: t.exposeID('windowId', {
      nullable: true,
      description: 'The window that logged it; null for the main process.',
    }),
    location: t.string({
      nullable: true,
      description:
        'url:line:column of the call (of the request, for a failed load), with secret-named query parameters as `[redacted]`, as a captured URL is.',
      resolve: (entry, _args, context) =>
        entry.location === null || entry.location === undefined
          ? null
          : redactUrl(entry.location, redactorOf(context)),
    }),
  }),
});

const ConsoleLogRef = builder.objectRef<ConsoleSnapshot>('ConsoleLog').implement({
  description: 'A read of the bounded console buffer (the newest 1,000 entries).',
  fields: (t) => ({
    entries: t.field({
      type: [ConsoleEntryRef],
      description: 'The buffered entries that match, oldest first.',
      resolve: (log) => log.entries,
    }),
    overflowed: t.exposeInt('overflowed', { description: 'Entries pushed out of the buffer so far.' }),
    total: t.exposeInt('total', { description: 'Entries ever logged in this session.' }),
  }),
});

builder.objectField(SessionRef, 'console', (t) =>
  t.field({
    type: ConsoleLogRef,
    description:
      'Console output of every window and the main process, uncaught page errors as type `pageerror`; readable after the app ends.',
    requiresCapability: 'CONSOLE',
    args: {
      last: t.arg.int({ required: false, description: 'Only the newest N matching entries.' }),
      afterSeq: t.arg.int({
        required: false,
        description:
          'Only entries with a greater `seq`: pass the last seq you read to resume without gaps or repeats.',
      }),
      ...entryFilterArgs(),
    },
    resolve: (session, args, context) =>
      session.console.snapshot({ ...args, shownText: (text) => shownText(context, text) }),
  }),
);

const ConsoleEventRef = builder.objectRef<CursoredDelivery<ConsoleEntry>>('ConsoleEvent').implement({
  description: 'One console entry, as delivered to this subscriber.',
  fields: (t) => ({
    entry: t.field({
      type: ConsoleEntryRef,
      description: 'The entry.',
      resolve: (delivery) => delivery.event,
    }),
    droppedBefore: t.exposeInt('droppedBefore', DROPPED_BEFORE),
    cursor: t.string({ ...CURSOR, resolve: (delivery, _args, context) => cursorOf(delivery, context) }),
  }),
});

builder.subscriptionField('console', (t) =>
  t.field({
    type: ConsoleEventRef,
    description:
      'Console entries as they are logged (uncaught page errors as type `pageerror`); all sessions unless `session` is given.',
    args: {
      session: t.arg.id({
        required: false,
        description: 'Only this session (SESSION_NOT_FOUND when unknown); every session when absent.',
      }),
      ...entryFilterArgs(),
      replay: t.arg.boolean({
        required: false,
        description:
          "Start with the buffered entries (for another replica's session: what its stream still holds).",
      }),
      after: t.arg.string(AFTER),
    },
    ...sharesExecutionPerEvent,
    subscribe: (_root, args, context) =>
      topicFeed(context, TOPIC_FEEDS.console, {
        ...args,
        shownText: (text) => shownText(context, text),
      }),
    resolve: (delivery) => delivery,
  }),
);
