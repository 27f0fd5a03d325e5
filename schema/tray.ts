import type { TrayEventName, TrayInvocation, TrayState } from '../transports/native-contract.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { actsOn } from './governance.js';
import { NativeMenuItemRef } from './menu.js';
import { SessionRef } from './session.js';

const TRAY_EVENTS = {
  CLICK: 'click',
  RIGHT_CLICK: 'right-click',
  DOUBLE_CLICK: 'double-click',
  MIDDLE_CLICK: 'middle-click',
  MOUSE_ENTER: 'mouse-enter',
  MOUSE_LEAVE: 'mouse-leave',
} as const satisfies Record<string, TrayEventName>;

const TrayEventEnum = builder.enumType('TrayEvent', {
  values: Object.keys(TRAY_EVENTS) as (keyof typeof TRAY_EVENTS)[],
  description: "Tray events as Electron emits them ('click', 'right-click', ...).",
});

const TrayRef = builder.objectRef<TrayState>('Tray').implement({
  description:
    'A tray icon the app created (seen only with instrumentNative: Electron keeps no list of trays).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 't1, t2, ... in creation order.' }),
    tooltip: t.exposeString('tooltip', { description: 'The last value passed to setToolTip.' }),
    title: t.exposeString('title'),
    hasImage: t.exposeBoolean('hasImage'),
    destroyed: t.exposeBoolean('destroyed'),
    contextMenu: t.field({ type: [NativeMenuItemRef], nullable: true, resolve: (tray) => tray.contextMenu }),
  }),
});

const TrayInvocationRef = builder.objectRef<TrayInvocation>('TrayInvocation').implement({
  fields: (t) => ({
    emitted: t.exposeBoolean('emitted'),
    reason: t.exposeString('reason', { nullable: true, description: 'not_found or no_listener.' }),
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
    ...requiresCapability('NATIVE_UI'),
    resolve: (session) => session.native.trays(),
  }),
);

builder.mutationField('invokeTray', (t) =>
  t.field({
    type: TrayInvocationRef,
    description:
      "Emits a tray event on the live tray, as the OS would, and returns the tray after the app's handler.",
    ...actsOn('tray', requiresCapability('NATIVE_UI')),
    args: {
      session: t.arg.id({ required: false }),
      tray: t.arg.id({ required: true, description: 'The tray id from `session { trays { id } }`.' }),
      event: t.arg({ type: TrayEventEnum, required: true }),
    },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.invokeTray(String(args.tray), TRAY_EVENTS[args.event]),
  }),
);
