import { existsSync, readFileSync } from 'node:fs';
import dbus from 'dbus-next';
import { describe, expect, it } from 'vitest';
import { DESKTOP_AVAILABLE, desktopSkipReason } from '../../test/helpers/desktop-fixture.js';
import { openDesktop } from './desktop-host.js';

const WAIT_MS = 30_000;

if (!DESKTOP_AVAILABLE) {
  describe.skip(`an owned desktop (${desktopSkipReason})`, () => {
    it('leaves nothing behind once disposed: its session bus socket goes with it', () => {});
  });
}

describe.runIf(DESKTOP_AVAILABLE)('an owned desktop', () => {
  it('leaves nothing behind once disposed: its session bus socket goes with it', async () => {
    const host = await openDesktop({}, WAIT_MS);
    const socket = /unix:path=([^,]+)/.exec(host.sessionBusAddress)?.[1];
    try {
      expect(socket).toBeDefined();
      expect(existsSync(socket as string)).toBe(true);
    } finally {
      await host.dispose();
    }
    // The bus is killed with its group and cannot remove its own socket: it must live in what dispose removes.
    expect(existsSync(socket as string)).toBe(false);
  });

  it('owns its accessibility bus before it answers: the launcher on its own display, never one D-Bus activated', async () => {
    const host = await openDesktop({}, WAIT_MS);
    const session = dbus.sessionBus({ busAddress: host.sessionBusAddress });
    const ask = async (member: string, name: string) =>
      (
        await session.call(
          new dbus.Message({
            destination: 'org.freedesktop.DBus',
            path: '/org/freedesktop/DBus',
            interface: 'org.freedesktop.DBus',
            member,
            signature: 's',
            body: [name],
          }),
        )
      )?.body[0];
    try {
      // Asked without activating: had nobody taken the name yet, the first GetAddress would start a launcher
      // with the bus daemon's environment, which has no DISPLAY.
      expect(await ask('NameHasOwner', 'org.a11y.Bus')).toBe(true);
      const pid = await ask('GetConnectionUnixProcessID', String(await ask('GetNameOwner', 'org.a11y.Bus')));
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain(`DISPLAY=${host.display}`);
    } finally {
      session.disconnect();
      await host.dispose();
    }
  });
});
