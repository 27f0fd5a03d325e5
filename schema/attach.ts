import type { DebuggableApp } from '../transports/contract/transport-contract.js';
import { builder } from './builder.js';
import { REPLICA_ARGUMENT, sessionOfClient } from './client-sessions.js';
import { SessionRef } from './session.js';

const DebuggableTargetRef = builder
  .objectRef<DebuggableApp['targets'][number]>('DebuggableTarget')
  .implement({
    description: 'One DevTools target of a debuggable app: a page is a window.',
    fields: (t) => ({
      id: t.exposeID('id', { description: 'The DevTools target id.' }),
      type: t.exposeString('type', {
        description: 'The target type DevTools reports: page, iframe, service_worker, worker, ...',
      }),
      title: t.exposeString('title', { description: "The target's title." }),
      url: t.exposeString('url', { description: "The target's URL." }),
    }),
  });

const DebuggableAppRef = builder.objectRef<DebuggableApp>('DebuggableApp').implement({
  description: 'A browser or Electron app answering the DevTools protocol on a port.',
  fields: (t) => ({
    port: t.exposeInt('port', { description: 'The port it answers on; pass it as `port` to attach.' }),
    browser: t.exposeString('browser', { description: 'Product/version from /json/version.' }),
    protocolVersion: t.exposeString('protocolVersion', {
      description: 'The DevTools protocol version, e.g. 1.3.',
    }),
    webSocketDebuggerUrl: t.exposeString('webSocketDebuggerUrl', {
      description: 'The browser-level DevTools websocket; attach also takes it as `cdpUrl`.',
    }),
    pid: t.exposeInt('pid', { nullable: true, description: 'The process listening on the port.' }),
    targets: t.field({
      type: [DebuggableTargetRef],
      description: 'Its DevTools targets: pages (windows), workers, ...',
      resolve: (app) => app.targets,
    }),
  }),
});

builder.queryField('discover', (t) =>
  t.field({
    type: [DebuggableAppRef],
    description:
      'Lists the debuggable browsers and apps answering on the given ports; silent ports are left out.',
    args: {
      ports: t.arg.intList({ required: true, description: 'At most 64 ports.' }),
      host: t.arg.string({
        required: false,
        description: 'Default 127.0.0.1; others need --allow-remote-cdp.',
      }),
    },
    resolve: (_root, args, { sessions }) => sessions.discover(args.ports, args.host),
  }),
);

const RendererFilterFields = {
  titleContains: 'Start on the page whose title contains this.',
  urlIncludes: 'Start on the page whose url contains this.',
} as const;

const AttachInput = builder.inputType('AttachInput', {
  description:
    'Give `port` (on `host`) or `cdpUrl`. Without a filter the renderer is picked by preference: app://, file://, http://localhost, then others.',
  fields: (t) => ({
    port: t.int({ required: false, description: "The app's --remote-debugging-port." }),
    cdpUrl: t.string({
      required: false,
      description: 'http://host:port, or a ws://…/devtools/browser/… URL.',
    }),
    host: t.string({ required: false, description: 'Default 127.0.0.1; others need --allow-remote-cdp.' }),
    titleContains: t.string({ required: false, description: RendererFilterFields.titleContains }),
    urlIncludes: t.string({ required: false, description: RendererFilterFields.urlIncludes }),
    timeoutMs: t.int({ required: false, description: 'Default 15000, clamped to 1000..120000.' }),
  }),
});

const EnvEntryInput = builder.inputType('CommandEnvVar', {
  description: 'One environment variable for a launched command.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'The variable name.' }),
    value: t.string({
      required: true,
      description: 'Its value; redacted in the audit trail and approval requests.',
    }),
  }),
});

const LaunchCommandInput = builder.inputType('LaunchCommandInput', {
  description:
    "Any command that opens a DevTools port when given --remote-debugging-port (Chromium, an Electron binary or packaged app). Stagegraph picks a free port, records stdout and stderr in the session's artifact folder, and owns the process tree.",
  fields: (t) => ({
    command: t.string({
      required: true,
      description: 'The executable: a path, or a name looked up on PATH. BAD_INPUT when empty.',
    }),
    args: t.stringList({ required: false, description: 'After the DevTools switches Stagegraph adds.' }),
    cwd: t.string({
      required: false,
      description: "The command's working directory; default: the server's.",
    }),
    env: t.field({ type: [EnvEntryInput], required: false, description: 'Added to the server environment.' }),
    titleContains: t.string({ required: false, description: RendererFilterFields.titleContains }),
    urlIncludes: t.string({ required: false, description: RendererFilterFields.urlIncludes }),
    timeoutMs: t.int({ required: false, description: 'Default 30000, clamped to 1000..120000.' }),
  }),
});

const InjectInput = builder.inputType('InjectInput', {
  description:
    'A running Electron (or Node) main process, started without any debugging flag: its inspector is opened by SIGUSR1 and checked to belong to `pid`.',
  fields: (t) => ({
    pid: t.int({
      required: true,
      description: "The app's main process (the Electron binary, not a renderer).",
    }),
    upgrade: t.boolean({
      required: false,
      description:
        "Default true: attach webContents.debugger to every window and drive the renderers through it (snapshots, actions, capture). The session's capabilities say whether it worked.",
    }),
    timeoutMs: t.int({ required: false, description: 'Default 15000, clamped to 1000..120000.' }),
  }),
});

builder.mutationFields((t) => ({
  inject: t.field({
    type: SessionRef,
    description:
      "Injects into a running app's main process through its inspector. Like attach, the app is not Stagegraph's: `detach` lets go (closing the inspector if inject opened it).",
    governance: { session: null, actsOn: 'program', target: 'input' },
    args: {
      replica: t.arg.string({ required: false, description: REPLICA_ARGUMENT }),
      input: t.arg({
        type: InjectInput,
        required: true,
        description: 'Which process to inject into, and how.',
      }),
    },
    resolve: (_root, { input, replica }, context) =>
      sessionOfClient(context, (sessions) => sessions.inject(input), replica),
  }),
  attach: t.field({
    type: SessionRef,
    description:
      "Attaches to a running Chromium or Electron app over its remote-debugging port. The app is not Stagegraph's: `detach` lets go of it, stop is refused.",
    args: {
      replica: t.arg.string({ required: false, description: REPLICA_ARGUMENT }),
      input: t.arg({
        type: AttachInput,
        required: true,
        description: "Where the app's DevTools endpoint is, and which renderer to start on.",
      }),
    },
    governance: { session: null },
    resolve: (_root, { input, replica }, context) =>
      sessionOfClient(context, (sessions) => sessions.attach(input), replica),
  }),
  launchCommand: t.field({
    type: SessionRef,
    description:
      'Starts a command with a DevTools port, waits for it, and attaches; stop ends its process tree.',
    governance: { session: null, actsOn: 'program', target: 'input' },
    args: {
      replica: t.arg.string({ required: false, description: REPLICA_ARGUMENT }),
      input: t.arg({
        type: LaunchCommandInput,
        required: true,
        description: 'The command to start, and which renderer to start on.',
      }),
    },
    resolve: (_root, { input, replica }, context) =>
      sessionOfClient(context, (sessions) => sessions.launchCommand(input), replica),
  }),
  detach: t.field({
    type: SessionRef,
    description: 'Lets go of an attached app, which keeps running; the session becomes DETACHED.',
    args: {
      id: t.arg.id({
        required: false,
        description:
          'The session to let go of; optional when exactly one session is live. BAD_INPUT for a session whose app Stagegraph started (stop it instead).',
      }),
    },
    governance: { session: 'id' },
    endsSession: true,
    resolve: (_root, args, { sessions }) => sessions.detach(args.id),
  }),
}));
