import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StagegraphError } from '../../../errors/stagegraph-error.js';
import {
  DESKTOP_AVAILABLE,
  type DesktopApp,
  type DesktopFixture,
  desktopSkipReason,
  startDesktopFixture,
  startOnDesktop,
} from '../../../test/helpers/desktop-fixture.js';
import type { NativeSurface, OpenContextMenu } from '../../contract/native.js';
import type { AccessibleRef, AtspiBus } from '../bus/atspi-bus.js';
import { createDesktopNativeSurface } from './desktop-native-surface.js';

const WAIT_MS = 30_000;

/**
 * A GTK app that pops up a context menu (not attached to a widget, as gtk_menu_popup_at_pointer menus are
 * made) when its Pop button is clicked: Copy (Ctrl+C, mnemonic _Copy), Paste, and More > Deep; and one
 * attached to the Pop attached button (Rename), which GTK leaves out of the accessibility tree.
 */
const POPUP_APP = `
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
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

let desktop: DesktopFixture;
let popupApp: DesktopApp;
let bus: AtspiBus;
let surface: NativeSurface;
let popupHost: AccessibleRef;

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
  await popupApp.printed('popup=shown', { count: times });
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
  desktop = await startDesktopFixture({ env: { STAGEGRAPH_FIXTURE_ROWS: '20' } });
  bus = desktop.bus;
  popupApp = await startOnDesktop(desktop.host, { script: POPUP_APP });
  const fixture = await desktop.window('Desktop Fixture');
  popupHost = await desktop.window('Popup Host');
  const panel = await desktop.window('Inspector Panel');
  // The windows without a menu bar come first: the application menu is the first window's that has one.
  surface = createDesktopNativeSurface(bus, () => [popupHost, panel, fixture]);
}, 120_000);

afterAll(async () => {
  popupApp?.stop();
  await desktop?.stop();
});

if (!DESKTOP_AVAILABLE) {
  describe.skip(`the desktop native surface (${desktopSkipReason})`, () => {
    it('reads menus and context menus of GTK apps', () => {});
  });
}

describe.runIf(DESKTOP_AVAILABLE)('the desktop native surface', () => {
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
    await desktop.printed('status=About Desktop Fixture');
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
    await popupApp.printed('ctx=Copy');
    await popupApp.printed('popup=hidden');
    await contextMenuWhen(false);

    await pop(2);
    const again = await contextMenuWhen(true);
    expect(again?.seq).toBeGreaterThan(menu?.seq ?? 0);
    expect((await surface.invokeContextMenuItem(['More', 'Deep'])).invoked).toBe(true);
    await popupApp.printed('ctx=Deep');
  });

  it('reads and clicks a popup attached to a widget, which GTK leaves out of the tree', async () => {
    await contextMenuWhen(false);
    await click('Pop attached');
    await popupApp.printed('attached=shown');
    const menu = await contextMenuWhen(true);
    expect(menu?.items.map(({ label }) => label)).toEqual(['Rename']);
    expect((await surface.invokeContextMenuItem(['Rename'])).invoked).toBe(true);
    await popupApp.printed('ctx=Rename');
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
