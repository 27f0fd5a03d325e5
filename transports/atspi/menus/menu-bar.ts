import type {
  MenuInvocation,
  MenuRefusal,
  NativeMenuItem,
  NativeMenuItemType,
} from '../../contract/native.js';
import { describeAccessible } from '../bus/accessible-description.js';
import { ACCESSIBLE_IFACE, type AccessibleRef, type AtspiBus, whenGone } from '../bus/atspi-bus.js';
import { atspiRoleName } from '../tree/atspi-roles.js';
import { hasState, type StateWords, stateWords } from '../tree/atspi-states.js';
import { canonicalStates, propertyReads, type ToolkitFamily, toolkitFor } from '../tree/toolkit-states.js';
import { labelMatches, menuLabel, qtAcceleratorOf } from './menu-label.js';

/** One object of an application as a menu read needs it, from the app's Cache or read by hand. */
export interface MenuObject {
  readonly ref: AccessibleRef;
  /** AT-SPI's role name (`menu bar`, `check menu item` …). */
  readonly role: string;
  readonly name: string;
  readonly states: StateWords;
  readonly interfaces: readonly string[];
  /** -1 when the toolkit does not count them (GTK's menus, lists that manage their descendants). */
  readonly childCount: number;
  readonly parentPath: string;
}

/** A menu item as read, beside the object it came from, so an invoke acts on what the read showed. */
export interface MenuNode {
  readonly item: NativeMenuItem;
  readonly ref: AccessibleRef;
  readonly children: readonly MenuNode[];
}

const ACTION_IFACE = 'org.a11y.atspi.Action';
/** Real menus are 3–4 levels deep; the bound keeps a menu that contains itself from hanging the walk. */
const MAX_MENU_DEPTH = 8;
/** A window's menu bar sits a few containers below it; deeper than this is not a window's menu bar. */
const MAX_BAR_DEPTH = 8;
/** Containers with more children than this are lists or tables, which hold no menu bar. */
const MAX_SEARCHED_CHILDREN = 64;
const TYPES: Readonly<Record<string, NativeMenuItemType>> = {
  menu: 'submenu',
  'menu item': 'normal',
  'check menu item': 'checkbox',
  'radio menu item': 'radio',
  separator: 'separator',
};
/** Containers a menu's items may sit in: GTK 4.8's popover holds them seven containers deep. */
const CONTAINER_ROLES = new Set(['panel', 'filler', 'scroll pane', 'viewport']);
/** Deeper than a popover's nesting with room to spare; the bound keeps a self-containing tree from looping. */
const MAX_CONTAINER_DEPTH = 10;
/** Roles that hold menus of their own (a combo box's popup) or rows, never a window's menu bar. */
const NOT_SEARCHED = new Set(['menu', 'combo box', 'list', 'list box', 'table', 'tree', 'tree table']);

/**
 * One application's objects for one menu read: what its Cache lists, in one call, and what GTK left out of
 * the Cache (objects it has not created yet) read by hand as the walk reaches them, pipelined per level.
 */
export class AppObjects {
  readonly #bus: AtspiBus;
  readonly #objects = new Map<string, MenuObject>();
  readonly #cachedChildren = new Map<string, MenuObject[]>();
  readonly #indexes = new Map<string, number>();
  /** The app's toolkit family (toolkit-states.ts): how its states and labels are read. */
  readonly family: ToolkitFamily;

  private constructor(bus: AtspiBus, family: ToolkitFamily) {
    this.#bus = bus;
    this.family = family;
  }

  #canonical(words: StateWords): StateWords {
    return canonicalStates(words, this.family);
  }

  static async read(bus: AtspiBus, busName: string): Promise<AppObjects> {
    const objects = new AppObjects(bus, (await toolkitFor(bus, busName)).family);
    for (const item of await bus.cacheItems(busName)) {
      const object: MenuObject = {
        ref: item.ref,
        role: atspiRoleName(item.role),
        name: item.name,
        states: objects.#canonical(item.states),
        interfaces: item.interfaces,
        childCount: item.childCount,
        parentPath: item.parent.path,
      };
      objects.#objects.set(item.ref.path, object);
      objects.#indexes.set(item.ref.path, item.indexInParent);
      const siblings = objects.#cachedChildren.get(item.parent.path);
      if (siblings) siblings.push(object);
      else objects.#cachedChildren.set(item.parent.path, [object]);
    }
    return objects;
  }

  get all(): Iterable<MenuObject> {
    return this.#objects.values();
  }

  get(ref: AccessibleRef): MenuObject | undefined {
    return this.#objects.get(ref.path);
  }

  /** The Cache's children when it lists them all in order; else GetChildren, the missing ones read by hand. */
  async children(object: MenuObject): Promise<MenuObject[]> {
    const cached = (this.#cachedChildren.get(object.ref.path) ?? []).filter(
      (child) => (this.#indexes.get(child.ref.path) ?? -1) >= 0,
    );
    if (object.childCount >= 0 && cached.length === object.childCount) {
      const index = (child: MenuObject) => this.#indexes.get(child.ref.path) ?? 0;
      return cached.sort((a, b) => index(a) - index(b));
    }
    const [list] = await this.#bus
      .call(object.ref.busName, object.ref.path, ACCESSIBLE_IFACE, 'GetChildren')
      .catch(whenGone([[]]));
    const refs = (list as [string, string][]).map(([busName, path]) => ({ busName, path }));
    await Promise.all(refs.filter((ref) => !this.#objects.has(ref.path)).map((ref) => this.#readByHand(ref)));
    return refs.flatMap((ref) => this.#objects.get(ref.path) ?? []);
  }

  /** An object the Cache may not list (GTK leaves out a popup menu attached to a widget), read by hand. */
  async describe(ref: AccessibleRef): Promise<MenuObject | undefined> {
    if (!this.#objects.has(ref.path)) await this.#readByHand(ref);
    return this.#objects.get(ref.path);
  }

  async #readByHand(ref: AccessibleRef): Promise<void> {
    try {
      const described = await describeAccessible(this.#bus, ref, propertyReads(this.family));
      this.#objects.set(ref.path, {
        ref,
        role: atspiRoleName(described.role),
        name: described.name,
        states: this.#canonical(stateWords(described.states)),
        interfaces: described.interfaces,
        childCount: described.childCount,
        parentPath: described.parentPath,
      });
    } catch (error) {
      // The object left the app between its parent's listing and this read: left out; a timeout is not.
      whenGone(undefined)(error);
    }
  }
}

/** The window's menu bar: the shallowest object of role `menu bar` below it, searched level by level. */
export async function findMenuBar(objects: AppObjects, window: AccessibleRef): Promise<MenuObject | null> {
  // Qt's Cache lists nothing: the window itself is read by hand.
  const root = await objects.describe(window);
  if (!root) return null;
  let level = [root];
  for (let depth = 0; depth < MAX_BAR_DEPTH && level.length > 0; depth++) {
    const searched = level.filter(
      (object) =>
        !NOT_SEARCHED.has(object.role) && object.childCount > 0 && object.childCount <= MAX_SEARCHED_CHILDREN,
    );
    level = (await Promise.all(searched.map((object) => objects.children(object)))).flat();
    const bar = level.find((object) => object.role === 'menu bar');
    if (bar) return bar;
  }
  return null;
}

/**
 * A menu's children, the containers between it and its items looked through: GTK4 puts a popover menu's
 * items seven containers below it (content, scroller, stack, page, boxes); GTK3's are its children.
 */
async function itemsBelow(
  objects: AppObjects,
  menu: MenuObject,
  depth: number,
  qt: boolean,
): Promise<MenuObject[]> {
  const children = await objects.children(menu);
  if (depth >= MAX_CONTAINER_DEPTH) return children;
  const lookedThrough = (child: MenuObject) =>
    (CONTAINER_ROLES.has(child.role) || (qt && child.role === 'popup menu')) && child.childCount !== 0;
  const expanded = await Promise.all(
    children.map((child) => (lookedThrough(child) ? itemsBelow(objects, child, depth + 1, qt) : [child])),
  );
  return expanded.flat();
}

/**
 * Whether an item opens a menu of its own. GTK gives such an item the role `menu`; Qt gives it `menu item`
 * (its action is ShowMenu) with the menu, a `popup menu`, as its one child.
 */
function opensMenu(object: MenuObject, qt: boolean): boolean {
  return object.role === 'menu' || (qt && object.role === 'menu item' && object.childCount > 0);
}

/**
 * The items of a menu bar or menu, submenus read level by level (every GetChildren of a level in flight at
 * once), accelerators read all at once at the end when asked for.
 */
export async function readMenuNodes(
  bus: AtspiBus,
  objects: AppObjects,
  menu: MenuObject,
  withAccelerators: boolean,
): Promise<MenuNode[]> {
  interface Draft {
    readonly object: MenuObject;
    children: Draft[] | null;
  }
  const top: Draft = { object: menu, children: null };
  const qt = objects.family === 'qt';
  let level = [top];
  for (let depth = 0; depth <= MAX_MENU_DEPTH && level.length > 0; depth++) {
    const lists = await Promise.all(level.map(({ object }) => itemsBelow(objects, object, 0, qt)));
    const next: Draft[] = [];
    level.forEach((draft, index) => {
      draft.children = (lists[index] ?? [])
        .filter((child) => TYPES[child.role] !== undefined)
        .map((child) => ({ object: child, children: null }));
      next.push(...draft.children.filter(({ object }) => opensMenu(object, qt)));
    });
    level = next;
  }
  const accelerators = new Map<string, string | null>();
  if (withAccelerators) {
    const acceleratorFor = qt ? qtAcceleratorOf : acceleratorOf;
    const acting: MenuObject[] = [];
    const collect = (draft: Draft) => {
      for (const child of draft.children ?? []) {
        if (child.object.role !== 'separator' && child.object.interfaces.includes(ACTION_IFACE))
          acting.push(child.object);
        collect(child);
      }
    };
    collect(top);
    await Promise.all(
      acting.map(async ({ ref, name }) => {
        const [binding] = await bus
          .call(ref.busName, ref.path, ACTION_IFACE, 'GetKeyBinding', 'i', [0])
          .catch(() => ['']);
        accelerators.set(ref.path, acceleratorFor(String(binding ?? ''), name));
      }),
    );
  }
  // GTK3's atk-bridge and Qt strip mnemonics themselves: an underscore left in their labels is a literal one.
  const stripMnemonics = objects.family === 'gtk4' || objects.family === 'other';
  const build = (draft: Draft): MenuNode => {
    const { object } = draft;
    const type = opensMenu(object, qt) ? 'submenu' : (TYPES[object.role] ?? 'normal');
    const { label, accelerator } = menuLabel(object.name, stripMnemonics);
    const children = type === 'submenu' ? (draft.children ?? []).map(build) : [];
    return {
      ref: object.ref,
      children,
      item: {
        label,
        role: null,
        type,
        id: null,
        accelerator: accelerators.get(object.ref.path) ?? (withAccelerators ? accelerator : null),
        enabled: hasState(object.states, 'ENABLED') && hasState(object.states, 'SENSITIVE'),
        // Qt clears VISIBLE (and SHOWING) on every item of a closed menu: there it means on screen.
        visible: qt || hasState(object.states, 'VISIBLE'),
        checked: hasState(object.states, 'CHECKED'),
        sublabel: null,
        toolTip: null,
        submenu: type === 'submenu' ? children.map((child) => child.item) : null,
      },
    };
  };
  return (top.children ?? []).map(build);
}

const MODIFIERS: Readonly<Record<string, string>> = {
  primary: 'Ctrl',
  control: 'Ctrl',
  ctrl: 'Ctrl',
  shift: 'Shift',
  alt: 'Alt',
  mod1: 'Alt',
  super: 'Super',
  meta: 'Meta',
  hyper: 'Hyper',
};

/**
 * The accelerator of ATK's key binding `mnemonic;full path;accelerator` (GTK's `<Primary>s`), written as
 * Electron writes accelerators (`Ctrl+S`), so a desktop menu reads as an Electron one does. The mnemonic
 * alone is no accelerator: null.
 */
export function acceleratorOf(binding: string): string | null {
  const accelerator = binding.split(';')[2]?.trim() ?? '';
  if (accelerator === '') return null;
  const modifiers = [...accelerator.matchAll(/<([^>]+)>/g)].map(
    ([, name]) => MODIFIERS[(name ?? '').toLowerCase()] ?? name ?? '',
  );
  const key = accelerator.replace(/<[^>]+>/g, '').replace(/_/g, '');
  if (key === '') return null;
  return [...modifiers, key.length === 1 ? key.toUpperCase() : key[0]?.toUpperCase() + key.slice(1)].join(
    '+',
  );
}

/**
 * Each step of `path` matches a label exactly, as the Electron hooks and domain/native/menu-path.ts match
 * (a desktop item has no Electron role to fall back on), the label read as menu-label.ts reads it: trimmed,
 * without mnemonics; a step is taken as written, trimmed, or without its underscores (labelMatches).
 */
export function findMenuNode(nodes: readonly MenuNode[], path: readonly string[]): MenuNode | null {
  return findMenuChain(nodes, path)?.at(-1) ?? null;
}

/** The nodes from the top of the menu down to the item at `path`, matched as findMenuNode matches. */
export function findMenuChain(nodes: readonly MenuNode[], path: readonly string[]): MenuNode[] | null {
  let level = nodes;
  const chain: MenuNode[] = [];
  for (const step of path) {
    const found = level.find((node) => labelMatches(node.item.label, step));
    if (!found) return null;
    chain.push(found);
    level = found.children;
  }
  return chain.length > 0 ? chain : null;
}

/**
 * Activates the item through its own action (Action.DoAction(0), GTK's "click"). GTK activates an item of a
 * closed menu without the menu being opened — it selects the item in its menu shell and activates it as
 * Return would — so the parents are left closed. GTK's action answers before it runs (atk-bridge defers it
 * to the app's main loop), so `invoked` says the click was delivered; the app's handler runs just after.
 * GTK then walks up from the item to close its menu and, finding none open, logs a harmless Gtk-CRITICAL
 * on the app's stderr when the walk reaches the application object; opening the parents to avoid it would
 * flash menus on the user's screen. `activate`, when given, activates the item another way first (a
 * pointer through the menus, menu-pointer.ts) and answers false to leave it to the action.
 */
export async function invokeMenuNode(
  bus: AtspiBus,
  nodes: readonly MenuNode[] | null,
  path: readonly string[],
  activate?: (chain: readonly MenuNode[]) => Promise<boolean>,
): Promise<MenuInvocation> {
  if (!nodes) return refuse('no_menu');
  const chain = findMenuChain(nodes, path);
  const node = chain?.at(-1);
  if (!chain || !node) return refuse('not_found');
  const { item, ref } = node;
  if (item.type === 'separator') return refuse('separator', item);
  if (item.type === 'submenu') return refuse('submenu', item);
  // GTK silently declines to activate a hidden item, as it does an insensitive one.
  if (!item.enabled || !item.visible) return refuse('disabled', item);
  if (activate && (await activate(chain)))
    return { invoked: true, reason: null, label: item.label, role: null };
  // A handler that runs a modal dialog (Qt's exec()) answers once the dialog closes: not waited for.
  await bus.callOrLeaveRunning(ref.busName, ref.path, ACTION_IFACE, 'DoAction', 'i', [0]);
  return { invoked: true, reason: null, label: item.label, role: null };
}

function refuse(reason: MenuRefusal, item: NativeMenuItem | null = null): MenuInvocation {
  return { invoked: false, reason, label: item ? item.label : null, role: null };
}
