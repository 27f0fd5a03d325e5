import type { NativeEvent } from '../contract/native.js';

/**
 * The parts of Electron's main-process API the hooks touch, typed loosely on purpose: the hooks run against
 * real Electron, the stand-in and plain Electron-shaped objects in unit tests alike.
 */
// biome-ignore lint/suspicious/noExplicitAny: Electron objects as the hooks see them, shape-checked at run time
export type Loose = any;

export interface ElectronLike {
  readonly Menu: Loose;
  readonly BrowserWindow: Loose;
  readonly Notification?: Loose;
  readonly Tray?: Loose;
  readonly dialog?: Loose;
  readonly nativeImage?: Loose;
  readonly ipcMain?: Loose;
  readonly app?: Loose;
  readonly webContents?: Loose;
}

/** The event queue every hook reports into; the gateway drains it with a long poll. */
export interface AgentCore {
  emit(event: NativeEvent): void;
  /** Events after `afterSeq`, waiting up to the core's poll bound when there are none yet. */
  next(afterSeq: number): Promise<{ events: { seq: number; event: NativeEvent }[]; dropped: number }>;
  /** Ends pending polls (the gateway is going away). */
  release(): void;
}

/** Where the installed agent lives in the main process, so later fixed calls can reach it. */
export const AGENT_KEY = 'stagegraph.native-agent';
