import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StagegraphError } from '../../errors/stagegraph-error.js';
import type { NativeSurface, OpenContextMenu } from '../contract/native.js';
import { ACCESSIBLE_IFACE, type AccessibleRef, AtspiBus } from './atspi-bus.js';
import { type DesktopHost, openDesktop } from './desktop-host.js';
import { createDesktopNativeSurface } from './native-surface.js';

const WAIT_MS = 30_000;

/**
 * A GTK app that pops up a context menu (not attached to a widget, as gtk_menu_popup_at_pointer menus are
 * made) when its Pop button is clicked: Copy (Ctrl+C, mnemonic _Copy), Paste, and More > Deep; and one
 * attached to the Pop attached button (Rename), which GTK leaves out of the accessibility tree.
 */
const POPUP_APP = `
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk
window = Gtk.Window(title="Popup Host")
accels = Gtk.AccelGroup()
window.add_accel_group(accels)
button = Gtk.Button(label="Pop")
menu = Gtk.Menu()
menu.set_accel_group(accels)
def item(label, into):
    entry = Gtk.MenuItem.new_with_mnemonic(label)
    entry.connect("activate", lambda _: print("ctx=" + entry.get_label().replace("_", ""), flush=True))
    into.append(entry)
    return entry
item("_Copy", menu).add_accelerator("activate", accels, Gdk.KEY_c, Gdk.ModifierType.CONTROL_MASK, Gtk.AccelFlags.VISIBLE)
item("Paste", menu)
more = Gtk.MenuItem(label="More")
submenu = Gtk.Menu()
item("Deep", submenu)
more.set_submenu(submenu)
menu.append(more)
menu.show_all()
menu.connect("hide", lambda _: print("popup=hidden", flush=True))
def pop(_):
    menu.popup_at_widget(button, Gdk.Gravity.SOUTH, Gdk.Gravity.NORTH_WEST, None)
    print("popup=shown", flush=True)
button.connect("clicked", pop)
attached_button = Gtk.Button(label="Pop attached")
attached = Gtk.Menu()
item("Rename", attached)
attached.show_all()
attached.attach_to_widget(attached_button, None)
def pop_attached(_):
    attached.popup_at_widget(attached_button, Gdk.Gravity.SOUTH, Gdk.Gravity.NORTH_WEST, None)
    print("attached=shown", flush=True)
attached_button.connect("clicked", pop_attached)
box = Gtk.Box(spacing=4)
box.pack_start(button, False, False, 0)
box.pack_start(attached_button, False, False, 0)
window.add(box)
window.connect("destroy", Gtk.main_quit)
window.show_all()
print("ready", flush=True)
Gtk.main()
`;

let host: DesktopHost;
let bus: AtspiBus;
const apps: ChildProcess[] = [];
const lines: string[] = [];
const lineWaiters = new Set<() => void>();
let surface: NativeSurface;
let popupHost: AccessibleRef;

/** Resolves once an app has printed `line` `count` times (each prints one line per change it sees). */
function appPrinted(line: string, count = 1): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (lines.filter((candidate) => candidate === line).length < count) return;
      lineWaiters.delete(check);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      lineWaiters.delete(check);
      reject(new Error(`no app printed ${line} ${count} times; they printed ${JSON.stringify(lines)}`));
    }, WAIT_MS);
    lineWaiters.add(check);
    check();
  });
}

function start(args: readonly string[]): void {
  const app = spawn('/usr/bin/python3', args, {
    env: { ...process.env, ...host.env, STAGEGRAPH_FIXTURE_ROWS: '20' },
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  apps.push(app);
  app.stdout?.on('data', (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    for (const waiter of [...lineWaiters]) waiter();
  });
}

/** A top-level window of this name, once its app has registered with the registry. */
async function windowNamed(name: string): Promise<AccessibleRef> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    for (const application of await bus.applications()) {
      const [children] = await bus.call(
        application.busName,
        application.path,
        ACCESSIBLE_IFACE,
        'GetChildren',
      );
      for (const [busName, path] of children as [string, string][]) {
        const ref = { busName, path };
        if ((await bus.property(ref, ACCESSIBLE_IFACE, 'Name').catch(() => '')) === name) return ref;
      }
    }
    if (Date.now() > deadline)
      throw new Error(`no window ${name} registered with the accessibility registry`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The context menu once the surface sees it so (`open`), after the app said it popped it up or down: the
 * app prints before GTK's map or unmap reaches the accessibility tree, so the read is retried to a bound.
 */
async function contextMenuWhen(open: boolean): Promise<OpenContextMenu | null> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const menu = await surface.contextMenu();
    if ((menu !== null) === open) return menu;
    if (Date.now() > deadline) throw new Error(`the context menu never became ${open ? 'open' : 'closed'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function click(name: string): Promise<void> {
  const [button] = (await bus.cacheItems(popupHost.busName)).filter((item) => item.name === name);
  if (!button) throw new Error(`no ${name} button`);
  await bus.call(button.ref.busName, button.ref.path, 'org.a11y.atspi.Action', 'DoAction', 'i', [0]);
}

async function pop(times: number): Promise<void> {
  await click('Pop');
  await appPrinted('popup=shown', times);
}

async function failure(promise: Promise<unknown>): Promise<StagegraphError> {
  try {
    await promise;
  } catch (error) {
    return error as StagegraphError;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  host = await openDesktop({}, WAIT_MS);
  bus = await AtspiBus.connect(host.sessionBusAddress, WAIT_MS);
  start(['fixtures/desktop-app/app.py']);
  start(['-c', POPUP_APP]);
  await appPrinted('ready');
  const fixture = await windowNamed('Desktop Fixture');
  popupHost = await windowNamed('Popup Host');
  const panel = await windowNamed('Inspector Panel');
  // The windows without a menu bar come first: the application menu is the first window's that has one.
  surface = createDesktopNativeSurface(bus, () => [popupHost, panel, fixture]);
}, 120_000);

afterAll(async () => {
  for (const app of apps) {
    try {
      if (app.pid) process.kill(-app.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  bus?.disconnect();
  await host?.dispose();
});

describe('the desktop native surface', () => {
  it('answers the menu bar of the first window that has one as the application menu, and clicks in it', async () => {
    expect(surface.instrumented).toBe(false);
    const menu = await surface.applicationMenu();
    expect(menu?.map(({ label }) => label)).toEqual(['File', 'View', 'Help']);
    expect(await surface.invokeMenuItem(['Help', 'About'])).toEqual({
      invoked: true,
      reason: null,
      label: 'About',
      role: null,
    });
    await appPrinted('status=About Desktop Fixture');
    expect((await surface.invokeMenuItem(['File', 'Save'])).reason).toBe('disabled');
  });

  it('has no context menu until the app pops one up, then reads and clicks it', async () => {
    expect(await surface.contextMenu()).toBeNull();
    expect(await surface.invokeContextMenuItem(['Copy'])).toEqual({
      invoked: false,
      reason: 'no_menu',
      label: null,
      role: null,
    });
    await pop(1);
    const menu = await contextMenuWhen(true);
    expect(menu?.browserWindowId).toBeNull();
    expect(menu?.items.map(({ label, type, accelerator }) => [label, type, accelerator])).toEqual([
      ['Copy', 'normal', 'Ctrl+C'],
      ['Paste', 'normal', null],
      ['More', 'submenu', null],
    ]);
    expect(menu?.items[2]?.submenu?.map(({ label }) => label)).toEqual(['Deep']);
    expect((await surface.contextMenu())?.seq).toBe(menu?.seq);
    expect((await surface.invokeContextMenuItem(['More'])).reason).toBe('submenu');
    expect((await surface.invokeContextMenuItem(['Cut'])).reason).toBe('not_found');
    expect(await surface.invokeContextMenuItem(['Copy'])).toEqual({
      invoked: true,
      reason: null,
      label: 'Copy',
      role: null,
    });
    await appPrinted('ctx=Copy');
    await appPrinted('popup=hidden');
    await contextMenuWhen(false);

    await pop(2);
    const again = await contextMenuWhen(true);
    expect(again?.seq).toBeGreaterThan(menu?.seq ?? 0);
    expect((await surface.invokeContextMenuItem(['More', 'Deep'])).invoked).toBe(true);
    await appPrinted('ctx=Deep');
  });

  it('reads and clicks a popup attached to a widget, which GTK leaves out of the tree', async () => {
    await contextMenuWhen(false);
    await click('Pop attached');
    await appPrinted('attached=shown');
    const menu = await contextMenuWhen(true);
    expect(menu?.items.map(({ label }) => label)).toEqual(['Rename']);
    expect((await surface.invokeContextMenuItem(['Rename'])).invoked).toBe(true);
    await appPrinted('ctx=Rename');
    await contextMenuWhen(false);
  });

  it('has no trays, and refuses what only an Electron main process has with CAPABILITY_UNSUPPORTED', async () => {
    expect(await surface.trays()).toEqual([]);
    expect(await surface.invokeTray('t1', 'click')).toEqual({
      emitted: false,
      reason: 'not_found',
      tray: null,
    });
    expect(await surface.windowIdOf(1)).toBeNull();
    const refusals = await Promise.all([
      failure(surface.setDialogPolicy([{ type: 'messageBox', response: 0, once: true }])),
      failure(surface.setIpcCapture(['app:*'])),
      failure(surface.setIpcCapture(null)),
      failure(surface.invokeIpc('app:ping', [])),
      failure(surface.evalMain('1', null)),
      failure(surface.evalRenderer('w1', '1', null)),
    ]);
    for (const error of refusals) {
      expect(error.code).toBe('CAPABILITY_UNSUPPORTED');
      expect(error.message).toContain('desktop (AT-SPI) transport');
    }
  });
});
