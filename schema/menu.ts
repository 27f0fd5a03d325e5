import type { Delivery } from '../resolvers/bounded/subscriber-queue.js';
import { nativeStream } from '../resolvers/native/native-streams.js';
import type { ContextMenuEntry } from '../resolvers/native/session-native.js';
import type { MenuInvocation, NativeMenuItem } from '../transports/native-contract.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { actsOn } from './governance.js';
import { SessionRef } from './session.js';

const MenuItemTypeEnum = builder.enumType('NativeMenuItemType', {
  values: ['NORMAL', 'SEPARATOR', 'SUBMENU', 'CHECKBOX', 'RADIO'] as const,
});

export const NativeMenuItemRef = builder.objectRef<NativeMenuItem>('NativeMenuItem');
NativeMenuItemRef.implement({
  description: 'An Electron MenuItem as the main process holds it, read by a fixed serializer (not eval).',
  fields: (t) => ({
    label: t.exposeString('label'),
    role: t.exposeString('role', { nullable: true }),
    type: t.field({
      type: MenuItemTypeEnum,
      resolve: (item) => item.type.toUpperCase() as 'NORMAL' | 'SEPARATOR' | 'SUBMENU' | 'CHECKBOX' | 'RADIO',
    }),
    id: t.exposeString('id', { nullable: true }),
    accelerator: t.exposeString('accelerator', { nullable: true }),
    enabled: t.exposeBoolean('enabled'),
    visible: t.exposeBoolean('visible'),
    checked: t.exposeBoolean('checked'),
    sublabel: t.exposeString('sublabel', { nullable: true }),
    toolTip: t.exposeString('toolTip', { nullable: true }),
    submenu: t.field({ type: [NativeMenuItemRef], nullable: true, resolve: (item) => item.submenu }),
  }),
});

const MenuInvocationRef = builder.objectRef<MenuInvocation>('MenuInvocation').implement({
  description: 'Whether the click reached the app; refused, never faked, when Electron would not deliver it.',
  fields: (t) => ({
    invoked: t.exposeBoolean('invoked'),
    reason: t.exposeString('reason', {
      nullable: true,
      description:
        'not_found, disabled, role (Electron runs role items itself: press their accelerator instead), submenu, separator, no_handler, no_menu.',
    }),
    label: t.exposeString('label', { nullable: true }),
    role: t.exposeString('role', { nullable: true }),
  }),
});

const PointRef = builder.objectRef<{ x: number; y: number }>('Point').implement({
  fields: (t) => ({ x: t.exposeInt('x'), y: t.exposeInt('y') }),
});

const ContextMenuRef = builder.objectRef<ContextMenuEntry>('ContextMenu').implement({
  description:
    'A menu the app popped up with Menu.popup; it stays open until an item is chosen or it closes.',
  fields: (t) => ({
    sessionId: t.exposeID('sessionId'),
    windowId: t.exposeID('windowId', { nullable: true, description: 'The window it opened over.' }),
    position: t.field({
      type: PointRef,
      nullable: true,
      resolve: (menu) => (menu.x === null || menu.y === null ? null : { x: menu.x, y: menu.y }),
    }),
    time: t.field({ type: 'DateTime', resolve: (menu) => menu.time }),
    items: t.field({ type: [NativeMenuItemRef], resolve: (menu) => menu.items }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  applicationMenu: t.field({
    type: [NativeMenuItemRef],
    nullable: true,
    description: "The app's menu bar (Menu.getApplicationMenu()); null when it has none.",
    ...requiresCapability('NATIVE_UI'),
    resolve: (session) => session.native.applicationMenu(),
  }),
  menuItem: t.field({
    type: NativeMenuItemRef,
    nullable: true,
    description: 'One application menu item by path; each step matches a label, else a role.',
    ...requiresCapability('NATIVE_UI'),
    args: { path: t.arg.stringList({ required: true }) },
    resolve: (session, args) => session.native.menuItem(args.path),
  }),
  contextMenu: t.field({
    type: ContextMenuRef,
    nullable: true,
    description: 'The context menu the app has open now (any Menu.popup), or null.',
    ...requiresCapability('NATIVE_UI'),
    resolve: (session) => session.native.contextMenu(),
  }),
}));

builder.mutationFields((t) => ({
  invokeMenuItem: t.field({
    type: MenuInvocationRef,
    description:
      "Clicks an application menu item as Electron would (the app's handler gets the focused window).",
    ...actsOn('menuItem', requiresCapability('NATIVE_UI')),
    args: { session: t.arg.id({ required: false }), path: t.arg.stringList({ required: true }) },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).native.invokeMenuItem(args.path),
  }),
  invokeContextMenuItem: t.field({
    type: MenuInvocationRef,
    description: 'Chooses an item of the open context menu as a person would; the menu then closes.',
    ...actsOn('contextMenuItem', requiresCapability('NATIVE_UI')),
    args: { session: t.arg.id({ required: false }), path: t.arg.stringList({ required: true }) },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.invokeContextMenuItem(args.path),
  }),
}));

const ContextMenuEventRef = builder.objectRef<Delivery<ContextMenuEntry>>('ContextMenuEvent').implement({
  fields: (t) => ({
    menu: t.field({ type: ContextMenuRef, resolve: (delivery) => delivery.event }),
    droppedBefore: t.exposeInt('droppedBefore'),
  }),
});

builder.subscriptionField('contextMenus', (t) =>
  t.field({
    type: ContextMenuEventRef,
    description: 'Context menus as the app pops them up; all sessions unless `session` is given.',
    args: { session: t.arg.id({ required: false }) },
    subscribe: (_root, args, { hub, sessions }) => nativeStream(hub, sessions, 'contextMenu', args.session),
    resolve: (delivery) => delivery,
  }),
);
