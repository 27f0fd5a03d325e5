import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type {
  EvalOutcome,
  IpcInvocation,
  MenuInvocation,
  NativeMenuItem,
  NativeSurface,
  OpenContextMenu,
  TrayInvocation,
  TrayState,
} from '../../contract/native.js';
import type { AccessibleRef, AtspiBus } from '../bus/atspi-bus.js';
import type { DesktopInput } from '../input/desktop-input.js';
import { hasState } from '../tree/atspi-states.js';
import type { ToolkitFamily } from '../tree/toolkit-states.js';
import {
  AppObjects,
  findMenuBar,
  invokeMenuNode,
  type MenuNode,
  type MenuObject,
  readMenuNodes,
} from './menu-bar.js';
import { clickThroughMenus } from './menu-pointer.js';

/** Parents under which a showing menu is part of something else: a menu bar's menu, a submenu, a combo's list. */
const OWNED_MENU_PARENTS = new Set(['menu bar', 'menu', 'menu item', 'combo box']);
const POPUP_ROLES = new Set(['menu', 'popup menu']);
/** A popped-up menu takes the focus, its window becomes active. */
const SIGNALLED_STATES = new Set(['focused', 'active', 'showing']);
const MAX_SIGNALLED = 256;
/**
 * How long a menu of an invoked item's path may take to open on screen: GTK maps it at once on an idle
 * machine, but in one run of the suite at load 25 it had not opened after 5 s.
 */
const MENU_OPEN_TIMEOUT_MS = 15_000;

/**
 * The native surface of a desktop session, over AT-SPI: the application menu is the window's menu bar and
 * a context menu is a popup menu the app is showing, both read and clicked through the accessibility tree.
 * What only an Electron main process has — trays it made, dialog policies, IPC, main and renderer eval —
 * has no AT-SPI counterpart: trays live in the shell's StatusNotifier protocol, not in the app's tree, and
 * the rest are refused with CAPABILITY_UNSUPPORTED rather than pretended.
 */
export function createDesktopNativeSurface(
  bus: AtspiBus,
  windows: () => AccessibleRef[],
  input?: Pick<DesktopInput, 'clickAt'>,
): NativeSurface {
  let popups = 0;
  let open: { path: string; seq: number; time: string } | null = null;
  /** Objects that took focus or became active since: a popup GTK leaves out of the tree is among them. */
  const signalled = new Map<string, AccessibleRef>();
  bus.onSignal(({ sender, path, member, body }) => {
    if (member !== 'StateChanged' || body[1] !== 1 || !SIGNALLED_STATES.has(String(body[0]))) return;
    const key = `${sender}${path}`;
    signalled.delete(key);
    signalled.set(key, { busName: sender, path });
    // The oldest go first: a popup is read soon after it signals, or it has closed.
    if (signalled.size > MAX_SIGNALLED) signalled.delete(signalled.keys().next().value as string);
  });

  /** The windows' menu bars, the focused window's (ACTIVE) first: the first that has one answers. */
  const menuBar = async (withAccelerators: boolean): Promise<MenuNode[] | null> =>
    (await menuBarOf(withAccelerators))?.nodes ?? null;
  const menuBarOf = async (
    withAccelerators: boolean,
  ): Promise<{ nodes: MenuNode[]; family: ToolkitFamily } | null> => {
    const refs = windows();
    const apps = await readApps(bus, refs);
    const candidates = refs
      .map((ref) => ({ ref, objects: apps.get(ref.busName) }))
      .flatMap(({ ref, objects }) => (objects ? [{ ref, objects }] : []));
    const active = ({ ref, objects }: (typeof candidates)[number]) => {
      const states = objects.get(ref)?.states;
      return states !== undefined && hasState(states, 'ACTIVE');
    };
    for (const { ref, objects } of [...candidates.filter(active), ...candidates.filter((c) => !active(c))]) {
      const bar = await findMenuBar(objects, ref);
      if (bar)
        return { nodes: await readMenuNodes(bus, objects, bar, withAccelerators), family: objects.family };
    }
    return null;
  };
  /** Items clicked through their menus with the pointer (menu-pointer.ts) when `wanted`, and the input can. */
  const pointerWhen = (wanted: boolean) =>
    input && wanted
      ? (chain: readonly MenuNode[]) =>
          clickThroughMenus(bus, input, chain, Date.now() + MENU_OPEN_TIMEOUT_MS)
      : undefined;
  /** GTK3 runs an item's action inside its D-Bus dispatch: clicked through instead. */
  const invokeMenuItem = async (path: readonly string[]): Promise<MenuInvocation> => {
    const bar = await menuBarOf(false);
    return invokeMenuNode(bus, bar?.nodes ?? null, path, pointerWhen(bar?.family === 'gtk3'));
  };
  /** Qt's action triggers an item of an open menu but leaves the menu open (its exec() running): clicked. */
  const invokeContextMenuItem = async (path: readonly string[]): Promise<MenuInvocation> => {
    const shown = await popup(false);
    return invokeMenuNode(bus, shown?.nodes ?? null, path, pointerWhen(shown?.family === 'qt'));
  };

  /** A popup menu the app is showing, read with its items; forgets the last one when none shows. */
  const popup = async (
    withAccelerators: boolean,
  ): Promise<{ menu: OpenContextMenu; nodes: MenuNode[]; family: ToolkitFamily } | null> => {
    for (const [busName, objects] of await readApps(bus, windows())) {
      const shown = await showingPopup(busName, objects, signalled);
      if (!shown) continue;
      const nodes = await readMenuNodes(bus, objects, shown, withAccelerators);
      const path = `${shown.ref.busName}${shown.ref.path}`;
      if (open?.path !== path) open = { path, seq: ++popups, time: new Date().toISOString() };
      const items: NativeMenuItem[] = nodes.map((node) => node.item);
      return {
        menu: { seq: open.seq, browserWindowId: null, x: null, y: null, time: open.time, items },
        nodes,
        family: objects.family,
      };
    }
    open = null;
    return null;
  };

  return {
    instrumented: false,
    traysUnreachable:
      "a desktop app's tray icons are the shell's (StatusNotifierItem on the session bus), not objects of its accessibility tree, so the desktop transport cannot list or click them.",
    applicationMenu: async () => {
      const nodes = await menuBar(true);
      return nodes ? nodes.map((node) => node.item) : null;
    },
    invokeMenuItem,
    contextMenu: async () => (await popup(true))?.menu ?? null,
    invokeContextMenuItem,
    // A tray icon is the shell's StatusNotifierItem on the session bus, not an object of the app's
    // accessibility tree: AT-SPI has none to list.
    trays: async (): Promise<TrayState[]> => [],
    invokeTray: async (): Promise<TrayInvocation> => ({ emitted: false, reason: 'not_found', tray: null }),
    setDialogPolicy: async () => unsupported('Answering native dialogs by policy'),
    windowIdOf: async () => null,
    setIpcCapture: async () => unsupported('IPC capture'),
    invokeIpc: async (): Promise<IpcInvocation> => unsupported('IPC'),
    evalMain: async (): Promise<EvalOutcome> => unsupported('Main-process eval'),
    evalRenderer: async (): Promise<EvalOutcome> => unsupported('Renderer eval'),
  };
}

async function readApps(bus: AtspiBus, windows: readonly AccessibleRef[]): Promise<Map<string, AppObjects>> {
  const busNames = [...new Set(windows.map((ref) => ref.busName))];
  const read = await Promise.all(busNames.map((busName) => AppObjects.read(bus, busName)));
  return new Map(busNames.map((busName, index) => [busName, read[index] as AppObjects]));
}

/**
 * A menu the app popped up: a showing menu that no menu bar, menu or combo box owns. GTK shows an unattached
 * popup in a window of its own below the application, which its Cache lists. One attached to a widget
 * (gtk_menu_attach_to_widget) it leaves out of the tree — its window is not listed, its parent (the widget)
 * does not list it — so those are found among the objects whose focus or activation the app signalled;
 * signalled objects that are not menus, or have gone, are dropped from that list as they are seen.
 */
async function showingPopup(
  busName: string,
  objects: AppObjects,
  signalled: Map<string, AccessibleRef>,
): Promise<MenuObject | null> {
  const unlisted = [...signalled].filter(([, ref]) => ref.busName === busName && !objects.get(ref));
  const described = await Promise.all(unlisted.map(([, ref]) => objects.describe(ref)));
  unlisted.forEach(([key], index) => {
    const object = described[index];
    if (!object || !POPUP_ROLES.has(object.role)) signalled.delete(key);
  });
  // What was described by hand joined the app's objects.
  const candidates = [...objects.all].filter(
    (object) => POPUP_ROLES.has(object.role) && hasState(object.states, 'SHOWING'),
  );
  const parents = await Promise.all(
    candidates.map((object) => objects.describe({ busName: object.ref.busName, path: object.parentPath })),
  );
  return candidates.find((_, index) => !OWNED_MENU_PARENTS.has(parents[index]?.role ?? '')) ?? null;
}

function unsupported(what: string): never {
  throw new StagegraphError(
    'CAPABILITY_UNSUPPORTED',
    `${what} needs an Electron main process; the desktop (AT-SPI) transport drives the app through its accessibility tree only.`,
  );
}
