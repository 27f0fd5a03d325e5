import { StagegraphError } from '../errors/stagegraph-error.js';
import type { Delivery } from '../resolvers/bounded/subscriber-queue.js';
import type { IpcCapture, IpcEntry } from '../resolvers/native/ipc-log.js';
import { nativeStream } from '../resolvers/native/native-streams.js';
import type { IpcInvocation } from '../transports/native-contract.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { SessionRef } from './session.js';

/**
 * IPC reaches into the app's main process as far as eval does (invokeIpc runs its handlers with any
 * arguments), so every field and type here carries the `main` eval scope: absent from the schema unless
 * the server runs with --allow-eval or --allow-eval=main (see applyEvalScope in eval.ts).
 */
const MAIN_ONLY = { evalScope: 'main' } as const;
const GATED = {
  ...requiresCapability('MAIN_EVAL'),
  extensions: { requiresCapability: 'MAIN_EVAL', ...MAIN_ONLY },
} as const;

const IpcDirectionEnum = builder.enumType('IpcDirection', {
  values: {
    RENDERER_TO_MAIN: { value: 'renderer-to-main' },
    MAIN_TO_RENDERER: { value: 'main-to-renderer' },
  },
  extensions: MAIN_ONLY,
});

const IpcKindEnum = builder.enumType('IpcKind', {
  description: 'SEND: ipcRenderer.send or webContents.send; INVOKE, then RESULT or ERROR: one invoke.',
  values: {
    SEND: { value: 'send' },
    INVOKE: { value: 'invoke' },
    RESULT: { value: 'result' },
    ERROR: { value: 'error' },
  },
  extensions: MAIN_ONLY,
});

const IpcMessageRef = builder.objectRef<IpcEntry>('IpcMessage').implement({
  description: 'One IPC message on a captured channel, arguments redacted and cut at 1,024 characters.',
  extensions: MAIN_ONLY,
  fields: (t) => ({
    seq: t.exposeInt('seq'),
    sessionId: t.exposeID('sessionId'),
    direction: t.field({ type: IpcDirectionEnum, resolve: (entry) => entry.direction }),
    kind: t.field({ type: IpcKindEnum, resolve: (entry) => entry.kind }),
    channel: t.exposeString('channel'),
    args: t.exposeString('args', {
      description: 'The arguments as a JSON array (a result: its value; an error: its message).',
    }),
    argsLength: t.exposeInt('argsLength', { description: 'Length of the whole JSON before the cut.' }),
    truncated: t.exposeBoolean('truncated'),
    webContentsId: t.exposeInt('webContentsId', { nullable: true }),
    viaGateway: t.exposeBoolean('viaGateway', { description: 'An invokeIpc call, not the page.' }),
    time: t.field({ type: 'DateTime', resolve: (entry) => entry.time }),
  }),
});

const IpcCaptureRef = builder.objectRef<IpcCapture>('IpcCapture').implement({
  extensions: MAIN_ONLY,
  fields: (t) => ({
    channels: t.stringList({ nullable: true, resolve: (capture) => capture.channels }),
    armedAt: t.field({ type: 'DateTime', nullable: true, resolve: (capture) => capture.armedAt }),
  }),
});

const IpcLogRef = builder
  .objectRef<{ entries: IpcEntry[]; overflowed: number; capture: IpcCapture }>('IpcLog')
  .implement({
    description: 'A read of the bounded IPC buffer (the newest 500).',
    extensions: MAIN_ONLY,
    fields: (t) => ({
      entries: t.field({ type: [IpcMessageRef], resolve: (log) => log.entries }),
      overflowed: t.exposeInt('overflowed'),
      capture: t.field({ type: IpcCaptureRef, resolve: (log) => log.capture }),
    }),
  });

const IpcInvocationRef = builder.objectRef<IpcInvocation>('IpcInvocation').implement({
  extensions: MAIN_ONLY,
  fields: (t) => ({
    invoked: t.exposeBoolean('invoked'),
    reason: t.exposeString('reason', { nullable: true, description: 'no_handler or failed.' }),
    json: t.exposeString('json', { nullable: true, description: "The handler's result as JSON." }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

builder.objectField(SessionRef, 'ipc', (t) =>
  t.field({
    type: IpcLogRef,
    description: 'IPC captured so far on the channels armIpc named. Present only with --allow-eval(=main).',
    ...GATED,
    args: { channel: t.arg.string({ required: false }) },
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
    args: { session: t.arg.id({ required: false }), channels: t.arg.stringList({ required: true }) },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).native.armIpc(args.channels),
  }),
  stopIpc: t.field({
    type: IpcCaptureRef,
    description: 'Stops IPC capture; what was kept stays readable.',
    ...GATED,
    args: { session: t.arg.id({ required: false }) },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).native.stopIpc(),
  }),
  invokeIpc: t.field({
    type: IpcInvocationRef,
    description:
      "Calls the app's ipcMain.handle handler for `channel` as the active page's invoke would, with `args` (a JSON array).",
    ...GATED,
    args: {
      session: t.arg.id({ required: false }),
      channel: t.arg.string({ required: true }),
      args: t.arg.string({ required: false, description: 'A JSON array of arguments (default []).' }),
    },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.invokeIpc(args.channel, parseArgs(args.args)),
  }),
}));

const IpcEventRef = builder.objectRef<Delivery<IpcEntry>>('IpcEvent').implement({
  extensions: MAIN_ONLY,
  fields: (t) => ({
    message: t.field({ type: IpcMessageRef, resolve: (delivery) => delivery.event }),
    droppedBefore: t.exposeInt('droppedBefore'),
  }),
});

builder.subscriptionField('ipc', (t) =>
  t.field({
    type: IpcEventRef,
    description: 'IPC on captured channels as it happens; all sessions unless `session` is given.',
    extensions: MAIN_ONLY,
    args: { session: t.arg.id({ required: false }) },
    subscribe: (_root, args, { hub, sessions }) => nativeStream(hub, sessions, 'ipc', args.session),
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
