import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dbus from 'dbus-next';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ExitInfo } from '../contract/transport-events.js';
import { OwnedGroup } from '../process/owned-group.js';
import { delay } from '../process/process-group.js';

/** Where the X server, the session bus and the accessibility bus of a desktop answer. */
export interface DesktopAddress {
  readonly display: string;
  readonly sessionBusAddress: string;
}

/**
 * A desktop a `desktop` session runs its app on: the user's own (DISPLAY and DBUS_SESSION_BUS_ADDRESS set,
 * nothing owned), or one the gateway starts — Xvfb, a D-Bus session bus and the accessibility bus launcher,
 * each in a process group of its own, all ended with the session.
 */
export interface DesktopHost extends DesktopAddress {
  /** True when the gateway started the desktop and ends it with dispose(). */
  readonly owned: boolean;
  /** The environment an app needs to show on this desktop and reach its buses. */
  readonly env: Readonly<Record<string, string>>;
  /** Ends what the host started (last first); the user's desktop is left alone. Safe to call again. */
  dispose(): Promise<void>;
}

const SCREEN = '1280x800x24';
const XVFB_BIN = 'Xvfb';
const DBUS_DAEMON_BIN = 'dbus-daemon';
const BUS_LAUNCHER_BIN = '/usr/libexec/at-spi-bus-launcher';

/** The user's desktop when the environment names one, else a new owned one. */
export async function openDesktop(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DesktopHost> {
  if (env.DISPLAY && env.DBUS_SESSION_BUS_ADDRESS) {
    const address = { display: env.DISPLAY, sessionBusAddress: env.DBUS_SESSION_BUS_ADDRESS };
    return { ...address, owned: false, env: appEnv(address), dispose: async () => undefined };
  }
  return startOwnedDesktop(timeoutMs);
}

function appEnv(address: DesktopAddress, runtimeDir?: string): Record<string, string> {
  return {
    DISPLAY: address.display,
    DBUS_SESSION_BUS_ADDRESS: address.sessionBusAddress,
    // GTK and Qt load their accessibility bridge only when asked not to skip it; Chromium and Electron
    // register on the accessibility bus only with ACCESSIBILITY_ENABLED.
    NO_AT_BRIDGE: '0',
    ACCESSIBILITY_ENABLED: '1',
    QT_ACCESSIBILITY: '1',
    QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
    GTK_A11Y: 'atspi',
    ...(runtimeDir ? { XDG_RUNTIME_DIR: runtimeDir } : {}),
  };
}

interface Started {
  readonly child: ChildProcess;
  readonly group: OwnedGroup;
}

function startGroup(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  if (child.pid === undefined) {
    throw new StagegraphError('DESKTOP_UNAVAILABLE', `Could not start ${command}.`);
  }
  return { child, group: new OwnedGroup(child.pid, exited) };
}

/** The first line a child writes to stdout, or a DESKTOP_UNAVAILABLE naming what failed. */
function firstLine(started: Started, what: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new StagegraphError('DESKTOP_UNAVAILABLE', `${what} ${why}.`));
    };
    const timer = setTimeout(() => fail(`did not answer within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null) => fail(`exited with code ${code} before answering`);
    started.child.once('error', (error) => fail(`could not start (${error.message})`));
    started.child.once('exit', onExit);
    started.child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      started.child.off('exit', onExit);
      resolve(buffered.slice(0, end).trim());
    });
  });
}

async function startOwnedDesktop(timeoutMs: number): Promise<DesktopHost> {
  const runtimeDir = mkdtempSync(join(tmpdir(), 'stagegraph-desktop-'));
  const started: Started[] = [];
  let disposed: Promise<void> | undefined;
  const dispose = () => {
    disposed ??= (async () => {
      for (const { group } of started.reverse()) await group.kill();
      rmSync(runtimeDir, { recursive: true, force: true });
    })();
    return disposed;
  };
  try {
    const baseEnv = { ...process.env, XDG_RUNTIME_DIR: runtimeDir };
    // -noreset: an X server whose last client leaves resets itself and drops its root window's properties.
    // The accessibility bus launcher writes the bus address there (AT_SPI_BUS) and disconnects, which was
    // the last client: the address went with the reset. Qt reads it there to connect before it registers;
    // without it, it registers over a connection not yet open and never shows on the registry (issue 35).
    const xvfb = startGroup(
      XVFB_BIN,
      ['-displayfd', '1', '-screen', '0', SCREEN, '-nolisten', 'tcp', '-noreset'],
      baseEnv,
    );
    started.push(xvfb);
    const display = `:${await firstLine(xvfb, 'Xvfb', timeoutMs)}`;
    // Its socket in the runtime folder, not the session config's /tmp: a bus ended by its group's kill
    // cannot remove its socket, and one desktop left one in /tmp each time.
    const bus = startGroup(
      DBUS_DAEMON_BIN,
      ['--session', '--nofork', '--nosyslog', '--print-address=1', `--address=unix:dir=${runtimeDir}`],
      baseEnv,
    );
    started.push(bus);
    const sessionBusAddress = await firstLine(bus, 'The D-Bus session bus', timeoutMs);
    const address = { display, sessionBusAddress };
    const env = appEnv(address, runtimeDir);
    const launcher = startGroup(BUS_LAUNCHER_BIN, ['--launch-immediately'], { ...baseEnv, ...env });
    started.push(launcher);
    await ownedByLauncher(sessionBusAddress, launcher, timeoutMs);
    return { ...address, owned: true, env, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

const A11Y_BUS_NAME = 'org.a11y.Bus';
const NAME_POLL_MS = 25;

/**
 * Waits until the launcher just started owns org.a11y.Bus. Until it does, the first GetAddress — ours or an
 * app's — has the session bus start another launcher by D-Bus activation, with the bus daemon's environment:
 * no DISPLAY, so that registry's key and click events reach no X server, and `type` answered ok while
 * nothing reached the app (issue 35). NameHasOwner asks without activating anything.
 */
async function ownedByLauncher(
  sessionBusAddress: string,
  launcher: Started,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const session = dbus.sessionBus({ busAddress: sessionBusAddress });
  session.on('error', () => undefined);
  const ask = async (member: string, name: string): Promise<unknown> => {
    const reply = await session.call(
      new dbus.Message({
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member,
        signature: 's',
        body: [name],
      }),
    );
    return reply?.body[0];
  };
  try {
    while (!(await ask('NameHasOwner', A11Y_BUS_NAME))) {
      if (launcher.child.exitCode !== null || Date.now() > deadline) {
        throw new StagegraphError(
          'DESKTOP_UNAVAILABLE',
          `The accessibility bus launcher did not take ${A11Y_BUS_NAME} within ${timeoutMs} ms.`,
        );
      }
      await delay(NAME_POLL_MS);
    }
    const owner = String(await ask('GetNameOwner', A11Y_BUS_NAME));
    const pid = Number(await ask('GetConnectionUnixProcessID', owner));
    if (pid !== launcher.child.pid) {
      throw new StagegraphError(
        'DESKTOP_UNAVAILABLE',
        `${A11Y_BUS_NAME} on the owned desktop belongs to pid ${pid}, not to the launcher it started (pid ${launcher.child.pid}); its keys would not reach the desktop's X server.`,
      );
    }
  } finally {
    session.disconnect();
  }
}
