import type { BridgeTool } from './tool.js';
import { failure, optionalString, text, WHERE } from './tool.js';

const TRAY_EVENTS = ['CLICK', 'DOUBLE_CLICK', 'RIGHT_CLICK', 'MIDDLE_CLICK', 'MOUSE_ENTER', 'MOUSE_LEAVE'];

const ITEM = 'fragment Item on NativeMenuItem { label role type enabled checked accelerator }';
const ITEMS = '{ ...Item submenu { ...Item submenu { ...Item submenu { ...Item } } } }';
const LIST: Record<string, string> = {
  app: `query AppMenu($session: ID) { session(id: $session) { id menu: applicationMenu ${ITEMS} } } ${ITEM}`,
  context: `query ContextMenu($session: ID) { session(id: $session) { id contextMenu { items ${ITEMS} } } } ${ITEM}`,
  tray: `query Trays($session: ID) { session(id: $session) { id trays { id title tooltip contextMenu ${ITEMS} } } } ${ITEM}`,
};
const INVOKE_MENU = `mutation InvokeMenu($session: ID, $path: [String!]!) { invoked: invokeMenuItem(session: $session, path: $path) { invoked label reason } }`;
const INVOKE_CONTEXT = `mutation InvokeContext($session: ID, $path: [String!]!) { invoked: invokeContextMenuItem(session: $session, path: $path) { invoked label reason } }`;
const INVOKE_TRAY = `mutation InvokeTray($session: ID, $tray: ID!, $event: TrayEvent!) { invoked: invokeTray(session: $session, tray: $tray, event: $event) { emitted reason } }`;

interface MenuItem {
  label: string;
  role: string | null;
  type: string;
  enabled: boolean;
  checked: boolean;
  accelerator: string | null;
  submenu?: MenuItem[] | null;
}

/** Application menu, the open context menu and trays: read as indented text, or invoke one item. */
export const menuTool: BridgeTool = {
  name: 'menu',
  description:
    'Native menus. list: the app menu, the open context menu, or trays. invoke: an item by its label path, or a tray event.',
  inputSchema: {
    type: 'object',
    properties: {
      action: { enum: ['list', 'invoke'], description: 'list items, or invoke one.' },
      menu: { enum: ['app', 'context', 'tray'], description: 'Default app.' },
      path: {
        type: 'array',
        items: { type: 'string' },
        description: 'Labels from the top, e.g. ["File","Save"].',
      },
      tray: { type: 'string', description: 'Tray id (invoke on a tray).' },
      event: { enum: TRAY_EVENTS, description: 'Tray event; default CLICK.' },
      session: WHERE.session,
    },
    required: ['action'],
    additionalProperties: false,
  },
  async run(args, { link }) {
    const menu = optionalString(args.menu) ?? 'app';
    const session = optionalString(args.session);
    if (args.action === 'invoke') return invoke(menu, args, session, link);
    const query = LIST[menu];
    if (!query)
      return { ...text(`menu must be app, context or tray, not ${JSON.stringify(menu)}.`), isError: true };
    const answer = await link.execute(query, { session });
    const read = answer.data?.session;
    if (!read) return failure(answer.errors ?? [{ message: 'No session is open: call open first.' }]);
    if (menu === 'app') return text(read.menu ? render(read.menu, 0).join('\n') : '(no application menu)');
    if (menu === 'context')
      return text(read.contextMenu ? render(read.contextMenu.items, 0).join('\n') : '(no context menu open)');
    const trays = read.trays as {
      id: string;
      title: string;
      tooltip: string;
      contextMenu: MenuItem[] | null;
    }[];
    if (trays.length === 0) return text('(no trays)');
    return text(
      trays
        .flatMap((tray) => [
          `tray ${tray.id} "${tray.title}" tooltip "${tray.tooltip}"`,
          ...render(tray.contextMenu ?? [], 1),
        ])
        .join('\n'),
    );
  },
};

async function invoke(
  menu: string,
  args: Record<string, unknown>,
  session: string | undefined,
  link: Parameters<BridgeTool['run']>[1]['link'],
) {
  const answer =
    menu === 'tray'
      ? await link.execute(INVOKE_TRAY, {
          session,
          tray: optionalString(args.tray) ?? '',
          event: optionalString(args.event) ?? 'CLICK',
        })
      : await link.execute(menu === 'context' ? INVOKE_CONTEXT : INVOKE_MENU, {
          session,
          path: Array.isArray(args.path) ? args.path : [],
        });
  const invoked = answer.data?.invoked;
  if (!invoked) return failure(answer.errors ?? [{ message: 'The invocation answered nothing.' }]);
  const done = invoked.invoked ?? invoked.emitted;
  const result = text(done ? `invoked ${invoked.label ?? menu}` : `not invoked: ${invoked.reason}`);
  return done ? result : { ...result, isError: true };
}

function render(items: readonly MenuItem[], depth: number): string[] {
  return items.flatMap((item) => {
    const pad = '  '.repeat(depth);
    if (item.type === 'SEPARATOR') return [`${pad}---`];
    const marks = [
      item.accelerator ? `[${item.accelerator}]` : '',
      item.enabled ? '' : '(disabled)',
      item.checked ? '(checked)' : '',
      item.role ? `role=${item.role}` : '',
    ].filter(Boolean);
    const line = `${pad}${item.label}${marks.length ? ` ${marks.join(' ')}` : ''}`;
    return [line, ...render(item.submenu ?? [], depth + 1)];
  });
}
