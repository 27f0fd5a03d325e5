import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NativeMenuItem } from '../contract/native.js';
import { ACCESSIBLE_IFACE, type AccessibleRef, AtspiBus } from './atspi-bus.js';
import { type DesktopHost, openDesktop } from './desktop-host.js';
import { acceleratorOf, invokeMenuBarItem, readMenuBar } from './menu-bar.js';
import { atspiRoleName } from './roles.js';

const WAIT_MS = 30_000;

let host: DesktopHost;
let bus: AtspiBus;
let app: ChildProcess;
let window: AccessibleRef;
let panel: AccessibleRef;
const lines: string[] = [];
const lineWaiters = new Set<() => void>();

/** Resolves once the app has printed `line` (it prints one line per change it sees). */
function appPrinted(line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!lines.includes(line)) return;
      lineWaiters.delete(check);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      lineWaiters.delete(check);
      reject(new Error(`the app did not print ${line}; it printed ${JSON.stringify(lines)}`));
    }, WAIT_MS);
    lineWaiters.add(check);
    check();
  });
}

/** The fixture's top-level window of this name, once the app has registered with the registry. */
async function fixtureWindow(name: string): Promise<AccessibleRef> {
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
        if ((await bus.property(ref, ACCESSIBLE_IFACE, 'Name')) === name) return ref;
      }
    }
    if (Date.now() > deadline)
      throw new Error(`no window ${name} registered with the accessibility registry`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function item(items: readonly NativeMenuItem[] | null, label: string): NativeMenuItem {
  const found = items?.find((candidate) => candidate.label === label);
  if (!found) throw new Error(`no menu item ${label} in ${JSON.stringify(items)}`);
  return found;
}

beforeAll(async () => {
  host = await openDesktop({}, WAIT_MS);
  bus = await AtspiBus.connect(host.sessionBusAddress, WAIT_MS);
  app = spawn('/usr/bin/python3', ['fixtures/desktop-app/app.py'], {
    env: { ...process.env, ...host.env, STAGEGRAPH_FIXTURE_ROWS: '50' },
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  app.stdout?.on('data', (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    for (const waiter of [...lineWaiters]) waiter();
  });
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the fixture never printed ready')), WAIT_MS);
    const check = () => {
      if (!lines.some((line) => line.startsWith('ready pid='))) return;
      lineWaiters.delete(check);
      clearTimeout(timer);
      resolve();
    };
    lineWaiters.add(check);
  });
  await ready;
  window = await fixtureWindow('Desktop Fixture');
  panel = await fixtureWindow('Inspector Panel');
}, 120_000);

afterAll(async () => {
  if (app?.pid) {
    try {
      process.kill(-app.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  bus?.disconnect();
  await host?.dispose();
});

describe('readMenuBar', () => {
  it('reads File, View and Help as Electron serializes an application menu', async () => {
    const menu = await readMenuBar(bus, window);
    expect(menu?.map(({ label, type }) => [label, type])).toEqual([
      ['File', 'submenu'],
      ['View', 'submenu'],
      ['Help', 'submenu'],
    ]);
    const file = item(menu, 'File');
    expect(file.submenu?.map(({ label, type, enabled }) => [label, type, enabled])).toEqual([
      ['Save', 'normal', false],
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
    expect(await readMenuBar(bus, panel)).toBeNull();
  });
});

describe('invokeMenuBarItem', () => {
  it('refuses a path that is not an item, a submenu, a separator, or no menu at all', async () => {
    expect(await invokeMenuBarItem(bus, window, ['File'])).toEqual({
      invoked: false,
      reason: 'submenu',
      label: 'File',
      role: null,
    });
    expect((await invokeMenuBarItem(bus, window, ['File', 'Nope'])).reason).toBe('not_found');
    expect((await invokeMenuBarItem(bus, window, ['file', 'Save'])).reason).toBe('not_found');
    expect((await invokeMenuBarItem(bus, window, ['File', ''])).reason).toBe('separator');
    expect((await invokeMenuBarItem(bus, panel, ['File', 'Save'])).reason).toBe('no_menu');
  });

  it('refuses File > Save while it is disabled, and clicks it once the Name entry is edited', async () => {
    expect(await invokeMenuBarItem(bus, window, ['File', 'Save'])).toEqual({
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
    await appPrinted('name=Ada');
    expect(await invokeMenuBarItem(bus, window, ['File', 'Save'])).toEqual({
      invoked: true,
      reason: null,
      label: 'Save',
      role: null,
    });
    await appPrinted('status=Saved');
  });

  it('toggles View > Show Status, and the next read shows it unchecked', async () => {
    expect((await invokeMenuBarItem(bus, window, ['View', 'Show Status'])).invoked).toBe(true);
    await appPrinted('show-status=False');
    const menu = await readMenuBar(bus, window);
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
