import type { Capability, CapabilityMatrix } from './capabilities.js';
import type { NativeEvent, NativeSurface } from './native-contract.js';
import type {
  ClockControl,
  DialogControl,
  DialogDecision,
  DialogSeen,
  NetworkControl,
  NetworkRecord,
  StorageControl,
} from './renderer-control.js';
import type { WindowDriver } from './window-driver.js';

/** The seam between the domain (resolvers/) and whatever speaks to an app. Nothing here knows GraphQL. */
export type TransportId = 'playwright-electron';

export interface Transport {
  readonly id: TransportId;
  readonly description: string;
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

export interface Bounds {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface WindowInfo {
  /** Stable for the window's life within its session (`w1`, `w2`, ...). */
  readonly id: string;
  readonly title: string;
  readonly url: string;
}

export type ConsoleSource = 'RENDERER' | 'MAIN';

export interface ConsoleMessage {
  readonly time: Date;
  /** The console API type as Chromium names it: log, info, warning, error, debug, trace, ... */
  readonly type: string;
  readonly text: string;
  readonly source: ConsoleSource;
  /** The window that logged it; absent for the main process. */
  readonly windowId?: string;
  readonly location?: string;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
}

export type TransportEvent =
  | { readonly type: 'window-opened'; readonly window: WindowInfo }
  | { readonly type: 'window-closed'; readonly window: WindowInfo }
  | { readonly type: 'renderer-crashed'; readonly window: WindowInfo }
  | { readonly type: 'console'; readonly message: ConsoleMessage }
  | { readonly type: 'network'; readonly record: NetworkRecord }
  | { readonly type: 'dialog'; readonly dialog: DialogSeen; readonly decision: DialogDecision }
  | { readonly type: 'exited'; readonly exit: ExitInfo }
  | { readonly type: 'native'; readonly event: NativeEvent };

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
  /** Open windows in the order they opened, with live titles and urls. */
  windows(): Promise<WindowInfo[]>;
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
  /** Events in the order the transport observed them; returns an unsubscribe. */
  onEvent(listener: (event: TransportEvent) => void): () => void;
  /** Graceful quit, escalating to SIGTERM and then SIGKILL of the process group within `graceMs`. */
  stop(graceMs: number): Promise<ExitInfo>;
  /** SIGKILL of the whole process group, at once. */
  forceKill(): Promise<ExitInfo>;
  /** Releases everything; safe to call any number of times, after any of the above. */
  dispose(): Promise<void>;
}

export function hasCapability(transport: Transport, capability: Capability): boolean {
  return transport.capabilities[capability];
}
