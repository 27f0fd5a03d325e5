import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP_AVAILABLE,
  type DesktopFixture,
  desktopSkipReason,
  startDesktopFixture,
} from '../../../test/helpers/desktop-fixture.js';
import type { NativeMenuItem, NativeSurface } from '../../contract/native.js';
import type { AccessibleRef, AtspiBus } from '../bus/atspi-bus.js';
import { atspiRoleName } from '../tree/atspi-roles.js';
import { createDesktopNativeSurface } from './desktop-native-surface.js';
import { acceleratorOf } from './menu-bar.js';

let fixture: DesktopFixture;
let bus: AtspiBus;
/** The fixture's main window's menu bar, read and invoked as the product does. */
let withBar: NativeSurface;
/** A window without a menu bar. */
let withoutBar: NativeSurface;
let window: AccessibleRef;

function item(items: readonly NativeMenuItem[] | null, label: string): NativeMenuItem {
  const found = items?.find((candidate) => candidate.label === label);
  if (!found) throw new Error(`no menu item ${label} in ${JSON.stringify(items)}`);
  return found;
}

beforeAll(async () => {
  // acceleratorOf's cases need no desktop and run without one.
  if (!DESKTOP_AVAILABLE) return;
  fixture = await startDesktopFixture({ env: { STAGEGRAPH_FIXTURE_ROWS: '50' } });
  bus = fixture.bus;
  window = await fixture.window('Desktop Fixture');
  const panel: AccessibleRef = await fixture.window('Inspector Panel');
  withBar = createDesktopNativeSurface(bus, () => [window]);
  withoutBar = createDesktopNativeSurface(bus, () => [panel]);
}, 120_000);

afterAll(async () => {
  await fixture?.stop();
});

if (!DESKTOP_AVAILABLE) {
  describe.skip(`the GTK fixture's menu bar (${desktopSkipReason})`, () => {
    it('reads and invokes menu items', () => {});
  });
}

describe.runIf(DESKTOP_AVAILABLE)('the menu bar as applicationMenu reads it', () => {
  it('reads File, View and Help as Electron serializes an application menu', async () => {
    const menu = await withBar.applicationMenu();
    expect(menu?.map(({ label, type }) => [label, type])).toEqual([
      ['File', 'submenu'],
      ['View', 'submenu'],
      ['Help', 'submenu'],
    ]);
    const file = item(menu, 'File');
    expect(file.submenu?.map(({ label, type, enabled }) => [label, type, enabled])).toEqual([
      ['Save', 'normal', false],
      ['Save As...', 'normal', true],
      ['', 'separator', true],
      ['Delete All', 'normal', true],
    ]);
    expect(item(file.submenu, 'Delete All')).toEqual({
      label: 'Delete All',
      role: null,
      type: 'normal',
      id: null,
      accelerator: null,
      enabled: true,
      visible: true,
      checked: false,
      sublabel: null,
      toolTip: null,
      submenu: null,
    });
    const showStatus = item(item(menu, 'View').submenu, 'Show Status');
    expect([showStatus.type, showStatus.checked, showStatus.enabled]).toEqual(['checkbox', true, true]);
    expect(item(menu, 'Help').submenu?.map(({ label }) => label)).toEqual(['About']);
  });

  it('answers null for a window without a menu bar', async () => {
    expect(await withoutBar.applicationMenu()).toBeNull();
  });
});

describe.runIf(DESKTOP_AVAILABLE)('the menu bar as invokeMenuItem invokes it', () => {
  it('refuses a path that is not an item, a submenu, a separator, or no menu at all', async () => {
    expect(await withBar.invokeMenuItem(['File'])).toEqual({
      invoked: false,
      reason: 'submenu',
      label: 'File',
      role: null,
    });
    expect((await withBar.invokeMenuItem(['File', 'Nope'])).reason).toBe('not_found');
    expect((await withBar.invokeMenuItem(['file', 'Save'])).reason).toBe('not_found');
    expect((await withBar.invokeMenuItem(['File', ''])).reason).toBe('separator');
    expect((await withoutBar.invokeMenuItem(['File', 'Save'])).reason).toBe('no_menu');
  });

  it('refuses File > Save while it is disabled, and clicks it once the Name entry is edited', async () => {
    expect(await withBar.invokeMenuItem(['File', 'Save'])).toEqual({
      invoked: false,
      reason: 'disabled',
      label: 'Save',
      role: null,
    });
    // The Name entry is the fixture's one plain text field (Password is `password text`, Quantity a spin button).
    const entry = (await bus.cacheItems(window.busName)).find(({ role }) => atspiRoleName(role) === 'text');
    if (!entry) throw new Error('no editable entry in the fixture');
    await bus.call(entry.ref.busName, entry.ref.path, 'org.a11y.atspi.EditableText', 'SetTextContents', 's', [
      'Ada',
    ]);
    await fixture.printed('name=Ada');
    expect(await withBar.invokeMenuItem(['File', 'Save'])).toEqual({
      invoked: true,
      reason: null,
      label: 'Save',
      role: null,
    });
    await fixture.printed('status=Saved');
  });

  it('toggles View > Show Status, and the next read shows it unchecked', async () => {
    expect((await withBar.invokeMenuItem(['View', 'Show Status'])).invoked).toBe(true);
    await fixture.printed('show-status=False');
    const menu = await withBar.applicationMenu();
    expect(item(item(menu, 'View').submenu, 'Show Status').checked).toBe(false);
  });
});

describe('acceleratorOf', () => {
  it("writes ATK's mnemonic;path;accelerator binding's accelerator as Electron does", () => {
    expect(acceleratorOf('c;<Alt>e:c;<Primary>c')).toBe('Ctrl+C');
    expect(acceleratorOf('f;<Alt>e:f;<Shift><Alt>F3')).toBe('Shift+Alt+F3');
    expect(acceleratorOf('d;<Alt>e:d;<Control>Page_Down')).toBe('Ctrl+PageDown');
    expect(acceleratorOf('<Alt>e;<Alt>e;')).toBeNull();
    expect(acceleratorOf('')).toBeNull();
  });
});
