import type {
  ExpectedMenuItem,
  MenuInvocation,
  NativeMenuItem,
  OpenContextMenu,
} from '../contract/native.js';
import type { AgentCore, ElectronLike, Loose } from './shapes.js';

export interface MenuHooks {
  serialize(menu: Loose): NativeMenuItem[];
  applicationMenu(): NativeMenuItem[] | null;
  invokeApplication(path: readonly string[], expected?: ExpectedMenuItem | null): MenuInvocation;
  contextMenu(): OpenContextMenu | null;
  invokeContext(path: readonly string[]): MenuInvocation;
}

/**
 * Reads and clicks Electron menus, and captures every `Menu.popup`. Self-contained (shipped into the main
 * process as source): it references only its parameters and globals.
 */
export function installMenuHooks(electron: ElectronLike, agent: AgentCore): MenuHooks {
  /** Real menus are 3–4 levels deep; the bound keeps a menu that contains itself from hanging the walk. */
  const MAX_MENU_DEPTH = 8;
  const { Menu, BrowserWindow } = electron;
  /** Whether the template entry an item was built from had a click handler (Electron wraps it out of sight). */
  const hadHandler = new WeakMap<object, boolean>();
  let open: { menu: Loose; record: OpenContextMenu } | null = null;
  let popups = 0;

  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const serialize = (menu: Loose, depth = 0): NativeMenuItem[] =>
    (menu?.items ?? []).map((item: Loose) => ({
      label: String(item.label ?? ''),
      role: text(item.role),
      type: item.type ?? 'normal',
      id: text(item.id),
      accelerator: text(item.accelerator),
      enabled: item.enabled !== false,
      visible: item.visible !== false,
      checked: item.checked === true,
      sublabel: text(item.sublabel),
      toolTip: text(item.toolTip),
      submenu: item.submenu && depth < MAX_MENU_DEPTH ? serialize(item.submenu, depth + 1) : null,
    }));

  /** Each step matches a label, else a role (case-insensitive: roles are camelCase in docs, lower in apps). */
  const find = (menu: Loose, path: readonly string[]): Loose => {
    let items: Loose[] = menu?.items ?? [];
    let found: Loose = null;
    for (const step of path) {
      found =
        items.find((item) => item.label === step) ??
        items.find((item) => typeof item.role === 'string' && item.role.toLowerCase() === step.toLowerCase());
      if (!found) return null;
      items = found.submenu?.items ?? [];
    }
    return found;
  };

  const refuse = (reason: MenuInvocation['reason'], item: Loose = null): MenuInvocation => ({
    invoked: false,
    reason,
    label: item ? String(item.label ?? '') : null,
    role: item ? text(item.role) : null,
  });

  /** Whether the item at a path is still what the caller was shown (null: that no item was there). */
  const unchanged = (item: Loose, expected: ExpectedMenuItem): boolean =>
    expected.item === null
      ? !item
      : !!item &&
        String(item.label ?? '') === expected.item.label &&
        text(item.role) === expected.item.role &&
        (item.type ?? 'normal') === expected.item.type;

  /**
   * Clicks as Electron delivers a click: the item toggles itself, then the app's handler gets the window.
   * Given what the caller was shown of the item, nothing is done when the path now leads elsewhere.
   */
  const click = (
    menu: Loose,
    path: readonly string[],
    expected?: ExpectedMenuItem | null,
  ): MenuInvocation => {
    const item = menu ? find(menu, path) : null;
    if (expected && !unchanged(item, expected)) return { ...refuse(null, item), changed: true };
    if (!menu) return refuse('no_menu');
    if (!item) return refuse('not_found');
    if (item.type === 'separator') return refuse('separator', item);
    if (item.type === 'submenu' || item.submenu) return refuse('submenu', item);
    if (item.enabled === false) return refuse('disabled', item);
    // Electron runs a role's built-in action itself; reproducing it here would be faking it.
    if (item.role) return refuse('role', item);
    if (hadHandler.get(item) === false) return refuse('no_handler', item);
    const window = BrowserWindow.getFocusedWindow?.() ?? BrowserWindow.getAllWindows?.()[0] ?? undefined;
    const event = {
      shiftKey: false,
      ctrlKey: false,
      altKey: false,
      metaKey: false,
      triggeredByAccelerator: false,
    };
    item.click(event, window, window?.webContents);
    return { invoked: true, reason: null, label: String(item.label ?? ''), role: null };
  };

  /** Pairs built items with their template entries by id, else label, else role, keeping order. */
  const noteHandlers = (template: Loose, menu: Loose) => {
    if (!Array.isArray(template) || !menu?.items) return;
    const unused = [...template];
    for (const item of menu.items) {
      const index = unused.findIndex(
        (entry) =>
          entry &&
          typeof entry === 'object' &&
          (item.id
            ? entry.id === item.id
            : entry.label === item.label || (entry.role && entry.role === item.role)),
      );
      if (index === -1) continue;
      const [entry] = unused.splice(index, 1);
      if (entry === item) continue;
      hadHandler.set(item, typeof entry.click === 'function');
      if (item.submenu && Array.isArray(entry.submenu)) noteHandlers(entry.submenu, item.submenu);
    }
  };

  const originalBuild = Menu.buildFromTemplate;
  Menu.buildFromTemplate = function buildFromTemplate(this: Loose, template: Loose) {
    const menu = originalBuild.call(this, template);
    noteHandlers(template, menu);
    return menu;
  };

  const originalPopup = Menu.prototype.popup;
  Menu.prototype.popup = function popup(this: Loose, options: Loose = {}) {
    const window = options?.window ?? BrowserWindow.getFocusedWindow?.() ?? null;
    popups += 1;
    const record: OpenContextMenu = {
      seq: popups,
      browserWindowId: typeof window?.id === 'number' ? window.id : null,
      x: typeof options?.x === 'number' ? options.x : null,
      y: typeof options?.y === 'number' ? options.y : null,
      time: new Date().toISOString(),
      items: serialize(this),
    };
    open = { menu: this, record };
    const closed = () => {
      if (!open || open.menu !== this || open.record.seq !== record.seq) return;
      open = null;
      agent.emit({ kind: 'context-menu-closed', seq: record.seq });
    };
    this.once?.('menu-will-close', closed);
    agent.emit({ kind: 'context-menu-opened', menu: record });
    return originalPopup.call(this, options);
  };

  return {
    serialize: (menu) => serialize(menu),
    applicationMenu: () => {
      const menu = Menu.getApplicationMenu();
      return menu ? serialize(menu) : null;
    },
    invokeApplication: (path, expected) => click(Menu.getApplicationMenu(), path, expected),
    contextMenu: () => (open ? { ...open.record, items: serialize(open.menu) } : null),
    invokeContext: (path) => {
      const current = open;
      const result = click(current?.menu, path);
      // Choosing an item closes the menu, as it does for a person; a refusal leaves it open.
      if (result.invoked && current) {
        const window = BrowserWindow.fromId?.(current.record.browserWindowId) ?? undefined;
        current.menu.closePopup(window);
      }
      return result;
    },
  };
}
