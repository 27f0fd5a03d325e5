import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import dbus from 'dbus-next';
import { describe, expect, it } from 'vitest';
import { DESKTOP_AVAILABLE, desktopSkipReason } from '../../test/helpers/desktop-fixture.js';
import { openDesktop } from './desktop-host.js';

const WAIT_MS = 30_000;

type Reply<T> = (error: Error | null, value: T) => void;
interface XClient {
  InternAtom(onlyIfExists: boolean, name: string, callback: Reply<number>): void;
  GetProperty(
    del: number,
    window: number,
    atom: number,
    type: number,
    offset: number,
    length: number,
    callback: Reply<{ data: Buffer }>,
  ): void;
  close(callback: () => void): void;
}
const x11 = createRequire(import.meta.url)('x11') as {
  createClient(
    options: { display: string },
    callback: Reply<{ client: XClient; screen: { root: number }[] }>,
  ): void;
};

/** The root window's AT_SPI_BUS property on `display`, as a string ('' when it is not there). */
async function rootBusAddress(display: string): Promise<string> {
  const { client, screen } = await new Promise<{ client: XClient; screen: { root: number }[] }>(
    (resolve, reject) =>
      x11.createClient({ display }, (error, value) => (error ? reject(error) : resolve(value))),
  );
  try {
    const atom = await new Promise<number>((resolve, reject) =>
      client.InternAtom(false, 'AT_SPI_BUS', (error, value) => (error ? reject(error) : resolve(value))),
    );
    const root = screen[0]?.root ?? 0;
    const property = await new Promise<{ data: Buffer }>((resolve, reject) =>
      client.GetProperty(0, root, atom, 0, 0, 4096, (error, value) =>
        error ? reject(error) : resolve(value),
      ),
    );
    return property.data.toString();
  } finally {
    await new Promise<void>((resolve) => client.close(resolve));
  }
}

if (!DESKTOP_AVAILABLE) {
  describe.skip(`an owned desktop (${desktopSkipReason})`, () => {
    it('leaves nothing behind once disposed: its session bus socket goes with it', () => {});
    it('keeps the accessibility bus address on its root window, where Qt reads it', () => {});
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

  it('keeps the accessibility bus address on its root window, where Qt reads it', async () => {
    const host = await openDesktop({}, WAIT_MS);
    const session = dbus.sessionBus({ busAddress: host.sessionBusAddress });
    try {
      const reply = await session.call(
        new dbus.Message({
          destination: 'org.a11y.Bus',
          path: '/org/a11y/bus',
          interface: 'org.a11y.Bus',
          member: 'GetAddress',
        }),
      );
      // The launcher wrote it and left; an X server that reset when its last client left would have lost it.
      expect(await rootBusAddress(host.display)).toBe(String(reply?.body[0]));
    } finally {
      session.disconnect();
      await host.dispose();
    }
  });
});
