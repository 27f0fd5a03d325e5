import { StagegraphError } from '../../errors/stagegraph-error.js';
import { type Capability, capabilityMatrix } from '../contract/capabilities.js';
import type {
  DesktopAttachOptions,
  DesktopLaunchOptions,
  DesktopTransport,
  TransportSession,
} from '../contract/transport-contract.js';
import { transportActions } from '../contract/transport-next-actions.js';
import type { AppIsolation } from '../process/isolation.js';
import { OwnedProcess } from '../process/owned-process.js';
import { executableOf } from '../process/proc-sockets.js';
import { delay } from '../process/process-group.js';
import { assertWorkingFolder } from '../process/working-folder.js';
import { waitForLaunchedApp } from './app-launch.js';
import { AtspiBus } from './bus/atspi-bus.js';
import {
  desktopAppsOf,
  type RegisteredApp,
  registeredApps,
  registeredAppWhere,
  registeredPids,
} from './bus/registered-apps.js';
import { type DesktopHost, openDesktop } from './desktop-host.js';
import { DesktopSession } from './desktop-session.js';
import { createDesktopInput } from './input/desktop-input.js';

const DESKTOP_CAPABILITIES: readonly Capability[] = [
  'LAUNCH',
  'ATTACH',
  'INTERACTION',
  'SNAPSHOT',
  'SCREENSHOT',
  'NATIVE_UI',
  'WINDOWS',
];
/** How long a desktop listing may take to reach the accessibility bus. */
const LISTING_TIMEOUT_MS = 15_000;
const REGISTRY_POLL_MS = 200;

const NO_X_INPUT =
  'INTERACTION is false: this desktop is Wayland with no X DISPLAY, and Stagegraph sends input through X (XTest); Wayland offers an outside process no way to type or click. Reading (snapshot, screenshot of windows) still works.';

const BUSY_APP_HINT =
  'The app is registered but answers no accessibility calls: busy, hung, or (GTK) inside a modal dialog opened from an accessibility action, which can leave it answering nothing until the dialog closes. Close the dialog or wait, then retry.';

export interface AtspiTransportConfig {
  /** The gateway's environment: its DISPLAY and DBUS_SESSION_BUS_ADDRESS name the current desktop. */
  readonly environment?: NodeJS.ProcessEnv;
  /** How launchDesktop starts apps: in a PID namespace of their own where the gateway asks for it. */
  readonly isolation?: AppIsolation;
}

/**
 * Drives Linux desktop apps (GTK, Qt, Chromium with accessibility) over AT-SPI2: launched on a desktop of
 * their own (Xvfb, a session bus and an accessibility bus the session owns) when the gateway has none,
 * or found on the current desktop by pid or accessible name. No web engine is reached, so network,
 * clock, storage, console, page dialogs and eval are false.
 */
export function createAtspiTransport(config: AtspiTransportConfig = {}): DesktopTransport {
  const environment = config.environment ?? process.env;
  const capabilities = capabilityMatrix(DESKTOP_CAPABILITIES);
  return {
    id: 'atspi',
    description:
      'Drives Linux desktop apps over AT-SPI2 (the accessibility bus): launchDesktop starts one on a desktop of its own (Xvfb) unless the server runs on one, attachDesktop reaches one on the current desktop by pid or name.',
    capabilities,
    async launchDesktop(options: DesktopLaunchOptions): Promise<TransportSession> {
      assertWorkingFolder(options.cwd);
      const deadline = Date.now() + options.timeoutMs;
      const host = await openDesktop(environment, options.timeoutMs);
      let bus: AtspiBus | undefined;
      let launched: OwnedProcess | undefined;
      try {
        bus = await AtspiBus.connect(host.sessionBusAddress, remaining(deadline));
        launched = OwnedProcess.start(options.command, options.args, {
          ...(options.cwd ? { cwd: options.cwd } : {}),
          env: { ...environment, ...host.env, ...options.env },
          outputDir: options.outputDir,
          isolation: config.isolation,
        });
        const app = await waitForLaunchedApp(bus, launched, remaining(deadline));
        return await openSession(bus, host, app, options.command, launched);
      } catch (error) {
        await launched?.kill();
        bus?.disconnect();
        await host.dispose();
        throw error;
      }
    },
    async attachDesktop(options: DesktopAttachOptions): Promise<TransportSession> {
      const host = currentDesktop(environment);
      const bus = await AtspiBus.connect(host.sessionBusAddress, options.timeoutMs);
      try {
        const app = await findApp(bus, options);
        const executable = app.pid === null ? null : executableOf(app.pid);
        return await openSession(bus, host, app, executable ?? '', undefined);
      } catch (error) {
        bus.disconnect();
        throw error;
      }
    },
    async desktopApps() {
      const host = currentDesktop(environment);
      const bus = await AtspiBus.connect(host.sessionBusAddress, LISTING_TIMEOUT_MS);
      try {
        return await desktopAppsOf(bus);
      } finally {
        bus.disconnect();
      }
    },
  };

  async function openSession(
    bus: AtspiBus,
    host: DesktopHost,
    app: RegisteredApp,
    executablePath: string,
    launched: OwnedProcess | undefined,
  ): Promise<TransportSession> {
    // An X display is what input goes through; a Wayland desktop without one can be read, not driven.
    const xInput = host.display !== '';
    const input = createDesktopInput(bus, host.display);
    try {
      return await DesktopSession.open({
        bus,
        host,
        app,
        appInfo: { name: app.name || null, version: null, executablePath, versions: {}, standIn: false },
        capabilities: xInput ? capabilities : { ...capabilities, INTERACTION: false },
        capabilityNotes: xInput ? [] : [NO_X_INPUT],
        input,
        ...(launched ? { launched } : {}),
      });
    } catch (error) {
      if (!(error instanceof StagegraphError) || error.code !== 'DESKTOP_TIMEOUT') throw error;
      throw new StagegraphError(
        'DESKTOP_TIMEOUT',
        `${app.name || app.ref.busName} answers no accessibility calls (${error.message})`,
        { ...(error.details ? { details: error.details } : {}), hint: BUSY_APP_HINT, cause: error },
      );
    }
  }
}

function remaining(deadline: number): number {
  return Math.max(1_000, deadline - Date.now());
}

/**
 * The desktop the gateway runs on: its session bus, and its X display when it has one (a Wayland desktop
 * with no DISPLAY is reachable for reading). Never owned: nothing is started or ended.
 */
function currentDesktop(environment: NodeJS.ProcessEnv): DesktopHost {
  const sessionBusAddress = environment.DBUS_SESSION_BUS_ADDRESS;
  const display = environment.DISPLAY ?? '';
  if (!sessionBusAddress || (!display && !environment.WAYLAND_DISPLAY)) {
    throw new StagegraphError(
      'DESKTOP_UNAVAILABLE',
      'The server runs on no desktop: DBUS_SESSION_BUS_ADDRESS and DISPLAY (or WAYLAND_DISPLAY) are not both set in its environment.',
      {
        hint: 'Start the server from a desktop session (or with DISPLAY and DBUS_SESSION_BUS_ADDRESS of one) to reach its apps; launchDesktop starts an app on a desktop of its own instead.',
      },
    );
  }
  return {
    display,
    sessionBusAddress,
    owned: false,
    env: { DBUS_SESSION_BUS_ADDRESS: sessionBusAddress, ...(display ? { DISPLAY: display } : {}) },
    dispose: async () => undefined,
  };
}

/** The registered app with the pid or accessible name asked for, waited for until the timeout (it may still be registering). */
async function findApp(bus: AtspiBus, options: DesktopAttachOptions): Promise<RegisteredApp> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    // By pid, no app is called but the match: one busy app on the desktop does not slow the attach.
    const found =
      options.pid !== undefined
        ? await registeredAppWhere(bus, (pid) => pid === options.pid)
        : await appNamed(bus, options.appName ?? '');
    if (found) return found;
    if (Date.now() >= deadline) {
      const wanted = options.pid !== undefined ? `pid ${options.pid}` : `name "${options.appName}"`;
      throw new StagegraphError(
        'DESKTOP_APP_NOT_FOUND',
        `No application with ${wanted} is registered with the desktop's accessibility registry (waited ${options.timeoutMs} ms).`,
        {
          nextActions: [transportActions.desktopApps()],
          details: {
            registered: (await registeredPids(bus)).map(({ ref, pid }) => ({ busName: ref.busName, pid })),
          },
        },
      );
    }
    await delay(REGISTRY_POLL_MS);
  }
}

async function appNamed(bus: AtspiBus, name: string): Promise<RegisteredApp | undefined> {
  const matches = (await registeredApps(bus)).filter((app) => app.name === name);
  if (matches.length > 1) {
    throw new StagegraphError(
      'BAD_INPUT',
      `${matches.length} accessible apps are named "${name}"; attach by pid instead.`,
      { nextActions: [transportActions.desktopApps()], details: { pids: matches.map((app) => app.pid) } },
    );
  }
  return matches[0];
}
