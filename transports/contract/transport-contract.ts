import type { Bounds } from './bounds.js';
import type { CapabilityMatrix } from './capabilities.js';
import type { EvalOutcome, NativeSurface } from './native.js';
import type { ClockControl, DialogControl, NetworkControl, StorageControl } from './renderer-control.js';
import type { TracingControl } from './tracing.js';
import type { EventPort, ExitInfo, WindowInfo } from './transport-events.js';
import type { WindowDriver } from './window-driver.js';

/** The seam between the domain (domain/) and whatever speaks to an app. Nothing here knows GraphQL. */
export type TransportId = 'playwright-electron' | 'cdp' | 'inspector' | 'atspi';

export interface Transport {
  readonly id: TransportId;
  readonly description: string;
  /** What the transport can do at best; a session may say less (see TransportSession.capabilities). */
  readonly capabilities: CapabilityMatrix;
}

export interface LaunchOptions {
  /** An app's entry script or folder, run by the resolved Electron executable. */
  readonly main?: string;
  /** An executable to run directly (a packaged app or an Electron binary); overrides resolution. */
  readonly executablePath?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly timeoutMs: number;
  /** Install the fixed native hooks before the app's main runs (needs `main`), so trays are visible. */
  readonly instrumentNative?: boolean;
}

export interface LaunchTransport extends Transport {
  launch(options: LaunchOptions): Promise<TransportSession>;
}

/** Which renderer page becomes a session's active window when several are open. */
export interface RendererFilter {
  readonly titleContains?: string;
  readonly urlIncludes?: string;
}

export interface AttachOptions extends RendererFilter {
  /** A remote-debugging port on `host`, or `cdpUrl` (http://host:port or a browser ws:// URL). */
  readonly port?: number;
  readonly cdpUrl?: string;
  readonly host: string;
  readonly timeoutMs: number;
}

export interface CommandOptions extends RendererFilter {
  /** Any executable that opens a CDP port when given `--remote-debugging-port` (Chromium, Electron). */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Where the process's stdout and stderr are recorded (the session's artifact folder). */
  readonly outputDir: string;
}

/** One debuggable browser or app answering on a loopback port. */
export interface DebuggableApp {
  readonly port: number;
  readonly browser: string;
  readonly protocolVersion: string;
  readonly webSocketDebuggerUrl: string;
  /** The process listening on the port, when this machine can tell. */
  readonly pid: number | null;
  readonly targets: readonly {
    readonly id: string;
    readonly type: string;
    readonly title: string;
    readonly url: string;
  }[];
}

/** Reaches apps Stagegraph did not launch, over the Chrome DevTools Protocol. */
export interface AttachTransport extends Transport {
  attach(options: AttachOptions): Promise<TransportSession>;
  /** Starts a command with a CDP port of Stagegraph's choosing, attaches, and owns the process tree. */
  launchCommand(options: CommandOptions): Promise<TransportSession>;
  discover(ports: readonly number[], host: string): Promise<DebuggableApp[]>;
}

export interface InjectOptions {
  readonly pid: number;
  /** Attach webContents.debugger to every window and drive the renderers through it. */
  readonly upgrade: boolean;
  readonly timeoutMs: number;
  /** Aborted when the server shuts down: the inject gives up at once, letting go of what it opened. */
  readonly signal?: AbortSignal;
}

/** Reaches a running Node/Electron main process through its inspector. */
export interface InjectTransport extends Transport {
  inject(options: InjectOptions): Promise<TransportSession>;
}

export interface DesktopLaunchOptions {
  /** Any executable that shows an accessible window (a GTK, Qt or Chromium-with-accessibility app). */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly timeoutMs: number;
  /** Where the process's stdout and stderr are recorded (the session's artifact folder). */
  readonly outputDir: string;
}

/** Which running app on the current desktop to attach to: its process id or its accessible name. */
export interface DesktopAttachOptions {
  readonly pid?: number;
  readonly appName?: string;
  readonly timeoutMs: number;
}

/** An application registered with the desktop's accessibility registry. */
export interface DesktopApp {
  /** The application's accessible name (GTK: the program name; Qt: the application name). */
  readonly name: string;
  readonly pid: number | null;
  /** Its unique name on the accessibility bus. */
  readonly busName: string;
  /** The titles of its top-level windows. */
  readonly windowTitles: readonly string[];
}

/** Reaches Linux desktop apps over AT-SPI2 on an X desktop it owns (Xvfb) or the user's own. */
export interface DesktopTransport extends Transport {
  launchDesktop(options: DesktopLaunchOptions): Promise<TransportSession>;
  attachDesktop(options: DesktopAttachOptions): Promise<TransportSession>;
  /** The accessible apps of the current desktop (the user's, named by DISPLAY and DBUS_SESSION_BUS_ADDRESS). */
  desktopApps(): Promise<DesktopApp[]>;
}

export function isLaunchTransport(transport: Transport): transport is LaunchTransport {
  return 'launch' in transport;
}

export function isAttachTransport(transport: Transport): transport is AttachTransport {
  return 'attach' in transport;
}

export function isInjectTransport(transport: Transport): transport is InjectTransport {
  return 'inject' in transport;
}

export function isDesktopTransport(transport: Transport): transport is DesktopTransport {
  return 'launchDesktop' in transport;
}

export interface AppInfo {
  readonly name: string | null;
  readonly version: string | null;
  readonly executablePath: string;
  /** `process.versions` of the app's main process (electron, node, chrome, or electron-standin). */
  readonly versions: Readonly<Record<string, string>>;
  /** True when the executable is the test-only Electron-API stand-in, never real Electron. */
  readonly standIn: boolean;
}

export interface TransportSession {
  readonly pid: number | undefined;
  readonly app: AppInfo;
  /** This session's own matrix where it is narrower than its transport's (what an inject upgrade achieved). */
  readonly capabilities?: CapabilityMatrix;
  /** Why `capabilities` is narrower than the transport's, a sentence each, where the session knows. */
  readonly capabilityNotes?: readonly string[];
  /**
   * False for an app Stagegraph reached but did not start: stop and forceKill are refused (they would kill
   * someone else's process) and detach lets go instead. Absent means true.
   */
  readonly ownsProcess?: boolean;
  /** The window to make active first: the renderer picked by preference or by the attach's filter. */
  readonly preferredWindowId?: string;
  /** Where the session is connected (a CDP or inspector endpoint), for attached sessions. */
  readonly endpoint?: string;
  /** The last lines the app wrote to stderr, where the transport reads them: why an app that ended during start-up did. */
  stderrTail?(): string;
  /** Open windows in the order they opened, with live titles and urls. */
  windows(): Promise<WindowInfo[]>;
  /**
   * Open windows in the order they opened, known without asking any renderer: ids and urls current,
   * titles as last read. Where absent, windows() is used to pick a window for an operation.
   */
  knownWindows?(): WindowInfo[];
  /** One open window with its live title and url, asking only that window; undefined when not open. */
  describeWindow?(windowId: string): Promise<WindowInfo | undefined>;
  bounds(windowId: string): Promise<Bounds | null>;
  focusedWindowId(): Promise<string | null>;
  bringToFront(windowId: string): Promise<void>;
  /** The driver of an open window's renderer document; undefined once the window has closed. */
  window(windowId: string): WindowDriver | undefined;
  /** Menus, trays, notifications, dialogs and eval in the main process; absent where unreachable. */
  readonly native?: NativeSurface;
  /** Present exactly where the transport declares INTERCEPT, DIALOGS, STORAGE and CLOCK respectively. */
  readonly network?: NetworkControl;
  readonly dialogs?: DialogControl;
  readonly storage?: StorageControl;
  readonly clock?: ClockControl;
  /** Playwright tracing of the session's pages, where the transport drives them through Playwright. */
  readonly tracing?: TracingControl;
  /** Where the session publishes what it observes, in the order it observed it. */
  readonly events: EventPort;
  /** Graceful quit, escalating to SIGTERM and then SIGKILL of the process group within `graceMs`. */
  stop(graceMs: number): Promise<ExitInfo>;
  /** SIGKILL of the whole process group, at once. */
  forceKill(): Promise<ExitInfo>;
  /** Lets go of the app and leaves it running (attached sessions). */
  detach?(): Promise<void>;
  /**
   * Runs opted-in user code in a window's renderer, where the transport reaches renderers without a
   * main-process surface; otherwise `native.evalRenderer` does.
   */
  evalRenderer?(windowId: string, code: string, arg: unknown): Promise<EvalOutcome>;
  /** Releases everything; safe to call any number of times, after any of the above. */
  dispose(): Promise<void>;
}
