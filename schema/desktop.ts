import type { DesktopApp } from '../transports/contract/transport-contract.js';
import { builder } from './builder.js';
import { REPLICA_ARGUMENT, sessionOfClient } from './client-sessions.js';
import { SessionRef } from './session.js';

const DesktopAppRef = builder.objectRef<DesktopApp>('DesktopApp').implement({
  description:
    "An application registered with the current desktop's accessibility registry (AT-SPI2): what attachDesktop can reach.",
  fields: (t) => ({
    name: t.exposeString('name', {
      description:
        'Its accessible name (GTK: the program name, e.g. app.py; Qt: the application name); pass it as `appName` to attachDesktop. Empty when the app did not answer (one busy in a modal loop).',
    }),
    pid: t.exposeInt('pid', {
      nullable: true,
      description: 'The process behind its accessibility bus connection; pass it as `pid` to attachDesktop.',
    }),
    busName: t.exposeString('busName', {
      description: 'Its unique name on the accessibility bus, e.g. :1.42.',
    }),
    windowTitles: t.exposeStringList('windowTitles', {
      description: 'The titles of its top-level windows, in the order it lists them.',
    }),
  }),
});

builder.queryField('desktopApps', (t) =>
  t.field({
    type: [DesktopAppRef],
    description:
      "The accessible applications of the desktop the server runs on (its DISPLAY and DBUS_SESSION_BUS_ADDRESS). DESKTOP_UNAVAILABLE when the server runs on no desktop; apps on a desktop a launchDesktop session started are that session's alone and not listed.",
    resolve: (_root, _args, { sessions }) => sessions.desktopApps(),
  }),
);

const DesktopEnvVarInput = builder.inputType('DesktopEnvVar', {
  description: 'One environment variable for a launched desktop app.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'The variable name.' }),
    value: t.string({
      required: true,
      description: 'Its value; redacted in the audit trail and approval requests.',
    }),
  }),
});

const LaunchDesktopInput = builder.inputType('LaunchDesktopInput', {
  description:
    "A desktop app (GTK, Qt, or Chromium with accessibility on) to start in its own process group. When the server runs on no desktop (no DISPLAY and DBUS_SESSION_BUS_ADDRESS), the session starts one of its own — Xvfb, a session bus and the accessibility bus — and ends it with the app. stdout and stderr are recorded in the session's artifact folder.",
  fields: (t) => ({
    command: t.string({
      required: true,
      description: 'The executable: a path, or a name looked up on PATH. BAD_INPUT when empty.',
    }),
    args: t.stringList({ required: false, description: 'Its arguments, as given.' }),
    env: t.field({
      type: [DesktopEnvVarInput],
      required: false,
      description:
        "Added to the server environment and the desktop's (DISPLAY, DBUS_SESSION_BUS_ADDRESS, ...).",
    }),
    cwd: t.string({ required: false, description: "Its working directory; default: the server's." }),
    timeoutMs: t.int({
      required: false,
      description:
        'How long to wait for the desktop, for the app to register with the accessibility registry and for its first window; default 30000, clamped to 1000..120000.',
    }),
  }),
});

const AttachDesktopInput = builder.inputType('AttachDesktopInput', {
  description:
    'A running app on the desktop the server runs on, named by exactly one of `pid` and `appName` (see desktopApps).',
  fields: (t) => ({
    pid: t.int({ required: false, description: 'The process behind its accessibility bus connection.' }),
    appName: t.string({
      required: false,
      description: 'Its accessible name, exactly; BAD_INPUT when several apps share it (attach by pid).',
    }),
    timeoutMs: t.int({
      required: false,
      description:
        'How long to wait for the app to appear in the registry (it may still be starting); default 15000, clamped to 1000..120000. DESKTOP_APP_NOT_FOUND after it.',
    }),
  }),
});

builder.mutationFields((t) => ({
  launchDesktop: t.field({
    type: SessionRef,
    description:
      'Starts a desktop app and drives it over AT-SPI2 (transport atspi); RUNNING once its first window shows. stop ends its process group (SIGINT, then SIGTERM, then SIGKILL) and the desktop the session started.',
    governance: { session: null, actsOn: 'program', target: 'input' },
    args: {
      replica: t.arg.string({ required: false, description: REPLICA_ARGUMENT }),
      input: t.arg({
        type: LaunchDesktopInput,
        required: true,
        description: 'The command to start, with its arguments and environment.',
      }),
    },
    resolve: (_root, { input, replica }, context) =>
      sessionOfClient(context, (sessions) => sessions.launchDesktop(input), replica),
  }),
  attachDesktop: t.field({
    type: SessionRef,
    description:
      "Reaches a running app of the current desktop over AT-SPI2 (transport atspi). The app is not Stagegraph's: `detach` lets go, stop is refused; the session is DISCONNECTED when the app leaves the registry.",
    args: {
      input: t.arg({
        type: AttachDesktopInput,
        required: true,
        description: 'Which app to reach: its pid or its accessible name.',
      }),
    },
    governance: { session: null },
    resolve: (_root, { input }, context) =>
      sessionOfClient(context, (sessions) => sessions.attachDesktop(input)),
  }),
}));
