import type { DesktopApp } from '../contract/transport.js';
import { ACCESSIBLE_IFACE, type AccessibleRef, type AtspiBus } from './atspi-bus.js';

/** An application on the accessibility registry, with the process behind its bus connection. */
export interface RegisteredApp {
  readonly ref: AccessibleRef;
  readonly name: string;
  readonly pid: number | null;
}

const DBUS = 'org.freedesktop.DBus';

/**
 * The process behind an application's unique name, as the accessibility bus daemon knows it
 * (GetConnectionUnixProcessID): what AT-SPI's own Application.Id does not give (GTK answers 0).
 */
export async function pidOf(bus: AtspiBus, busName: string): Promise<number | null> {
  try {
    const [pid] = await bus.call(DBUS, '/org/freedesktop/DBus', DBUS, 'GetConnectionUnixProcessID', 's', [
      busName,
    ]);
    return typeof pid === 'number' && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Every registered application with its name and pid, read in parallel; one that does not answer keeps an empty name. */
export async function registeredApps(bus: AtspiBus): Promise<RegisteredApp[]> {
  const refs = await bus.applications();
  return Promise.all(
    refs.map(async (ref) => {
      const [name, pid] = await Promise.all([
        bus.property(ref, ACCESSIBLE_IFACE, 'Name').then(String, () => ''),
        pidOf(bus, ref.busName),
      ]);
      return { ref, name, pid };
    }),
  );
}

/** An application's top-level windows, as its root lists them. */
export async function windowRefs(bus: AtspiBus, app: AccessibleRef): Promise<AccessibleRef[]> {
  const [children] = await bus.call(app.busName, app.path, ACCESSIBLE_IFACE, 'GetChildren');
  return (children as [string, string][]).map(([busName, path]) => ({ busName, path }));
}

/** The accessible name of an object; empty when it does not answer. */
export function nameOf(bus: AtspiBus, ref: AccessibleRef): Promise<string> {
  return bus.property(ref, ACCESSIBLE_IFACE, 'Name').then(String, () => '');
}

/** The desktop's applications as `desktopApps` lists them: an app busy in a modal loop lists no titles. */
export async function desktopAppsOf(bus: AtspiBus): Promise<DesktopApp[]> {
  const apps = await registeredApps(bus);
  return Promise.all(
    apps.map(async ({ ref, name, pid }) => {
      const windows = await windowRefs(bus, ref).catch(() => []);
      const windowTitles = await Promise.all(windows.map((window) => nameOf(bus, window)));
      return { name, pid, busName: ref.busName, windowTitles };
    }),
  );
}
