import type { ElectronApplication, Page } from 'playwright-core';
import type { Bounds } from '../contract/bounds.js';
import type {
  DialogRule,
  EvalOutcome,
  NativeSurface,
  TrayEventName,
  TrayInvocation,
  TrayState,
} from '../contract/native.js';
import { lateInstallSource } from '../main-agent/agent-source.js';
import { AgentSurface } from '../main-agent/agent-surface.js';
import { evalInPage } from '../page-engine/renderer/renderer-eval.js';
import { type MainChannel, openMainChannel } from './main-channel.js';

/** Fixed main-process sources for window state (not user eval), run over the main channel. */
const FOCUSED_WINDOW = '(electron) => electron.BrowserWindow.getFocusedWindow()?.id ?? null';
const WINDOW_BOUNDS = '(electron, id) => electron.BrowserWindow.fromId(id)?.getBounds() ?? null';
const FOCUS_WINDOW = '(electron, id) => { electron.BrowserWindow.fromId(id)?.focus(); return null; }';

interface WindowLookup {
  entries(): [string, Page][];
}

/**
 * The main-process surface of a launched app: every call runs a fixed, transport-owned function in the main
 * process (not user eval), except evalMain / evalRenderer, which the schema exposes only on the server's
 * explicit opt-in. Calls go over the app's main channel (main-channel.ts); window handles over Playwright.
 */
export class PlaywrightNativeSurface extends AgentSurface implements NativeSurface {
  readonly #electron: ElectronApplication;
  readonly #windows: WindowLookup;
  readonly #channel: MainChannel;
  readonly #browserWindowIds = new WeakMap<Page, number>();

  private constructor(
    electron: ElectronApplication,
    windows: WindowLookup,
    channel: MainChannel,
    instrumented: boolean,
  ) {
    super({ run: channel.run, instrumented, gone: () => goneOrUnreachable(channel) });
    this.#electron = electron;
    this.#windows = windows;
    this.#channel = channel;
  }

  /**
   * Installs the agent when the instrumented preload has not already (a plain launch), and says which.
   * `channel` is the app's own unless a caller knows better (a bench's reference through Playwright).
   */
  static async attach(
    electron: ElectronApplication,
    windows: WindowLookup,
    channel?: MainChannel,
  ): Promise<PlaywrightNativeSurface> {
    const through = channel ?? (await openMainChannel(electron));
    const instrumented = (await through.run(lateInstallSource(), null).catch(async (error: unknown) => {
      await through.close();
      throw error;
    })) as boolean;
    return new PlaywrightNativeSurface(electron, windows, through, instrumented);
  }

  /** How the calls reach the main process. */
  get via(): MainChannel['via'] {
    return this.#channel.via;
  }

  /** Ends the event stream, then lets go of the channel. */
  override async close(): Promise<void> {
    super.close();
    await this.#channel.close();
  }

  trays(): Promise<TrayState[]> {
    return this.call('agent.trays ? agent.trays.list() : []');
  }

  invokeTray(id: string, event: TrayEventName): Promise<TrayInvocation> {
    return this.call('agent.trays.invoke(arg.id, arg.event)', { id, event });
  }

  async setDialogPolicy(rules: readonly DialogRule[]): Promise<void> {
    await this.call('agent.dialogs.setPolicy(arg)', rules);
  }

  async windowIdOf(browserWindowId: number): Promise<string | null> {
    for (const [id, page] of this.#windows.entries()) {
      if ((await this.browserWindowIdOf(page)) === browserWindowId) return id;
    }
    return null;
  }

  /** The BrowserWindow id of a window's page: asked of Playwright once per page, then known. */
  async browserWindowIdOf(page: Page): Promise<number | null> {
    let known = this.#browserWindowIds.get(page);
    if (known === undefined) {
      const handle = await this.#electron.browserWindow(page).catch(() => null);
      if (!handle) return null;
      known = (await handle
        .evaluate((window: Electron.BrowserWindow) => window.id)
        .catch(() => -1)) as number;
      await handle.dispose();
      this.#browserWindowIds.set(page, known);
    }
    return known;
  }

  /** The id of the window that has the focus, in one main-process call; null when none of ours has it. */
  async focusedWindowId(): Promise<string | null> {
    const focused = await this.#channel.run(FOCUSED_WINDOW);
    return typeof focused === 'number' ? this.windowIdOf(focused) : null;
  }

  /** A window's bounds, in one main-process call once its BrowserWindow is known. */
  async boundsOf(page: Page): Promise<Bounds | null> {
    const id = await this.browserWindowIdOf(page);
    return id === null ? null : ((await this.#channel.run(WINDOW_BOUNDS, id)) as Bounds | null);
  }

  /** Gives a window the focus in the main process. */
  async focus(page: Page): Promise<void> {
    const id = await this.browserWindowIdOf(page);
    if (id !== null) await this.#channel.run(FOCUS_WINDOW, id);
  }

  evalRenderer(windowId: string, code: string, arg: unknown): Promise<EvalOutcome> {
    const page = this.#windows.entries().find(([id]) => id === windowId)?.[1];
    if (!page) return Promise.resolve({ status: 'failed', message: `No open window ${windowId}.` });
    return evalInPage(page, code, arg);
  }
}

/**
 * Whether the main process can no longer answer. Asking Playwright for a closed app's process throws
 * (its server has let go of the app), and the event loop that asks must end then, not reject unheard.
 */
function goneOrUnreachable(channel: MainChannel): boolean {
  try {
    return channel.gone();
  } catch {
    return true;
  }
}
