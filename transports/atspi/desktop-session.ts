import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Bounds } from '../contract/bounds.js';
import type { CapabilityMatrix } from '../contract/capabilities.js';
import type { NativeSurface } from '../contract/native.js';
import { SessionLifecycle } from '../contract/session-lifecycle.js';
import type { AppInfo, TransportSession } from '../contract/transport-contract.js';
import type { ExitInfo, TransportEvent, WindowInfo } from '../contract/transport-events.js';
import type { WindowDriver } from '../contract/window-driver.js';
import type { OwnedProcess } from '../process/owned-process.js';
import { AppWindows } from './bus/app-windows.js';
import {
  ACCESSIBLE_IFACE,
  type AccessibleRef,
  type AtspiBus,
  type AtspiSignal,
  ROOT_PATH,
} from './bus/atspi-bus.js';
import { QtPopups } from './bus/qt-popups.js';
import type { RegisteredApp } from './bus/registered-apps.js';
import type { DesktopHost } from './desktop-host.js';
import { DesktopWindowDriver } from './driver/desktop-window-driver.js';
import type { DesktopInput } from './input/desktop-input.js';
import { createDesktopNativeSurface } from './menus/desktop-native-surface.js';
import { KeyTable } from './tree/key-table.js';
import { type ToolkitFamily, toolkitFor } from './tree/toolkit-states.js';

/** AT-SPI's ACTIVE state: bit 1 of the state set's first word. */
const ACTIVE_BIT = 1 << 1;

export interface DesktopSessionSetup {
  readonly bus: AtspiBus;
  readonly host: DesktopHost;
  readonly app: RegisteredApp;
  readonly appInfo: AppInfo;
  readonly capabilities: CapabilityMatrix;
  /** Why the session's matrix is narrower than the transport's, where it is. */
  readonly capabilityNotes: readonly string[];
  readonly input: DesktopInput;
  /** Set by launchDesktop: the process group this session started and must reap. */
  readonly launched?: OwnedProcess;
}

/**
 * One desktop application reached over AT-SPI2: its top-level windows (each driven by a DesktopWindowDriver
 * over one key table), its process when Stagegraph launched it, and the desktop it runs on when Stagegraph
 * started that too. Disposal leaves nothing: the app's group (when owned), the bus connection, the input
 * connection, and the owned Xvfb, session bus and accessibility bus.
 */
export class DesktopSession implements TransportSession {
  readonly pid: number | undefined;
  readonly app: AppInfo;
  readonly ownsProcess: boolean;
  readonly capabilities: CapabilityMatrix;
  readonly capabilityNotes: readonly string[];
  readonly endpoint: string;
  readonly native: NativeSurface;
  readonly #bus: AtspiBus;
  readonly #host: DesktopHost;
  readonly #registered: RegisteredApp;
  readonly #input: DesktopInput;
  readonly #launched: OwnedProcess | undefined;
  readonly #keys = new KeyTable();
  readonly #windows: AppWindows;
  readonly #drivers = new Map<string, DesktopWindowDriver>();
  /** A Qt app's popped-up menus, which no window lists: read as part of the active window. */
  readonly #qtPopups: QtPopups | undefined;
  /** Events stop with the release: the desktop's teardown closes windows that are not news. */
  readonly #life = new SessionLifecycle('dropped');
  readonly events = this.#life.events;
  readonly #unsubscribe: (() => void)[] = [];

  private constructor(setup: DesktopSessionSetup, family: ToolkitFamily) {
    this.#bus = setup.bus;
    this.#host = setup.host;
    this.#registered = setup.app;
    this.#input = setup.input;
    this.#launched = setup.launched;
    this.pid = setup.app.pid ?? setup.launched?.pid;
    this.app = setup.appInfo;
    this.ownsProcess = setup.launched !== undefined;
    this.capabilities = setup.capabilities;
    this.capabilityNotes = setup.capabilityNotes;
    this.endpoint = `atspi://${setup.app.ref.busName}`;
    this.#windows = new AppWindows(
      setup.bus,
      setup.app.ref,
      (event) => this.#onWindowEvent(event),
      family === 'qt',
    );
    this.#qtPopups = family === 'qt' ? new QtPopups(setup.bus, setup.app.ref.busName) : undefined;
    this.native = createDesktopNativeSurface(setup.bus, () => this.#windows.refs(), setup.input);
  }

  /** Follows the app's windows, exit and output; on failure releases what the setup holds. */
  static async open(setup: DesktopSessionSetup): Promise<DesktopSession> {
    // A toolkit that did not answer is read as `other`: its windows are followed by the usual signals.
    const { family } = await toolkitFor(setup.bus, setup.app.ref.busName).catch(() => ({
      family: 'other' as const,
    }));
    const session = new DesktopSession(setup, family);
    try {
      await session.#start();
    } catch (error) {
      await session.dispose();
      throw error;
    }
    return session;
  }

  async #start(): Promise<void> {
    this.#unsubscribe.push(this.#bus.onSignal((signal) => this.#onRegistrySignal(signal)));
    if (this.#launched) {
      void this.#launched.exited.then((exit) => this.#life.emit({ type: 'exited', exit }));
      this.#unsubscribe.push(
        this.#launched.onOutput((stream, text) => this.#life.emit({ type: 'output', stream, text })),
      );
    }
    await this.#windows.start();
  }

  async windows(): Promise<WindowInfo[]> {
    return this.#windows.list();
  }

  async bounds(windowId: string): Promise<Bounds | null> {
    const ref = this.#windows.refOf(windowId);
    if (!ref || this.#life.ended) return null;
    try {
      const [extents] = await this.#bus.call(
        ref.busName,
        ref.path,
        'org.a11y.atspi.Component',
        'GetExtents',
        'u',
        [0],
      );
      const [x = 0, y = 0, width = 0, height = 0] = extents as number[];
      return { x, y, width, height };
    } catch {
      return null;
    }
  }

  /**
   * The window in the ACTIVE state. A window manager activates windows; on a bare Xvfb nothing does, so
   * no window is active and this is null.
   */
  async focusedWindowId(): Promise<string | null> {
    const signalled = this.#windows.activeId();
    if (signalled) return signalled;
    const windows = this.#windows.list();
    const states = await Promise.all(
      windows.map((window) => {
        const ref = this.#windows.refOf(window.id);
        return ref
          ? this.#bus.call(ref.busName, ref.path, ACCESSIBLE_IFACE, 'GetState').catch(() => [[0, 0]])
          : [[0, 0]];
      }),
    );
    const index = states.findIndex(([words]) => ((words as number[])[0] ?? 0) & ACTIVE_BIT);
    return index < 0 ? null : (windows[index]?.id ?? null);
  }

  /**
   * Asks the app to focus the window (Component.GrabFocus). Raising a window is a window manager's work:
   * without one (a bare Xvfb) GTK answers false and nothing changes, which is no error — every AT-SPI action
   * reaches a window whether it is in front or not.
   */
  async bringToFront(windowId: string): Promise<void> {
    const ref = this.#windows.refOf(windowId);
    if (!ref) return;
    await this.#bus
      .call(ref.busName, ref.path, 'org.a11y.atspi.Component', 'GrabFocus')
      .catch(() => undefined);
  }

  window(windowId: string): WindowDriver | undefined {
    const ref = this.#windows.refOf(windowId);
    if (!ref) return undefined;
    let driver = this.#drivers.get(windowId);
    if (!driver) {
      driver = new DesktopWindowDriver({
        bus: this.#bus,
        window: ref,
        keys: this.#keys,
        input: this.#input,
        popups: () => this.#popupsOver(windowId),
      });
      this.#drivers.set(windowId, driver);
    }
    return driver;
  }

  /**
   * The popped-up menus read as part of `windowId`: the active window's (Qt activates the window a menu pops
   * up over), or the first window's when none is active.
   */
  async #popupsOver(windowId: string): Promise<AccessibleRef[]> {
    if (!this.#qtPopups) return [];
    const over = this.#windows.activeId() ?? this.#windows.list()[0]?.id;
    return over === windowId ? this.#qtPopups.showing() : [];
  }

  /** SIGINT to the app's group, then SIGTERM, then SIGKILL within the grace; then the owned desktop ends. */
  async stop(graceMs: number): Promise<ExitInfo> {
    const exit = await this.#owned('stop').stop(graceMs);
    await this.#host.dispose();
    return exit;
  }

  async forceKill(): Promise<ExitInfo> {
    const exit = await this.#owned('forceKill').kill();
    await this.#host.dispose();
    return exit;
  }

  async detach(): Promise<void> {
    if (this.#launched) {
      throw new StagegraphError(
        'BAD_INPUT',
        'This session started its app: detaching would leave a process nobody reaps. Stop it instead.',
      );
    }
    this.#life.end();
  }

  dispose(): Promise<void> {
    return this.#life.dispose(() => this.#release());
  }

  async #release(): Promise<void> {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#windows.stop();
    this.#qtPopups?.stop();
    if (this.#launched && !this.#launched.hasExited()) await this.#launched.end();
    await Promise.resolve(this.#input.dispose?.()).catch(() => undefined);
    this.#bus.disconnect();
    await this.#host.dispose();
  }

  #owned(operation: string): OwnedProcess {
    if (this.#launched) return this.#launched;
    throw new StagegraphError('NOT_OWNED', `${operation} would end an app Stagegraph did not start.`);
  }

  /** The registry announces an application leaving (it quit, crashed, or closed its bus connection). */
  #onRegistrySignal(signal: AtspiSignal): void {
    if (signal.member !== 'ChildrenChanged' || signal.path !== ROOT_PATH) return;
    if (signal.sender === this.#registered.ref.busName) return;
    if (!String(signal.body[0] ?? '').startsWith('remove')) return;
    const value = (signal.body[3] as { value?: unknown } | undefined)?.value;
    if (!Array.isArray(value) || value[0] !== this.#registered.ref.busName) return;
    // A launched app's exit says how it ended (EXITED, CRASHED); only an attached app is merely gone.
    if (!this.#launched) this.#life.lost('the app left the accessibility registry');
  }

  #onWindowEvent(event: TransportEvent & { type: 'window-opened' | 'window-closed' }): void {
    if (event.type === 'window-closed') this.#drivers.delete(event.window.id);
    this.#life.emit(event);
  }
}
