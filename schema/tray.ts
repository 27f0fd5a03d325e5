import type { TrayEventName, TrayInvocation, TrayState } from '../transports/contract/native.js';
import { builder } from './builder.js';
import { NativeMenuItemRef } from './menu.js';
import { type OutcomeValue, outcomeEnum } from './outcome-enum.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';

const TRAY_EVENTS = {
  CLICK: 'click',
  RIGHT_CLICK: 'right-click',
  DOUBLE_CLICK: 'double-click',
  MIDDLE_CLICK: 'middle-click',
  MOUSE_ENTER: 'mouse-enter',
  MOUSE_LEAVE: 'mouse-leave',
} as const satisfies Record<string, TrayEventName>;

const TrayEventEnum = builder.enumType('TrayEvent', {
  values: {
    CLICK: { description: "'click', with the tray's bounds and position." },
    RIGHT_CLICK: { description: "'right-click', with the tray's bounds." },
    DOUBLE_CLICK: { description: "'double-click', with the tray's bounds." },
    MIDDLE_CLICK: { description: "'middle-click', with the tray's bounds." },
    MOUSE_ENTER: { description: "'mouse-enter', with the pointer position." },
    MOUSE_LEAVE: { description: "'mouse-leave', with the pointer position." },
  } as const satisfies Record<keyof typeof TRAY_EVENTS, { description: string }>,
  description: "Tray events as Electron emits them ('click', 'right-click', ...).",
});

/** Every refusal the tray hooks report, by its transport spelling: a new one fails to compile until added. */
const TRAY_REFUSALS = {
  not_found: {
    name: 'NOT_FOUND',
    description:
      'No live tray has this id (none was created with it, or the app destroyed it): read `trays` for the ids.',
  },
  no_listener: {
    name: 'NO_LISTENER',
    description: 'The app listens for no such event on this tray: emitting it would do nothing.',
  },
} as const satisfies Record<NonNullable<TrayInvocation['reason']>, OutcomeValue>;

const TrayInvocationReasonEnum = outcomeEnum(
  'TrayInvocationReason',
  'Why a tray event was not emitted; it is refused, never faked.',
  TRAY_REFUSALS,
);

const TrayRef = builder.objectRef<TrayState>('Tray').implement({
  description:
    'A tray icon the app created (seen only with instrumentNative: Electron keeps no list of trays).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 't1, t2, ... in creation order.' }),
    tooltip: t.exposeString('tooltip', { description: 'The last value passed to setToolTip.' }),
    title: t.exposeString('title', {
      description: 'The last value passed to setTitle (macOS menu-bar text).',
    }),
    hasImage: t.exposeBoolean('hasImage', { description: 'False when its image is empty or missing.' }),
    destroyed: t.exposeBoolean('destroyed', {
      description: 'True once the app destroyed it; it can no longer be invoked.',
    }),
    contextMenu: t.field({
      type: [NativeMenuItemRef],
      nullable: true,
      description: 'The menu set with setContextMenu; null when none.',
      resolve: (tray) => tray.contextMenu,
    }),
  }),
});

const TrayInvocationRef = builder.objectRef<TrayInvocation>('TrayInvocation').implement({
  description: "What invokeTray did: the event was emitted to the app's listeners, or why it was not.",
  fields: (t) => ({
    emitted: t.exposeBoolean('emitted', {
      description:
        "True when the event was emitted and the app's listeners ran; false means refused (see `reason`).",
    }),
    reason: t.field({
      type: TrayInvocationReasonEnum,
      nullable: true,
      description: 'Why the event was refused; null when `emitted`.',
      resolve: (result) => result.reason,
    }),
    tray: t.field({
      type: TrayRef,
      nullable: true,
      description: "Read back after the app's handler ran.",
      resolve: (result) => result.tray,
    }),
  }),
});

builder.objectField(SessionRef, 'trays', (t) =>
  t.field({
    type: [TrayRef],
    description: 'Tray icons; NOT_INSTRUMENTED unless the session was launched with instrumentNative.',
    requiresCapability: 'NATIVE_UI',
    resolve: (session) => session.native.trays(),
  }),
);

builder.mutationField('invokeTray', (t) =>
  t.field({
    type: TrayInvocationRef,
    description:
      "Emits a tray event on the live tray, as the OS would, and returns the tray after the app's handler.",
    requiresCapability: 'NATIVE_UI',
    governance: { session: 'session', actsOn: 'tray', target: 'tray', risk: { event: 'event' } },
    args: {
      ...sessionArg,
      tray: t.arg.id({ required: true, description: 'The tray id from `session { trays { id } }`.' }),
      event: t.arg({ type: TrayEventEnum, required: true, description: 'The event to emit.' }),
    },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.invokeTray(String(args.tray), TRAY_EVENTS[args.event]),
  }),
);
