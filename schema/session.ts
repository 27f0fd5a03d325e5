import { RemoteSession } from '../domain/cluster/remote-session.js';
import { Session } from '../domain/sessions/session.js';
import type { AppInfo } from '../transports/contract/transport-contract.js';
import type { ExitInfo } from '../transports/contract/transport-events.js';
import { builder } from './builder.js';
import { CapabilitiesRef } from './capability.js';
import { REPLICA_ARGUMENT, sessionOfClient } from './client-sessions.js';
import { listedSessions, sessionAnywhere } from './cluster-sessions.js';
import { WindowRef } from './window.js';

export const SessionStatusEnum = builder.enumType('SessionStatus', {
  values: {
    STARTING: {
      description: 'Reached, but its first window has not opened yet (at most the launch timeout).',
    },
    RUNNING: { description: 'Live: it can be driven, read and watched.' },
    CRASHED: {
      description:
        'The app process was ended by a signal Stagegraph did not send (kill -9, OOM killer, segfault); see `exit`.',
    },
    EXITED: { description: 'The app process exited on its own; see `exit.code`.' },
    STOPPED: { description: 'Ended by stop or forceKill (or server shutdown) of an app Stagegraph started.' },
    DISCONNECTED: {
      description: 'The connection to an attached or injected app was lost; the app may still run.',
    },
    DETACHED: {
      description:
        'Stagegraph let go of an attached or injected app (detach, or server shutdown); it keeps running.',
    },
    LOST: {
      description:
        'Cluster mode: the replica that owned it lost its lease (killed, paused, cut off) or restarted; operations on it answer SESSION_LOST.',
    },
  } as const,
  description:
    'STARTING until the first window shows; CRASHED when killed by a signal nobody here sent; DISCONNECTED when the connection to an attached app was lost (the app may still run); DETACHED once Stagegraph let go of an attached app, which keeps running.',
});

const VersionRef = builder.objectRef<{ name: string; version: string }>('ComponentVersion').implement({
  description: 'One component of the app and its version, e.g. electron 31.0.0.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The component: electron, chrome, node, v8, ...' }),
    version: t.exposeString('version', { description: 'Its version string.' }),
  }),
});

const AppInfoRef = builder.objectRef<AppInfo>('AppInfo').implement({
  description:
    'What the app says about itself: read in its main process (launch, inject), from its DevTools endpoint (attach, launchCommand), or from the accessibility registry (launchDesktop, attachDesktop: its accessible name, no version).',
  fields: (t) => ({
    name: t.exposeString('name', {
      nullable: true,
      description:
        "The app's name (Electron's app.getName(); over DevTools, the name in its user agent or the browser's product; on atspi, its accessible application name); null when unknown.",
    }),
    version: t.exposeString('version', {
      nullable: true,
      description: "The app's version, read the same way as `name`; null when unknown.",
    }),
    executablePath: t.exposeString('executablePath', {
      description:
        "The executable running the app: the resolved Electron binary, the launched command, or the main process's executable; empty when this machine cannot tell (some attaches).",
    }),
    versions: t.field({
      type: [VersionRef],
      description:
        'process.versions of the main process (electron, chrome, node, ...) when launched or injected; chrome, v8, protocol (and electron) from the DevTools endpoint when attached.',
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
    code: t.exposeInt('code', {
      nullable: true,
      description: 'The exit code; null when a signal ended the process.',
    }),
    signal: t.exposeString('signal', {
      nullable: true,
      description: 'The signal that ended it, e.g. SIGKILL; null when it exited with a code.',
    }),
  }),
});

export const SessionRef = builder.objectRef<Session>('Session').implement({
  description: 'One app driven through one transport. Stays readable after the app ends, for post-mortems.',
  isTypeOf: (value) => value instanceof Session || value instanceof RemoteSession,
  fields: (t) => ({
    id: t.exposeID('id', {
      description:
        'The session id (s1, s2, ...): pass it as `id:` to session, stop, forceKill and detach, and as `session:` to actions and subscriptions.',
    }),
    transport: t.exposeString('transportId', {
      description:
        'The id of the transport driving it (playwright-electron, cdp, inspector or atspi); see `transports`.',
    }),
    capabilities: t.field({
      type: CapabilitiesRef,
      description:
        "What this session can do: its transport's matrix, narrower where the session achieved less (an inject whose renderer upgrade failed). A field needing a false one fails with CAPABILITY_UNSUPPORTED.",
      resolve: (session) => session.capabilities,
    }),
    capabilityNotes: t.stringList({
      description:
        "Why `capabilities` is narrower than the transport's, a sentence each, where the session can tell (an atspi session on a Wayland desktop with no X display has INTERACTION false); empty otherwise.",
      resolve: (session) => [...session.capabilityNotes],
    }),
    status: t.field({
      type: SessionStatusEnum,
      description: 'Where the session is in its life; only STARTING and RUNNING sessions can act.',
      resolve: (session) => session.status,
    }),
    pid: t.int({
      nullable: true,
      description: "The app's main process id; null when the transport cannot tell.",
      resolve: (session) => session.pid,
    }),
    ownsProcess: t.boolean({
      description:
        'True when Stagegraph started the app (stop and forceKill end it); false when it attached to one, which only detach lets go of.',
      resolve: (session) => session.ownsProcess,
    }),
    endpoint: t.string({
      nullable: true,
      description:
        'The DevTools or inspector websocket an attached session speaks to; for atspi, `atspi://<bus name>` of the app on the accessibility bus.',
      resolve: (session) => session.endpoint,
    }),
    app: t.field({
      type: AppInfoRef,
      description: 'What the app says about itself: name, version, executable, component versions.',
      resolve: (session) => session.app,
    }),
    startedAt: t.field({
      type: 'DateTime',
      description: 'When the session was created, once its transport had reached the app.',
      resolve: (session) => session.startedAt,
    }),
    endedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'When the session ended (EXITED, CRASHED, STOPPED, DISCONNECTED or DETACHED); null while it is live.',
      resolve: (session) => session.endedAt,
    }),
    exit: t.field({
      type: ExitRef,
      nullable: true,
      description:
        "How the app's process ended; null while it runs, and for a session detached or disconnected without seeing it exit.",
      resolve: (session) => session.exit,
    }),
    windows: t.field({
      type: [WindowRef],
      description: 'Open windows in opening order; empty once the session has ended.',
      requiresCapability: 'WINDOWS',
      resolve: (session) => session.windows(),
    }),
    window: t.field({
      type: WindowRef,
      description: 'One open window by id; the active window when `id` is left out.',
      requiresCapability: 'WINDOWS',
      args: {
        id: t.arg.id({
          required: false,
          description: 'A window id (w1, w2, ...); WINDOW_NOT_FOUND when no such window is open.',
        }),
      },
      resolve: (session, args) => session.findWindow(args.id),
    }),
    activeWindow: t.field({
      type: WindowRef,
      nullable: true,
      description: 'The window chosen with switchWindow, else the first open one.',
      requiresCapability: 'WINDOWS',
      resolve: (session) => session.activeWindow(),
    }),
  }),
});

builder.queryFields((t) => ({
  sessions: t.field({
    type: [SessionRef],
    description:
      "Every session, live and recently ended; in cluster mode every replica's, each with its `replica`.",
    resolve: (_root, _args, { sessions, cluster }) => listedSessions(sessions, cluster),
  }),
  session: t.field({
    type: SessionRef,
    // Nullable so a failed lookup errors alone instead of nulling every sibling field of the query.
    nullable: true,
    description: 'One session; `id` may be omitted when exactly one session is live.',
    args: {
      id: t.arg.id({
        required: false,
        description:
          'A session id (s1, ...). Omitted: the only live session, or the only session at all; SESSION_AMBIGUOUS when that picks none. SESSION_NOT_FOUND for an unknown id, or when there is no session.',
      }),
    },
    resolve: (_root, args, { sessions, cluster }) => sessionAnywhere(sessions, cluster, args.id),
  }),
}));

const EnvVarInput = builder.inputType('EnvVar', {
  description: 'One environment variable for a launched app.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'The variable name, e.g. NODE_ENV.' }),
    value: t.string({
      required: true,
      description: 'Its value; redacted in the audit trail and approval requests.',
    }),
  }),
});

const LaunchInput = builder.inputType('LaunchInput', {
  description: 'Give `main` (an app entry script or folder) or `executablePath`, or both.',
  fields: (t) => ({
    main: t.string({
      required: false,
      description:
        "The app's entry script or folder; relative paths resolve against `cwd`. LAUNCH_FAILED when it does not exist.",
    }),
    executablePath: t.string({
      required: false,
      description:
        "An Electron binary or packaged app; default: --electron, ELECTRON_PATH, the app's own electron package.",
    }),
    args: t.stringList({ required: false, description: 'Extra arguments after the entry script.' }),
    env: t.field({ type: [EnvVarInput], required: false, description: 'Added to the server environment.' }),
    cwd: t.string({
      required: false,
      description: "The app's working directory; default: the server's.",
    }),
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
    governance: { session: null, actsOn: 'program', target: 'input' },
    args: {
      replica: t.arg.string({ required: false, description: REPLICA_ARGUMENT }),
      input: t.arg({ type: LaunchInput, required: true, description: 'What to launch, and how.' }),
    },
    resolve: (_root, { input, replica }, context) =>
      sessionOfClient(context, (sessions) => sessions.launch(input), replica),
  }),
  stop: t.field({
    type: SessionRef,
    description: 'Quits the app gracefully, escalating to SIGTERM and SIGKILL of its process group.',
    args: {
      id: t.arg.id({
        required: false,
        description:
          'The session to stop; optional when exactly one session is live. NOT_OWNED for an app Stagegraph did not start (detach it); an ended session is returned as it is.',
      }),
      graceMs: t.arg.int({ required: false, description: 'Default 5000, clamped to 0..30000.' }),
    },
    governance: { session: 'id' },
    endsSession: true,
    resolve: (_root, args, { sessions }) => sessions.stop(args.id, args.graceMs),
  }),
  forceKill: t.field({
    type: SessionRef,
    description: "SIGKILLs the app's whole process group at once.",
    args: {
      id: t.arg.id({
        required: false,
        description:
          'The session to kill; optional when exactly one session is live. NOT_OWNED for an app Stagegraph did not start; an ended session is returned as it is.',
      }),
    },
    governance: { session: 'id' },
    endsSession: true,
    resolve: (_root, args, { sessions }) => sessions.forceKill(args.id),
  }),
}));
