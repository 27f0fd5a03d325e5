import { Session } from '../resolvers/sessions/session.js';
import type { AppInfo, ExitInfo } from '../transports/contract.js';
import { builder } from './builder.js';
import { CapabilitiesRef, requiresCapability } from './capability.js';
import { actsOn } from './governance.js';
import { WindowRef } from './window.js';

export const SessionStatusEnum = builder.enumType('SessionStatus', {
  values: ['STARTING', 'RUNNING', 'CRASHED', 'EXITED', 'STOPPED', 'DISCONNECTED', 'DETACHED'] as const,
  description:
    'STARTING until the first window shows; CRASHED when killed by a signal nobody here sent; DISCONNECTED when the connection to an attached app was lost (the app may still run); DETACHED once Stagegraph let go of an attached app, which keeps running.',
});

const VersionRef = builder.objectRef<{ name: string; version: string }>('ComponentVersion').implement({
  fields: (t) => ({ name: t.exposeString('name'), version: t.exposeString('version') }),
});

const AppInfoRef = builder.objectRef<AppInfo>('AppInfo').implement({
  description: "What the app's main process says about itself.",
  fields: (t) => ({
    name: t.exposeString('name', { nullable: true }),
    version: t.exposeString('version', { nullable: true }),
    executablePath: t.exposeString('executablePath'),
    versions: t.field({
      type: [VersionRef],
      description: 'process.versions of the main process (electron, chrome, node, ...).',
      resolve: (app) => Object.entries(app.versions).map(([name, version]) => ({ name, version })),
    }),
    standIn: t.exposeBoolean('standIn', {
      description: 'True when this is the test-only Electron-API stand-in, not real Electron.',
    }),
  }),
});

export const ExitRef = builder.objectRef<ExitInfo>('Exit').implement({
  description: 'How the app process ended: an exit code, or the signal that ended it.',
  fields: (t) => ({
    code: t.exposeInt('code', { nullable: true }),
    signal: t.exposeString('signal', { nullable: true }),
  }),
});

export const SessionRef = builder.objectRef<Session>('Session').implement({
  description: 'One app driven through one transport. Stays readable after the app ends, for post-mortems.',
  isTypeOf: (value) => value instanceof Session,
  fields: (t) => ({
    id: t.exposeID('id'),
    transport: t.exposeString('transportId'),
    capabilities: t.field({ type: CapabilitiesRef, resolve: (session) => session.capabilities }),
    status: t.field({ type: SessionStatusEnum, resolve: (session) => session.status }),
    pid: t.int({ nullable: true, resolve: (session) => session.pid }),
    ownsProcess: t.boolean({
      description:
        'True when Stagegraph started the app (stop and forceKill end it); false when it attached to one, which only detach lets go of.',
      resolve: (session) => session.ownsProcess,
    }),
    endpoint: t.string({
      nullable: true,
      description: 'The DevTools or inspector websocket an attached session speaks to.',
      resolve: (session) => session.endpoint,
    }),
    app: t.field({ type: AppInfoRef, resolve: (session) => session.app }),
    startedAt: t.field({ type: 'DateTime', resolve: (session) => session.startedAt }),
    endedAt: t.field({ type: 'DateTime', nullable: true, resolve: (session) => session.endedAt }),
    exit: t.field({ type: ExitRef, nullable: true, resolve: (session) => session.exit }),
    windows: t.field({
      type: [WindowRef],
      description: 'Open windows in opening order; empty once the session has ended.',
      ...requiresCapability('WINDOWS'),
      resolve: (session) => session.windows(),
    }),
    window: t.field({
      type: WindowRef,
      description: 'One open window by id; the active window when `id` is left out.',
      ...requiresCapability('WINDOWS'),
      args: { id: t.arg.id({ required: false }) },
      resolve: (session, args) => session.findWindow(args.id),
    }),
    activeWindow: t.field({
      type: WindowRef,
      nullable: true,
      description: 'The window chosen with switchWindow, else the first open one.',
      ...requiresCapability('WINDOWS'),
      resolve: (session) => session.activeWindow(),
    }),
  }),
});

builder.queryFields((t) => ({
  sessions: t.field({
    type: [SessionRef],
    description: 'Every session, live and recently ended.',
    resolve: (_root, _args, { sessions }) => sessions.list(),
  }),
  session: t.field({
    type: SessionRef,
    // Nullable so a failed lookup errors alone instead of nulling every sibling field of the query.
    nullable: true,
    description: 'One session; `id` may be omitted when exactly one session is live.',
    args: { id: t.arg.id({ required: false }) },
    resolve: (_root, args, { sessions }) => sessions.get(args.id),
  }),
}));

const EnvVarInput = builder.inputType('EnvVar', {
  fields: (t) => ({ name: t.string({ required: true }), value: t.string({ required: true }) }),
});

const LaunchInput = builder.inputType('LaunchInput', {
  description: 'Give `main` (an app entry script or folder) or `executablePath`, or both.',
  fields: (t) => ({
    main: t.string({ required: false }),
    executablePath: t.string({
      required: false,
      description:
        "An Electron binary or packaged app; default: --electron, ELECTRON_PATH, the app's own electron package.",
    }),
    args: t.stringList({ required: false, description: 'Extra arguments after the entry script.' }),
    env: t.field({ type: [EnvVarInput], required: false, description: 'Added to the server environment.' }),
    cwd: t.string({ required: false }),
    timeoutMs: t.int({ required: false, description: 'Default 30000, clamped to 1000..120000.' }),
    instrumentNative: t.boolean({
      required: false,
      description:
        "Install the fixed native hooks before the app's main runs (needs `main`): trays and start-up notifications are seen from the first line.",
    }),
  }),
});

builder.mutationFields((t) => ({
  launch: t.field({
    type: SessionRef,
    description: 'Starts an app and returns its session once the first window shows (or the timeout passes).',
    ...actsOn('program'),
    args: { input: t.arg({ type: LaunchInput, required: true }) },
    resolve: (_root, { input }, { sessions }) => sessions.launch(input),
  }),
  stop: t.field({
    type: SessionRef,
    description: 'Quits the app gracefully, escalating to SIGTERM and SIGKILL of its process group.',
    args: {
      id: t.arg.id({ required: false }),
      graceMs: t.arg.int({ required: false, description: 'Default 5000, clamped to 0..30000.' }),
    },
    resolve: (_root, args, { sessions }) => sessions.stop(args.id, args.graceMs),
  }),
  forceKill: t.field({
    type: SessionRef,
    description: "SIGKILLs the app's whole process group at once.",
    args: { id: t.arg.id({ required: false }) },
    resolve: (_root, args, { sessions }) => sessions.forceKill(args.id),
  }),
}));
