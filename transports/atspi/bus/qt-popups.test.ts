import { describe, expect, it } from 'vitest';
import { type AtspiBus, type AtspiSignal, ROOT_PATH } from './atspi-bus.js';
import { QtPopups } from './qt-popups.js';

const APP = ':1.7';
const POPUP_MENU = 41;
const PUSH_BUTTON = 43;

/**
 * A Qt app's bus as the fixture's reads showed it (fixtures/desktop-app/qt_app.py): a context menu is a popup
 * menu whose parent is the application, a menu bar's menu one whose parent is its menu item.
 */
function qtApp(objects: Record<string, { role: number; parent: string }>) {
  const listeners = new Set<(signal: AtspiSignal) => void>();
  const asked: string[] = [];
  const bus = {
    onSignal(listener: (signal: AtspiSignal) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async call(_busName: string, path: string, _iface: string, member: string) {
      asked.push(`${member} ${path}`);
      return [objects[path]?.role];
    },
    async property(ref: { path: string }) {
      return [APP, objects[ref.path]?.parent];
    },
  } as unknown as AtspiBus;
  const showing = (path: string, on: boolean, sender = APP) => {
    for (const listener of listeners) {
      listener({
        sender,
        path,
        interface: 'org.a11y.atspi.Event.Object',
        member: 'StateChanged',
        body: ['showing', on ? 1 : 0, 0, 0],
      });
    }
  };
  return { bus, showing, asked, listeners };
}

describe('QtPopups', () => {
  const objects = {
    '/popup': { role: POPUP_MENU, parent: ROOT_PATH },
    '/file-menu': { role: POPUP_MENU, parent: '/file-item' },
    '/button': { role: PUSH_BUTTON, parent: '/filler' },
  };

  it('lists a popup menu of the application while it shows, not a menu bar menu nor another widget', async () => {
    const { bus, showing } = qtApp(objects);
    const popups = new QtPopups(bus, APP);
    expect(await popups.showing()).toEqual([]);
    for (const path of Object.keys(objects)) showing(path, true);
    showing('/popup', true, ':1.9');
    expect(await popups.showing()).toEqual([{ busName: APP, path: '/popup' }]);
    showing('/popup', false);
    expect(await popups.showing()).toEqual([]);
  });

  it('asks what an object is once, and stops following signals when stopped', async () => {
    const { bus, showing, asked, listeners } = qtApp(objects);
    const popups = new QtPopups(bus, APP);
    showing('/popup', true);
    await popups.showing();
    showing('/popup', false);
    showing('/popup', true);
    await popups.showing();
    expect(asked).toEqual(['GetRole /popup']);
    popups.stop();
    expect(listeners.size).toBe(0);
  });
});
