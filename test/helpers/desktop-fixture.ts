import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ACCESSIBLE_IFACE, type AccessibleRef, AtspiBus } from '../../transports/atspi/bus/atspi-bus.js';
import { type DesktopHost, openDesktop } from '../../transports/atspi/desktop-host.js';

/** The GTK fixture app every desktop test drives. */
export const FIXTURE_APP = fileURLToPath(new URL('../../fixtures/desktop-app/app.py', import.meta.url));
/** The system Python: it has PyGObject (gi); the python3 on PATH may not. */
export const SYSTEM_PYTHON = '/usr/bin/python3';
const BUS_LAUNCHER = '/usr/libexec/at-spi-bus-launcher';
const WAIT_MS = 30_000;

function missingPart(): string | undefined {
  if (spawnSync('which', ['Xvfb']).status !== 0) return 'Xvfb not installed';
  try {
    accessSync(BUS_LAUNCHER, constants.X_OK);
  } catch {
    return `${BUS_LAUNCHER} not installed`;
  }
  const gtk = spawnSync(SYSTEM_PYTHON, ['-c', 'import gi; gi.require_version("Gtk", "3.0")']);
  if (gtk.status !== 0) return `${SYSTEM_PYTHON} cannot import gi with Gtk 3.0`;
  return undefined;
}

/** Why desktop-backed suites are skipped here, or '' when this machine can run them. */
export const desktopSkipReason = missingPart() ?? '';
export const DESKTOP_AVAILABLE = desktopSkipReason === '';

/** The GTK4 (libadwaita where installed) calculator fixture. */
export const GTK4_FIXTURE_APP = fileURLToPath(
  new URL('../../fixtures/desktop-app/gtk4_app.py', import.meta.url),
);
const gtk4 = () =>
  spawnSync(SYSTEM_PYTHON, ['-c', 'import gi; gi.require_version("Gtk", "4.0")']).status === 0
    ? ''
    : `${SYSTEM_PYTHON} cannot import gi with Gtk 4.0 (Debian: gir1.2-gtk-4.0)`;
/** Why the GTK4 fixture's suites are skipped here, or ''. */
export const gtk4SkipReason = desktopSkipReason || gtk4();

/** The Qt Widgets calculator fixture; its first argument names the binding (PyQt6 or PyQt5). */
export const QT_FIXTURE_APP = fileURLToPath(new URL('../../fixtures/desktop-app/qt_app.py', import.meta.url));
/** The Qt bindings Debian packages (python3-pyqt6, python3-pyqt5), newest first. */
export const QT_BINDINGS = ['PyQt6', 'PyQt5'] as const;
export type QtBinding = (typeof QT_BINDINGS)[number];
/** Why the Qt fixture cannot run on `binding` here, or ''. */
export function qtSkipReason(binding: QtBinding): string {
  if (desktopSkipReason) return desktopSkipReason;
  const imports = spawnSync(SYSTEM_PYTHON, ['-c', `import ${binding}.QtWidgets`]).status === 0;
  return imports
    ? ''
    : `${SYSTEM_PYTHON} cannot import ${binding} (Debian: python3-${binding.toLowerCase()})`;
}

/** `env` without a desktop: a gateway given it must start a desktop of its own. */
export function withoutDesktop(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { DISPLAY: _d, DBUS_SESSION_BUS_ADDRESS: _b, WAYLAND_DISPLAY: _w, ...rest } = env;
  return rest;
}

export interface PrintedOptions {
  /** Only lines printed at or after this index of `lines` count. */
  from?: number;
  /** How many matching lines to wait for. */
  count?: number;
  timeoutMs?: number;
}

export interface DesktopApp {
  child: ChildProcess;
  /** The app's own pid, as it printed in `ready pid=N` (for a script that prints only `ready`, the child's). */
  pid: number;
  /** Every complete stdout line so far. */
  lines: string[];
  /** Resolves with the `count`th matching line the app prints (past lines included), rejects after the timeout. */
  printed(match: string | ((line: string) => boolean), options?: PrintedOptions): Promise<string>;
  /** Kills the app's process group. */
  stop(): void;
}

export interface StartOptions {
  /** Added to the desktop's environment. */
  env?: NodeJS.ProcessEnv;
  /** Arguments for the fixture app. */
  args?: readonly string[];
  /** A Python program to run instead of the fixture app; it must print `ready` once shown. */
  script?: string;
  timeoutMs?: number;
}

/** Starts the fixture app (or `script`) on `host` and resolves once it printed its ready line. */
export async function startOnDesktop(host: DesktopHost, options: StartOptions = {}): Promise<DesktopApp> {
  const argv = options.script ? ['-c', options.script] : [FIXTURE_APP, ...(options.args ?? [])];
  const child = spawn(SYSTEM_PYTHON, argv, {
    env: { ...process.env, ...host.env, ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let exited: string | undefined;
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    for (const waiter of [...waiters]) waiter();
  });
  child.once('exit', (code, signal) => {
    exited = `the app exited (${code ?? signal})`;
    for (const waiter of [...waiters]) waiter();
  });
  const printed: DesktopApp['printed'] = (match, { from = 0, count = 1, timeoutMs = WAIT_MS } = {}) => {
    const matches = typeof match === 'string' ? (line: string) => line === match : match;
    const what = typeof match === 'string' ? match : 'the awaited line';
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        waiters.delete(check);
        clearTimeout(timer);
        reject(
          new Error(`${why} before it printed ${what}; it printed ${JSON.stringify(lines.slice(from))}`),
        );
      };
      const check = () => {
        const found = lines.slice(from).filter(matches);
        if (found.length >= count) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found[count - 1] as string);
        } else if (exited) fail(exited);
      };
      const timer = setTimeout(() => fail(`${timeoutMs} ms passed`), timeoutMs);
      waiters.add(check);
      check();
    });
  };
  const stop = () => {
    if (!child.pid) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  try {
    const ready = await printed((line) => /^ready( pid=\d+)?$/.test(line), {
      timeoutMs: options.timeoutMs ?? WAIT_MS,
    });
    const pid = Number(/pid=(\d+)/.exec(ready)?.[1] ?? child.pid);
    return { child, pid, lines, printed, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** The top-level window named `title` once its app has registered with the registry (polled, bounded). */
export async function topLevelWindow(
  bus: AtspiBus,
  title: string,
  timeoutMs = WAIT_MS,
): Promise<AccessibleRef> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const application of await bus.applications()) {
      const [children] = await bus
        .call(application.busName, application.path, ACCESSIBLE_IFACE, 'GetChildren')
        .catch(() => [[]]);
      for (const [busName, path] of children as [string, string][]) {
        const ref = { busName, path };
        if ((await bus.property(ref, ACCESSIBLE_IFACE, 'Name').catch(() => '')) === title) return ref;
      }
    }
    if (Date.now() > deadline)
      throw new Error(`no window ${title} registered with the accessibility registry`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface DesktopFixture extends DesktopApp {
  host: DesktopHost;
  bus: AtspiBus;
  window(title: string, timeoutMs?: number): Promise<AccessibleRef>;
  /** Kills the app's group, disconnects the bus and disposes the desktop. */
  stop(): Promise<void>;
}

/** A desktop of its own (Xvfb, buses), an AT-SPI connection to it, and the fixture app (or `script`) shown on it. */
export async function startDesktopFixture(options: StartOptions = {}): Promise<DesktopFixture> {
  const timeoutMs = options.timeoutMs ?? WAIT_MS;
  const host = await openDesktop({}, timeoutMs);
  let bus: AtspiBus | undefined;
  try {
    bus = await AtspiBus.connect(host.sessionBusAddress, timeoutMs);
    const app = await startOnDesktop(host, options);
    const connected = bus;
    return {
      ...app,
      host,
      bus: connected,
      window: (title, windowTimeoutMs) => topLevelWindow(connected, title, windowTimeoutMs),
      stop: async () => {
        app.stop();
        connected.disconnect();
        await host.dispose();
      },
    };
  } catch (error) {
    bus?.disconnect();
    await host.dispose();
    throw error;
  }
}
