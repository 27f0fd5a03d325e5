import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import { TOPIC_FEEDS, topicFeed } from '../domain/cluster/topic-feeds.js';
import type { IpcCapture, IpcEntry } from '../domain/native/ipc-log.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import type { IpcInvocation } from '../transports/contract/native.js';
import { builder } from './builder.js';
import { type OutcomeValue, outcomeEnum } from './outcome-enum.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';
import { AFTER, CURSOR, cursorOf, DROPPED_BEFORE } from './stream-cursor.js';

/**
 * IPC reaches into the app's main process as far as eval does (invokeIpc runs its handlers with any
 * arguments), so every field here carries the `main` eval scope: absent from the schema unless the server
 * runs with --allow-eval or --allow-eval=main, and the types only they reach go with them.
 */
const GATED = { requiresCapability: 'MAIN_EVAL', evalScope: 'main' } as const;

const IpcDirectionEnum = builder.enumType('IpcDirection', {
  description: 'Which way an IPC message went between a page and the main process.',
  values: {
    RENDERER_TO_MAIN: {
      value: 'renderer-to-main',
      description: 'From a page to the main process: ipcRenderer.send or invoke (or an invokeIpc call).',
    },
    MAIN_TO_RENDERER: {
      value: 'main-to-renderer',
      description: "From the main process to a page: webContents.send, or an invoke's RESULT or ERROR.",
    },
  },
});

const IpcKindEnum = builder.enumType('IpcKind', {
  description: 'SEND: ipcRenderer.send or webContents.send; INVOKE, then RESULT or ERROR: one invoke.',
  values: {
    SEND: { value: 'send', description: 'A one-way message (ipcRenderer.send or webContents.send).' },
    INVOKE: {
      value: 'invoke',
      description: 'An ipcRenderer.invoke call reaching its ipcMain.handle handler.',
    },
    RESULT: { value: 'result', description: "An invoke handler's return value (in `args`)." },
    ERROR: { value: 'error', description: "An invoke handler's thrown error (its message in `args`)." },
  },
});

/** Every refusal the IPC hooks report, by its transport spelling: a new one fails to compile until added. */
const IPC_REFUSALS = {
  no_handler: {
    name: 'NO_HANDLER',
    description:
      'No ipcMain.handle handler is registered for the channel as far as the hooks saw (one registered before they were installed is unseen: launch with instrumentNative).',
  },
  failed: {
    name: 'FAILED',
    description: 'The handler ran and threw (or rejected): `error` has its name and message.',
  },
} as const satisfies Record<NonNullable<IpcInvocation['reason']>, OutcomeValue>;

const IpcInvocationReasonEnum = outcomeEnum(
  'IpcInvocationReason',
  'Why invokeIpc got no result from the handler.',
  IPC_REFUSALS,
);

const IpcMessageRef = builder.objectRef<IpcEntry>('IpcMessage').implement({
  description: 'One IPC message on a captured channel, arguments redacted and cut at 1,024 characters.',
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'Per-session, strictly increasing.' }),
    sessionId: t.exposeID('sessionId', { description: 'The session whose app sent it.' }),
    direction: t.field({
      type: IpcDirectionEnum,
      description: 'Page to main, or main to page.',
      resolve: (entry) => entry.direction,
    }),
    kind: t.field({
      type: IpcKindEnum,
      description: 'SEND, INVOKE, RESULT or ERROR.',
      resolve: (entry) => entry.kind,
    }),
    channel: t.exposeString('channel', { description: 'The IPC channel name.' }),
    args: t.exposeString('args', {
      description: 'The arguments as a JSON array (a result: its value; an error: its message).',
    }),
    argsLength: t.exposeInt('argsLength', { description: 'Length of the whole JSON before the cut.' }),
    truncated: t.exposeBoolean('truncated', {
      description: 'True when `args` was cut at 1,024 characters (`argsLength` is the whole length).',
    }),
    webContentsId: t.exposeInt('webContentsId', {
      nullable: true,
      description: "Electron's webContents.id of the page it came from or went to; null when there is none.",
    }),
    viaGateway: t.exposeBoolean('viaGateway', { description: 'An invokeIpc call, not the page.' }),
    time: t.field({
      type: 'DateTime',
      description: 'When the main process saw it.',
      resolve: (entry) => entry.time,
    }),
  }),
});

const IpcCaptureRef = builder.objectRef<IpcCapture>('IpcCapture').implement({
  description: 'Which IPC channels are being captured.',
  fields: (t) => ({
    channels: t.stringList({
      nullable: true,
      description: 'Exact channel names, or prefixes ending in `*`; null when capture is off.',
      resolve: (capture) => capture.channels,
    }),
    armedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When armIpc last set the channels; null when capture is off.',
      resolve: (capture) => capture.armedAt,
    }),
  }),
});

const IpcLogRef = builder
  .objectRef<{ entries: IpcEntry[]; overflowed: number; capture: IpcCapture }>('IpcLog')
  .implement({
    description: 'A read of the bounded IPC buffer (the newest 500).',
    fields: (t) => ({
      entries: t.field({
        type: [IpcMessageRef],
        description: 'The messages still in the buffer, oldest first.',
        resolve: (log) => log.entries,
      }),
      overflowed: t.exposeInt('overflowed', { description: 'Messages pushed out of the buffer so far.' }),
      capture: t.field({
        type: IpcCaptureRef,
        description: 'The channels captured now.',
        resolve: (log) => log.capture,
      }),
    }),
  });

const IpcInvocationRef = builder.objectRef<IpcInvocation>('IpcInvocation').implement({
  description: 'What invokeIpc did: the handler ran and returned, or why it did not.',
  fields: (t) => ({
    invoked: t.exposeBoolean('invoked', { description: 'True when the handler ran and returned a value.' }),
    reason: t.field({
      type: IpcInvocationReasonEnum,
      nullable: true,
      description: 'Why there is no result; null when `invoked`.',
      resolve: (result) => result.reason,
    }),
    json: t.exposeString('json', { nullable: true, description: "The handler's result as JSON." }),
    error: t.exposeString('error', {
      nullable: true,
      description:
        "Why it did not run: a failed handler's error as name and message (never a stack), or a note that handlers registered before the hooks are unseen.",
    }),
  }),
});

builder.objectField(SessionRef, 'ipc', (t) =>
  t.field({
    type: IpcLogRef,
    description: 'IPC captured so far on the channels armIpc named. Present only with --allow-eval(=main).',
    ...GATED,
    args: { channel: t.arg.string({ required: false, description: 'Only messages on this exact channel.' }) },
    resolve: (session, args) => ({
      entries: session.native.ipc.read(args.channel),
      overflowed: session.native.ipc.overflowed,
      capture: session.native.ipc.capture,
    }),
  }),
);

builder.mutationFields((t) => ({
  armIpc: t.field({
    type: IpcCaptureRef,
    description:
      'Captures IPC on `channels` (exact names, or prefixes ending in *), replacing the last list.',
    ...GATED,
    governance: { session: 'session' },
    args: {
      ...sessionArg,
      channels: t.arg.stringList({
        required: true,
        description: 'Exact names, or prefixes ending in `*`; 1 to 50 of them, else BAD_INPUT.',
      }),
    },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).native.armIpc(args.channels),
  }),
  stopIpc: t.field({
    type: IpcCaptureRef,
    description: 'Stops IPC capture; what was kept stays readable.',
    ...GATED,
    governance: { session: 'session' },
    args: {
      ...sessionArg,
    },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).native.stopIpc(),
  }),
  invokeIpc: t.field({
    type: IpcInvocationRef,
    description:
      "Calls the app's ipcMain.handle handler for `channel` as the active page's invoke would, with `args` (a JSON array).",
    ...GATED,
    governance: { session: 'session' },
    args: {
      ...sessionArg,
      channel: t.arg.string({
        required: true,
        description: 'The channel the app registered with ipcMain.handle.',
      }),
      args: t.arg.string({ required: false, description: 'A JSON array of arguments (default []).' }),
    },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.invokeIpc(args.channel, parseArgs(args.args)),
  }),
}));

const IpcEventRef = builder.objectRef<CursoredDelivery<IpcEntry>>('IpcEvent').implement({
  description: 'One delivery of the `ipc` subscription.',
  fields: (t) => ({
    message: t.field({
      type: IpcMessageRef,
      description: 'The captured message.',
      resolve: (delivery) => delivery.event,
    }),
    droppedBefore: t.exposeInt('droppedBefore', DROPPED_BEFORE),
    cursor: t.string({ ...CURSOR, resolve: (delivery, _args, context) => cursorOf(delivery, context) }),
  }),
});

builder.subscriptionField('ipc', (t) =>
  t.field({
    type: IpcEventRef,
    description: 'IPC on captured channels as it happens; all sessions unless `session` is given.',
    evalScope: 'main',
    args: {
      session: t.arg.id({
        required: false,
        description: "Only this session's messages; an unknown id fails with SESSION_NOT_FOUND.",
      }),
      after: t.arg.string(AFTER),
    },
    subscribe: (_root, args, context) => topicFeed(context, TOPIC_FEEDS.ipc, args),
    resolve: (delivery) => delivery,
  }),
);

function parseArgs(json: string | null | undefined): unknown[] {
  if (json == null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new StagegraphError('BAD_INPUT', 'invokeIpc args must be a JSON array, such as [1, "two"].');
  }
  return Array.isArray(parsed) ? parsed : [parsed];
}
