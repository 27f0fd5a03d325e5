import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createAgentCore } from './agent-core.js';
import { installDialogHooks } from './dialog-hooks.js';
import { runUserCode } from './eval-body.js';
import { installMenuHooks } from './menu-hooks.js';
import { installNotificationHooks } from './notification-hooks.js';
import { installTrayHooks } from './tray-hooks.js';

/** Plain objects shaped like Electron's Menu, MenuItem, BrowserWindow, Tray and Notification. */
function electronShaped() {
  class Menu extends EventEmitter {
    items: Record<string, unknown>[] = [];
    popup(_options?: unknown) {}
    closePopup() {
      this.emit('menu-will-close');
    }
    static current: Menu | null = null;
    static buildFromTemplate(template: Record<string, unknown>[]) {
      const menu = new Menu();
      menu.items = template.map((entry) => {
        const item: Record<string, unknown> = { type: 'normal', enabled: true, ...entry, checked: false };
        if (Array.isArray(entry.submenu)) item.submenu = Menu.buildFromTemplate(entry.submenu);
        const handler = entry.click as ((item: unknown) => void) | undefined;
        // Electron wraps the handler: the item always has a click, whether or not the app gave one.
        item.click = () => {
          if (item.type === 'checkbox') item.checked = !item.checked;
          handler?.(item);
        };
        return item;
      });
      return menu;
    }
    static getApplicationMenu() {
      return Menu.current;
    }
  }
  const window = { id: 3, webContents: {} };
  const BrowserWindow = {
    getFocusedWindow: () => window,
    getAllWindows: () => [window],
    fromId: () => window,
  };
  class Tray extends EventEmitter {
    setToolTip() {}
    setTitle() {}
    setImage() {}
    setContextMenu() {}
    isDestroyed() {
      return false;
    }
  }
  class Notification {
    title: string;
    constructor(options: { title: string }) {
      this.title = options.title;
    }
    show() {}
  }
  return {
    Menu,
    BrowserWindow,
    Tray,
    Notification,
    dialog: {} as Record<string, (...args: unknown[]) => unknown>,
  };
}

describe('native hooks on Electron-shaped objects', () => {
  it('serializes a menu, invokes by label or role, and refuses what Electron would not deliver', () => {
    const electron = electronShaped();
    const hooks = installMenuHooks(electron, createAgentCore());
    const clicked: string[] = [];
    electron.Menu.current = electron.Menu.buildFromTemplate([
      {
        label: 'File',
        submenu: [
          { label: 'Open', click: () => clicked.push('Open') },
          { label: 'Print' },
          { label: 'Off', enabled: false, click: () => clicked.push('Off') },
          { type: 'separator' },
          { label: 'Quit', role: 'quit' },
        ],
      },
    ]);
    expect(hooks.applicationMenu()?.[0]?.submenu?.map((item) => [item.label, item.type])).toEqual([
      ['Open', 'normal'],
      ['Print', 'normal'],
      ['Off', 'normal'],
      ['', 'separator'],
      ['Quit', 'normal'],
    ]);
    expect(hooks.invokeApplication(['File', 'Open'])).toMatchObject({ invoked: true });
    expect(clicked).toEqual(['Open']);
    expect(hooks.invokeApplication(['File', 'Print']).reason).toBe('no_handler');
    expect(hooks.invokeApplication(['File', 'Off']).reason).toBe('disabled');
    expect(hooks.invokeApplication(['File', 'QUIT']).reason).toBe('role');
    expect(hooks.invokeApplication(['File']).reason).toBe('submenu');
    expect(hooks.invokeApplication(['Edit']).reason).toBe('not_found');
  });

  it('clicks only when the item at the path is still the one the caller was shown', () => {
    const electron = electronShaped();
    const hooks = installMenuHooks(electron, createAgentCore());
    const clicked: string[] = [];
    const build = (label: string) =>
      electron.Menu.buildFromTemplate([
        { label: 'File', submenu: [{ label, id: 'open', click: () => clicked.push(label) }] },
      ]);
    electron.Menu.current = build('Open');
    const shown = { item: { label: 'Open', role: null, type: 'normal' as const } };
    expect(hooks.invokeApplication(['File', 'Open'], shown)).toMatchObject({ invoked: true });
    expect(hooks.invokeApplication(['File', 'Open'], { item: null })).toMatchObject({
      invoked: false,
      changed: true,
    });
    const fileMenu = electron.Menu.current.items[0]?.submenu as InstanceType<typeof electron.Menu>;
    (fileMenu.items[0] as Record<string, unknown>).type = 'checkbox';
    expect(hooks.invokeApplication(['File', 'Open'], shown)).toMatchObject({ invoked: false, changed: true });
    electron.Menu.current = build('Open');
    // A path that led nowhere when shown, and leads nowhere still: refused as before, not changed.
    expect(hooks.invokeApplication(['File', 'Close'], { item: null })).toEqual({
      invoked: false,
      reason: 'not_found',
      label: null,
      role: null,
    });
    expect(clicked).toEqual(['Open']);
  });

  it('captures a popup with its window and closes it when an item is chosen', async () => {
    const electron = electronShaped();
    const core = createAgentCore();
    const hooks = installMenuHooks(electron, core);
    const menu = electron.Menu.buildFromTemplate([{ label: 'Copy', click: () => {} }]);
    menu.popup({ x: 4, y: 5 });
    expect(hooks.contextMenu()).toMatchObject({ browserWindowId: 3, x: 4, y: 5, items: [{ label: 'Copy' }] });
    expect(hooks.invokeContext(['Copy']).invoked).toBe(true);
    expect(hooks.contextMenu()).toBeNull();
    const { events } = await core.next(0);
    expect(events.map((entry) => entry.event.kind)).toEqual(['context-menu-opened', 'context-menu-closed']);
  });

  it('registers trays through the handed-out module and emits events with Electron argument lists', () => {
    const electron = electronShaped();
    const hooks = installTrayHooks(electron, () => null);
    const tray = new hooks.electron.Tray({ isEmpty: () => false });
    tray.setToolTip('tip');
    tray.on('click', () => tray.setToolTip('clicked'));
    expect(hooks.list()).toEqual([
      { id: 't1', tooltip: 'tip', title: '', hasImage: true, destroyed: false, contextMenu: null },
    ]);
    expect(hooks.invoke('t1', 'click')).toMatchObject({ emitted: true, tray: { tooltip: 'clicked' } });
    expect(hooks.invoke('t1', 'right-click')).toMatchObject({ emitted: false, reason: 'no_listener' });
  });

  it('reports notifications and answers dialogs from the policy, cancelling the rest', async () => {
    const electron = electronShaped();
    const core = createAgentCore();
    installNotificationHooks(electron, core);
    const dialogs = installDialogHooks(electron, core);
    new electron.Notification({ title: 'Hi' }).show();
    dialogs.setPolicy([{ type: 'open', filePaths: ['/a'], once: true }]);
    expect(await electron.dialog.showOpenDialog?.({ title: 'x' })).toEqual({
      canceled: false,
      filePaths: ['/a'],
    });
    expect(electron.dialog.showOpenDialogSync?.({})).toBeUndefined();
    expect(electron.dialog.showSaveDialogSync?.({})).toBe('');
    expect(electron.dialog.showMessageBoxSync?.({ buttons: ['OK', 'Cancel'] })).toBe(1);
    const { events } = await core.next(0);
    expect(events.map((entry) => entry.event.kind)).toEqual([
      'notification',
      'dialog',
      'dialog',
      'dialog',
      'dialog',
    ]);
  });

  it('checks eval results are plain JSON and reports throws by message', async () => {
    expect(await runUserCode((a: number) => ({ a }), [1])).toEqual({ status: 'ok', json: '{"a":1}' });
    expect((await runUserCode(() => new Map(), [])).status).toBe('not-serializable');
    expect(await runUserCode(() => Number.NaN, [])).toMatchObject({ status: 'not-serializable' });
    expect(
      await runUserCode(() => {
        throw new TypeError('bad');
      }, []),
    ).toEqual({ status: 'failed', message: 'TypeError: bad' });
  });
});

describe('native hooks on the stand-in', () => {
  it('read and click its Menu, Tray and dialog', async () => {
    const require = createRequire(import.meta.url);
    const standIn = require('../../fixtures/electron-standin/index.cjs');
    const core = createAgentCore();
    const hooks = installMenuHooks(standIn, core);
    let toggled = false;
    const menu = standIn.Menu.buildFromTemplate([
      {
        label: 'View',
        submenu: [
          {
            label: 'Dark',
            type: 'checkbox',
            click: () => {
              toggled = true;
            },
          },
        ],
      },
    ]);
    expect(hooks.serialize(menu)[0]?.submenu?.[0]).toMatchObject({
      label: 'Dark',
      type: 'checkbox',
      checked: false,
    });
    menu.popup({});
    expect(hooks.invokeContext(['View', 'Dark'])).toMatchObject({ invoked: true });
    expect(toggled).toBe(true);
    expect(hooks.serialize(menu)[0]?.submenu?.[0]?.checked).toBe(true);
    installDialogHooks(standIn, core);
    expect(await standIn.dialog.showMessageBox({ buttons: ['Yes', 'No'] })).toEqual({
      response: 1,
      checkboxChecked: false,
    });
  });
});
