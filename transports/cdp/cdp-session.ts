import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Bounds } from '../contract/bounds.js';
import type { EvalOutcome } from '../contract/native.js';
import { SessionLifecycle } from '../contract/session-lifecycle.js';
import type { AppInfo, RendererFilter, TransportSession } from '../contract/transport-contract.js';
import type { ExitInfo, WindowInfo } from '../contract/transport-events.js';
import type { WindowDriver } from '../contract/window-driver.js';
import { PageContextControls } from '../page-engine/context/page-context-controls.js';
import { documentParsed } from '../page-engine/events/page-events.js';
import { pageCdpSession } from '../page-engine/page/page-cdp.js';
import { pageTitle } from '../page-engine/page/page-title.js';
import { evalInPage } from '../page-engine/renderer/renderer-eval.js';
import type { OwnedProcess } from '../process/owned-process.js';
import { CdpConnection } from '../protocol/cdp-connection.js';
import type { BrowserEndpoint } from './endpoint.js';
import { PageWindows } from './page-windows.js';
import { pickRenderer } from './renderer-pick.js';

/** A new window is announced once its document is parsed (so it has its title), or after this at most. */
const WINDOW_ANNOUNCE_TIMEOUT_MS = 5_000;
/** A page asked whether it has focus answers within this, or counts as unfocused. */
const FOCUS_QUERY_TIMEOUT_MS = 1_000;
/**
 * When the connection to a process we own drops, its exit usually follows within milliseconds: wait this
 * long for it, so the session ends EXITED or CRASHED (what happened) rather than DISCONNECTED.
 */
const EXIT_AFTER_DISCONNECT_MS = 1_000;

export interface CdpSessionSetup {
  readonly endpoint: BrowserEndpoint;
  readonly app: AppInfo;
  readonly pid: number | undefined;
  readonly filter: RendererFilter;
  readonly timeoutMs: number;
  /** Set by launchCommand: the process tree this session started and must reap. */
  readonly owned?: OwnedProcess;
}

/**
 * An app or browser reached over the Chrome DevTools Protocol. The hybrid is deliberate: chrome-remote-
 * interface speaks to the browser target for discovery, live target tracking and liveness; Playwright's
 * `connectOverCDP` drives the pages, so PageDriver and the capture seams run unchanged — one engine.
 */
export class CdpSession implements TransportSession {
  readonly app: AppInfo;
  readonly pid: number | undefined;
  readonly ownsProcess: boolean;
  readonly endpoint: string;
  readonly network: PageContextControls['network'];
  readonly dialogs: PageContextControls['dialogs'];
  readonly storage: PageContextControls['storage'];
  readonly clock: PageContextControls['clock'];
  preferredWindowId: string | undefined;
  readonly #connection: CdpConnection;
  readonly #browser: Browser;
  readonly #context: BrowserContext;
  readonly #windows: PageWindows;
  readonly #owned: OwnedProcess | undefined;
  readonly #page: PageContextControls;
  readonly #life = new SessionLifecycle('delivered');
  readonly events = this.#life.events;

  private constructor(setup: CdpSessionSetup, connection: CdpConnection, browser: Browser) {
    this.app = setup.app;
    this.pid = setup.pid;
    this.#owned = setup.owned;
    this.ownsProcess = setup.owned !== undefined;
    this.endpoint = setup.endpoint.webSocketDebuggerUrl;
    this.#connection = connection;
    this.#browser = browser;
    // connectOverCDP gives the browser's default context first: where an app's windows live.
    const context = browser.contexts()[0];
    if (!context) throw new StagegraphError('ATTACH_FAILED', 'The browser has no default context to drive.');
    this.#context = context;
    this.#windows = new PageWindows(connection);
    this.#page = new PageContextControls({
      context,
      pages: () => this.#windows.pages(),
      windowIdOf: (page) => this.#windows.registry.idOf(page),
      emit: (event) => this.#life.emit(event),
    });
    ({ network: this.network, dialogs: this.dialogs, storage: this.storage, clock: this.clock } = this.#page);
  }

  /**
   * Connects both clients at once, takes the open windows and picks the renderer; everything is released
   * on failure. Nothing here grows with the pages' size: Playwright is told to leave the app's fonts and
   * media settings alone (`noDefaults`), which it would otherwise override on every page (a full style
   * recalculation and relayout of each document, seconds on a big page, and again when the session lets
   * go); each window costs one title read.
   */
  static async open(setup: CdpSessionSetup): Promise<CdpSession> {
    const url = setup.endpoint.webSocketDebuggerUrl;
    const [connected, driven] = await Promise.allSettled([
      CdpConnection.open(url, setup.timeoutMs),
      chromium.connectOverCDP(url, { timeout: setup.timeoutMs, noDefaults: true }),
    ]);
    if (connected.status === 'rejected' || driven.status === 'rejected') {
      if (connected.status === 'fulfilled') await connected.value.close();
      if (driven.status === 'fulfilled') await driven.value.close().catch(() => undefined);
      if (connected.status === 'rejected') throw connected.reason;
      const error = (driven as PromiseRejectedResult).reason;
      throw new StagegraphError('ATTACH_FAILED', `Playwright could not drive ${url}: ${firstLine(error)}`, {
        cause: error,
      });
    }
    const session = new CdpSession(setup, connected.value, driven.value);
    try {
      await session.#start(setup.filter);
    } catch (error) {
      await session.#release();
      throw error;
    }
    return session;
  }

  async #start(filter: RendererFilter): Promise<void> {
    this.#connection.onClose((reason) => void this.#lost(reason));
    this.#browser.on('disconnected', () => void this.#lost('the browser closed the DevTools connection'));
    this.#owned?.exited.then((exit) => this.#life.emit({ type: 'exited', exit }));
    this.#owned?.onOutput((stream, text) => this.#life.emit({ type: 'output', stream, text }));
    this.#context.on('page', (page) => void this.#track(page, false));
    const [, ...opened] = await Promise.all([
      this.#windows.follow(),
      ...this.#context.pages().map((page) => this.#track(page, true)),
    ]);
    const windows = opened.filter((window): window is WindowInfo => window !== undefined);
    const picked = pickRenderer(windows, filter);
    const filtered = filter.titleContains !== undefined || filter.urlIncludes !== undefined;
    if (filtered && !picked) {
      throw new StagegraphError('WINDOW_NOT_FOUND', `No page matches ${JSON.stringify(filter)}.`, {
        details: { openWindows: windows },
      });
    }
    this.preferredWindowId = picked?.id;
  }

  windows(): Promise<WindowInfo[]> {
    return this.#windows.describe();
  }

  async bounds(windowId: string): Promise<Bounds | null> {
    const targetId = await this.#windows.targetIdOf(windowId);
    if (!targetId || this.#life.ended) return null;
    try {
      const { bounds } = await this.#connection.send<{
        bounds: { left?: number; top?: number; width?: number; height?: number };
      }>('Browser.getWindowForTarget', { targetId });
      return {
        x: bounds.left ?? 0,
        y: bounds.top ?? 0,
        width: bounds.width ?? 0,
        height: bounds.height ?? 0,
      };
    } catch {
      return null;
    }
  }

  async focusedWindowId(): Promise<string | null> {
    for (const [id, page] of this.#windows.registry.entries()) {
      const focused = await Promise.race([
        page.evaluate(() => document.hasFocus()).catch(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), FOCUS_QUERY_TIMEOUT_MS)),
      ]);
      if (focused) return id;
    }
    return null;
  }

  async bringToFront(windowId: string): Promise<void> {
    await this.#windows.registry.page(windowId)?.bringToFront();
  }

  window(windowId: string): WindowDriver | undefined {
    return this.#page.driver(this.#windows.registry.page(windowId));
  }

  async evalRenderer(windowId: string, code: string, arg: unknown): Promise<EvalOutcome> {
    const page = this.#windows.registry.page(windowId);
    if (!page) return { status: 'failed', message: `No open window ${windowId}.` };
    return evalInPage(page, code, arg);
  }

  /** A started command's last stderr lines (none for an app attached to): why one that ended early did. */
  stderrTail(): string {
    return this.#owned?.stderrTail() ?? '';
  }

  async stop(graceMs: number): Promise<ExitInfo> {
    return this.#ownedProcess('stop').stop(graceMs);
  }

  async forceKill(): Promise<ExitInfo> {
    return this.#ownedProcess('forceKill').kill();
  }

  async detach(): Promise<void> {
    if (this.#owned) {
      throw new StagegraphError(
        'BAD_INPUT',
        'This session started its app: detaching would leave a process nobody reaps. Stop it instead.',
      );
    }
    this.#life.end();
    await this.#release();
  }

  /** An owned app's end is awaited while events still flow: its exit says how the session ended. */
  dispose(): Promise<void> {
    return this.#life.dispose(async () => {
      await this.#release();
      if (this.#owned && !this.#owned.hasExited()) await this.#owned.end();
    });
  }

  /** Lets go of both clients: Playwright's close() of a CDP-connected browser disconnects, never quits it. */
  async #release(): Promise<void> {
    await Promise.all([this.#browser.close().catch(() => undefined), this.#connection.close()]);
  }

  #ownedProcess(operation: string): OwnedProcess {
    if (this.#owned) return this.#owned;
    throw new StagegraphError('NOT_OWNED', `${operation} would end an app Stagegraph did not start.`);
  }

  async #lost(reason: string): Promise<void> {
    if (!this.#life.end()) return;
    if (this.#owned) {
      // A stop closes the app's DevTools port long before a slow launcher exits: its ladder, not this
      // disconnect, ends the session (with the exit it observes), or the group would be killed mid-grace.
      if (this.#owned.stopRequested) return;
      const exited = await Promise.race([
        this.#owned.exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), EXIT_AFTER_DISCONNECT_MS)),
      ]);
      if (exited || this.#owned.stopRequested) return;
    }
    this.#life.emit({ type: 'disconnected', reason });
  }

  /** Takes a page as a window (once) and announces it; what it announced, or undefined. */
  async #track(page: Page, initial: boolean): Promise<WindowInfo | undefined> {
    const added = this.#windows.add(page);
    if (!added?.isNew) return undefined;
    const { id } = added;
    this.#page.relayWindow(page, id, (closed) => this.#windows.remove(closed));
    emulateFocus(page);
    if (!initial) await documentParsed(page, WINDOW_ANNOUNCE_TIMEOUT_MS);
    if (page.isClosed()) return undefined;
    // Asked of the page: the browser's Target event with the new title may still be on its way.
    const window = { id, title: await pageTitle(page), url: page.url() };
    this.#life.emit({ type: 'window-opened', window });
    return window;
  }
}

/**
 * Playwright's focus emulation (a page answers as focused whatever the window manager says), which
 * `noDefaults` also leaves off: kept, over the page's shared raw session, so pages behave as they did and
 * as under the launch transport. It costs the page nothing; nobody waits for the answer.
 */
function emulateFocus(page: Page): void {
  void pageCdpSession(page).then((session) =>
    session?.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined),
  );
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
