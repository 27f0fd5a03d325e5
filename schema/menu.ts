import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import { TOPIC_FEEDS, topicFeed } from '../domain/cluster/topic-feeds.js';
import type { ContextMenuEntry } from '../domain/native/session-native.js';
import type { MenuInvocation, MenuRefusal, NativeMenuItem } from '../transports/contract/native.js';
import { builder } from './builder.js';
import { type OutcomeValue, outcomeEnum } from './outcome-enum.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';
import { AFTER, CURSOR, cursorOf, DROPPED_BEFORE } from './stream-cursor.js';

/** Every refusal the menu hooks report, by its transport spelling: a new one fails to compile until added. */
const MENU_REFUSALS = {
  not_found: {
    name: 'NOT_FOUND',
    description:
      'No item matches the path (each step matches a label, else a role): read applicationMenu or contextMenu for the labels.',
  },
  disabled: { name: 'DISABLED', description: 'The item is disabled; Electron would not deliver the click.' },
  role: {
    name: 'ROLE',
    description:
      'The item has a role (quit, copy, ...), which Electron runs itself rather than through a click handler: press its accelerator instead.',
  },
  submenu: {
    name: 'SUBMENU',
    description: 'The path ends at a submenu: add a step naming one of its items.',
  },
  separator: { name: 'SEPARATOR', description: 'The path ends at a separator, which cannot be clicked.' },
  no_handler: {
    name: 'NO_HANDLER',
    description:
      'The item was built from a template entry without a click handler: clicking it would do nothing.',
  },
  no_menu: {
    name: 'NO_MENU',
    description:
      'There is no menu to look in: the app set no application menu, or (invokeContextMenuItem) no context menu is open.',
  },
} as const satisfies Record<MenuRefusal, OutcomeValue>;

const MenuInvocationReasonEnum = outcomeEnum(
  'MenuInvocationReason',
  'Why a menu item was not clicked; the click is refused, never faked.',
  MENU_REFUSALS,
);

const MenuItemTypeEnum = builder.enumType('NativeMenuItemType', {
  description: "An Electron MenuItem's `type`.",
  values: {
    NORMAL: { description: 'A plain item that runs its click handler or role.' },
    SEPARATOR: { description: 'A divider line; it cannot be invoked.' },
    SUBMENU: { description: 'An item opening `submenu`; invoke one of its children instead.' },
    CHECKBOX: { description: 'An item that toggles `checked` when clicked.' },
    RADIO: { description: 'An item of a radio group; clicking it checks it.' },
  } as const,
});

export const NativeMenuItemRef = builder.objectRef<NativeMenuItem>('NativeMenuItem');
NativeMenuItemRef.implement({
  description: 'An Electron MenuItem as the main process holds it, read by a fixed serializer (not eval).',
  fields: (t) => ({
    label: t.exposeString('label', {
      description:
        'The label shown (empty when it has none, as separators); use it as a step of a menu `path`.',
    }),
    role: t.exposeString('role', {
      nullable: true,
      description:
        "Electron's built-in role (quit, copy, toggleDevTools, ...); null when none. Also matches as a `path` step.",
    }),
    type: t.field({
      type: MenuItemTypeEnum,
      description: 'NORMAL, SEPARATOR, SUBMENU, CHECKBOX or RADIO.',
      resolve: (item) => item.type.toUpperCase() as 'NORMAL' | 'SEPARATOR' | 'SUBMENU' | 'CHECKBOX' | 'RADIO',
    }),
    id: t.exposeString('id', { nullable: true, description: "The app's id for the item; null when none." }),
    accelerator: t.exposeString('accelerator', {
      nullable: true,
      description: 'Its keyboard shortcut (CmdOrCtrl+Q, ...); press it to run a role item. Null when none.',
    }),
    enabled: t.exposeBoolean('enabled', { description: 'False when greyed out; invoking it is refused.' }),
    visible: t.exposeBoolean('visible', { description: 'False when the app hid it.' }),
    checked: t.exposeBoolean('checked', { description: 'Whether a CHECKBOX or RADIO item is checked.' }),
    sublabel: t.exposeString('sublabel', { nullable: true, description: 'Secondary text; null when none.' }),
    toolTip: t.exposeString('toolTip', { nullable: true, description: 'Hover text; null when none.' }),
    submenu: t.field({
      type: [NativeMenuItemRef],
      nullable: true,
      description: 'The child items of a SUBMENU (read up to 8 levels deep); null for other items.',
      resolve: (item) => item.submenu,
    }),
  }),
});

const MenuInvocationRef = builder.objectRef<MenuInvocation>('MenuInvocation').implement({
  description: 'Whether the click reached the app; refused, never faked, when Electron would not deliver it.',
  fields: (t) => ({
    invoked: t.exposeBoolean('invoked', {
      description: "True when the item's click handler was called; false means refused (see `reason`).",
    }),
    reason: t.field({
      type: MenuInvocationReasonEnum,
      nullable: true,
      description: 'Why the click was refused; null when `invoked`.',
      resolve: (result) => result.reason,
    }),
    label: t.exposeString('label', {
      nullable: true,
      description: 'The label of the item the path reached; null when it reached none.',
    }),
    role: t.exposeString('role', {
      nullable: true,
      description: 'The role of a refused item that has one; null otherwise (always null when invoked).',
    }),
  }),
});

const PointRef = builder.objectRef<{ x: number; y: number }>('Point').implement({
  description: 'A position in pixels, as the app passed it.',
  fields: (t) => ({
    x: t.exposeInt('x', { description: 'Horizontal pixels from the left edge of the window.' }),
    y: t.exposeInt('y', { description: 'Vertical pixels from the top edge of the window.' }),
  }),
});

const ContextMenuRef = builder.objectRef<ContextMenuEntry>('ContextMenu').implement({
  description:
    'A menu the app popped up with Menu.popup; it stays open until an item is chosen or it closes.',
  fields: (t) => ({
    sessionId: t.exposeID('sessionId', { description: 'The session whose app popped it up.' }),
    windowId: t.exposeID('windowId', { nullable: true, description: 'The window it opened over.' }),
    position: t.field({
      type: PointRef,
      nullable: true,
      description: 'The x and y the app passed to Menu.popup; null when it gave none (the cursor position).',
      resolve: (menu) => (menu.x === null || menu.y === null ? null : { x: menu.x, y: menu.y }),
    }),
    time: t.field({
      type: 'DateTime',
      description: 'When the app popped it up.',
      resolve: (menu) => menu.time,
    }),
    items: t.field({
      type: [NativeMenuItemRef],
      description: 'Its items; pass a path of their labels to invokeContextMenuItem.',
      resolve: (menu) => menu.items,
    }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  applicationMenu: t.field({
    type: [NativeMenuItemRef],
    nullable: true,
    description: "The app's menu bar (Menu.getApplicationMenu()); null when it has none.",
    requiresCapability: 'NATIVE_UI',
    resolve: (session) => session.native.applicationMenu(),
  }),
  menuItem: t.field({
    type: NativeMenuItemRef,
    nullable: true,
    description: 'One application menu item by path; each step matches a label, else a role.',
    requiresCapability: 'NATIVE_UI',
    args: {
      path: t.arg.stringList({
        required: true,
        description: 'Labels (or roles) from the menu bar down, such as ["File", "Save"].',
      }),
    },
    resolve: (session, args) => session.native.menuItem(args.path),
  }),
  contextMenu: t.field({
    type: ContextMenuRef,
    nullable: true,
    description: 'The context menu the app has open now (any Menu.popup), or null.',
    requiresCapability: 'NATIVE_UI',
    resolve: (session) => session.native.contextMenu(),
  }),
}));

builder.mutationFields((t) => ({
  invokeMenuItem: t.field({
    type: MenuInvocationRef,
    description:
      "Clicks an application menu item as Electron would (the app's handler gets the focused window).",
    requiresCapability: 'NATIVE_UI',
    governance: { session: 'session', actsOn: 'menuItem', target: 'path' },
    args: {
      ...sessionArg,
      path: t.arg.stringList({
        required: true,
        description:
          'Labels (or roles, case-insensitively) from the menu bar down, such as ["File", "Save"].',
      }),
    },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).native.invokeMenuItem(args.path),
  }),
  invokeContextMenuItem: t.field({
    type: MenuInvocationRef,
    description: 'Chooses an item of the open context menu as a person would; the menu then closes.',
    requiresCapability: 'NATIVE_UI',
    governance: { session: 'session', actsOn: 'contextMenuItem', target: 'path' },
    args: {
      ...sessionArg,
      path: t.arg.stringList({
        required: true,
        description: 'Labels (or roles) from the top of the open context menu down, such as ["Copy"].',
      }),
    },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.invokeContextMenuItem(args.path),
  }),
}));

const ContextMenuEventRef = builder
  .objectRef<CursoredDelivery<ContextMenuEntry>>('ContextMenuEvent')
  .implement({
    description: 'One delivery of the `contextMenus` subscription.',
    fields: (t) => ({
      menu: t.field({
        type: ContextMenuRef,
        description: 'The menu as it was popped up.',
        resolve: (delivery) => delivery.event,
      }),
      droppedBefore: t.exposeInt('droppedBefore', DROPPED_BEFORE),
      cursor: t.string({ ...CURSOR, resolve: (delivery, _args, context) => cursorOf(delivery, context) }),
    }),
  });

builder.subscriptionField('contextMenus', (t) =>
  t.field({
    type: ContextMenuEventRef,
    description: 'Context menus as the app pops them up; all sessions unless `session` is given.',
    args: {
      session: t.arg.id({
        required: false,
        description: "Only this session's menus; an unknown id fails with SESSION_NOT_FOUND.",
      }),
      after: t.arg.string(AFTER),
    },
    subscribe: (_root, args, context) => topicFeed(context, TOPIC_FEEDS.contextMenu, args),
    resolve: (delivery) => delivery,
  }),
);
