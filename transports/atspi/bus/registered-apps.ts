import type { DesktopApp } from '../../contract/transport-contract.js';
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

/** Every registered application with the process behind it: no call reaches the apps themselves. */
export async function registeredPids(bus: AtspiBus): Promise<{ ref: AccessibleRef; pid: number | null }[]> {
  const refs = await bus.applications();
  const pids = await Promise.all(refs.map((ref) => pidOf(bus, ref.busName)));
  return refs.map((ref, index) => ({ ref, pid: pids[index] ?? null }));
}

/**
 * Every registered application with its name and pid, read in parallel. An app that answers no calls
 * (GTK inside a modal loop an action opened) keeps an empty name, after the bus's call timeout.
 */
export async function registeredApps(bus: AtspiBus): Promise<RegisteredApp[]> {
  const apps = await registeredPids(bus);
  const names = await Promise.all(apps.map(({ ref }) => nameOf(bus, ref)));
  return apps.map((app, index) => ({ ...app, name: names[index] ?? '' }));
}

/** The first registered application whose pid passes `test`, named; undefined when none does. */
export async function registeredAppWhere(
  bus: AtspiBus,
  test: (pid: number) => boolean,
): Promise<RegisteredApp | undefined> {
  const found = (await registeredPids(bus)).find(({ pid }) => pid !== null && test(pid));
  return found ? { ...found, name: await nameOf(bus, found.ref) } : undefined;
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
