import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Bounds } from '../contract/bounds.js';
import { type Capability, type CapabilityMatrix, capabilityMatrix } from '../contract/capabilities.js';
import { SessionLifecycle } from '../contract/session-lifecycle.js';
import type { AppInfo, TransportSession } from '../contract/transport-contract.js';
import type { ExitInfo, WindowInfo } from '../contract/transport-events.js';
import type { WindowDriver } from '../contract/window-driver.js';
import { PageContextControls } from '../page-engine/context/page-context-controls.js';
import { AgentChannel } from './agent-channel.js';
import { withAgentLink } from './agent-link.js';
import { injectAgentSource, injectCallSource, injectReleaseSource } from './agent-sources.js';
import { CdpRelay } from './cdp-relay.js';
import type { AgentMessage, MainWindow } from './inject-agent.js';
import type { InjectDeadline } from './inject-deadline.js';
import { InjectedNativeSurface, type WindowLookup } from './inspector-native-surface.js';
import type { MainProcess } from './main-process.js';

/** What any injected main process gives: its own code, its console. */
const MAIN_PROCESS: readonly Capability[] = ['INJECT', 'MAIN_EVAL', 'CONSOLE'];
/** What an Electron main process adds: its windows, menus and hooks, renderer eval by executeJavaScript. */
const ELECTRON_MAIN: readonly Capability[] = ['WINDOWS', 'NATIVE_UI', 'RENDERER_EVAL'];
/** What driving the renderers through webContents.debugger adds, each seam tested end to end. */
export const UPGRADED: readonly Capability[] = [
  'SNAPSHOT',
  'INTERACTION',
  'SCREENSHOT',
  'INTERCEPT',
  'STORAGE',
  'DIALOGS',
];

const APP_INFO = `(electron) => ({
  name: electron ? electron.app.getName() : null,
  version: electron ? electron.app.getVersion() : null,
  versions: { ...process.versions },
  executablePath: process.execPath,
})`;

interface WindowEntry {
  readonly id: string;
  readonly browserWindowId: number;
  readonly contentsId: number;
}

/**
 * A running Node or Electron main process reached through its inspector. Without the upgrade: main eval,
 * console, windows, menus and renderer eval. With it, each window's `webContents.debugger` carries a CDP
 * session that Playwright drives through a local relay, so PageDriver and the capture seams run unchanged
 * on an app started without any debugging flag. The capability matrix says which of the two was achieved.
 */
export class InspectorSession implements TransportSession {
  readonly pid: number;
  readonly app: AppInfo;
  readonly ownsProcess = false;
  readonly endpoint: string;
  capabilities: CapabilityMatrix = capabilityMatrix(MAIN_PROCESS);
  native: InjectedNativeSurface | undefined;
  /** The renderer controls: set once the debugger upgrade connected Playwright to the windows. */
  network: PageContextControls['network'] | undefined;
  dialogs: PageContextControls['dialogs'] | undefined;
  storage: PageContextControls['storage'] | undefined;
  clock: PageContextControls['clock'] | undefined;
  /** Why the debugger upgrade did not happen, when it was asked for and failed. */
  upgradeError: string | null = null;
  readonly #main: MainProcess;
  readonly #closeInspector: boolean;
  readonly #life = new SessionLifecycle('delivered');
  readonly events = this.#life.events;
  readonly #windows = new Map<number, WindowEntry>();
  readonly #pages = new Map<number, Page>();
  #page: PageContextControls | undefined;
  #nextWindow = 1;
  #relay: CdpRelay | undefined;
  #channel: AgentChannel | undefined;
  #browser: Browser | undefined;

  private constructor(main: MainProcess, app: AppInfo, closeInspector: boolean) {
    this.#main = main;
    this.pid = main.pid;
    this.endpoint = main.endpoint;
    this.app = app;
    this.#closeInspector = closeInspector;
  }

  static async open(
    main: MainProcess,
    options: { upgrade: boolean; deadline: InjectDeadline; openedHere: boolean },
  ) {
    const { deadline } = options;
    const read = await deadline
      .step(
        'reading the app',
        main.run<{
          name: string | null;
          version: string | null;
          versions: Record<string, string>;
          executablePath: string;
        }>(APP_INFO),
      )
      .catch(async (error: unknown) => {
        const release = main.release(options.openedHere);
        if (!deadline.expired || deadline.abandoned) await release;
        throw error;
      });
    const session = new InspectorSession(
      main,
      { ...read, standIn: 'electron-standin' in read.versions },
      options.openedHere,
    );
    try {
      await session.#start(options.upgrade, deadline);
    } catch (error) {
      // An inject that ran out of time answers now, letting go behind it; a shutdown waits for the
      // app to be let go (each step bounded), as the process is about to end.
      const release = session.#release();
      if (!deadline.expired || deadline.abandoned) await release;
      throw error;
    }
    return session;
  }

  async #start(upgrade: boolean, deadline: InjectDeadline): Promise<void> {
    this.#main.onClose((reason) => this.#lost(reason));
    await deadline.step(
      'enabling its console',
      this.#main.captureConsole((message) => this.#life.emit({ type: 'console', message })),
    );
    if (!this.#main.electron) return;
    const channel = await AgentChannel.open();
    this.#channel = channel;
    channel.onMessage((message) => this.#onAgentMessage(message as AgentMessage));
    await deadline.step(
      'installing the inject agent',
      this.#main.run(injectAgentSource(), { port: channel.port, token: channel.token }),
    );
    // Commands sent before the agent holds its end would be lost, and their answers awaited forever.
    await deadline
      .step('waiting for the inject agent to connect back', channel.connected)
      .catch((error: unknown) => withAgentLink(error, this.#main));
    for (const window of await deadline.step('listing its windows', this.#mainWindows())) {
      this.#life.emit({
        type: 'window-opened',
        window: { id: this.#entry(window).id, title: window.title, url: window.url },
      });
    }
    this.native = await deadline.step(
      'installing the native hooks',
      InjectedNativeSurface.install(this.#main, this.#lookup),
    );
    const granted = [...MAIN_PROCESS, ...ELECTRON_MAIN];
    if (upgrade) {
      try {
        await this.#upgrade(deadline);
        granted.push(...UPGRADED);
      } catch (error) {
        if (error instanceof StagegraphError && error.code === 'INJECT_TIMEOUT') throw error;
        this.upgradeError = error instanceof Error ? error.message : String(error);
      }
    }
    this.capabilities = capabilityMatrix(granted);
    this.native.startEvents((event) => this.#life.emit({ type: 'native', event }));
  }

  /** Attaches every window's debugger, and connects Playwright to them through the relay. */
  async #upgrade(deadline: InjectDeadline): Promise<void> {
    const channel = this.#channel;
    if (!channel) throw new Error('the inject agent has no channel');
    const relay = await deadline.step(
      'starting the window relay',
      CdpRelay.start((command) => channel.send(command), `Chrome/${this.app.versions.chrome ?? '0.0.0.0'}`),
      (late) => late.close(),
    );
    this.#relay = relay;
    const attached = await deadline.step(
      "attaching the windows' debuggers",
      this.#main.run<{ contentsId: number; error: string | null }[]>(injectCallSource('agent.upgrade()')),
    );
    const failed = attached.filter((window) => window.error !== null);
    if (failed.length > 0)
      throw new Error(
        `webContents.debugger.attach failed: ${failed.map((window) => window.error).join('; ')}`,
      );
    await deadline.step(
      'discovering the windows',
      Promise.all(attached.map((window) => relay.addWindow(window.contentsId))),
    );
    const browser = await deadline.step(
      'connecting Playwright to the window relay',
      chromium.connectOverCDP(relay.wsEndpoint, { timeout: Math.max(1, deadline.remainingMs()) }),
      (late) => late.close(),
    );
    this.#browser = browser;
    const context = browser.contexts()[0] as BrowserContext;
    // Before any page is tracked: a tracked page's dialogs go to this policy from its first one.
    const controls = new PageContextControls({
      context,
      pages: () => [...this.#pages.values()],
      windowIdOf: (page) => this.#windowOfPage(page),
      emit: (event) => this.#life.emit(event),
      rawSessionsDeaf: true,
    });
    this.#page = controls;
    ({ network: this.network, dialogs: this.dialogs, storage: this.storage, clock: this.clock } = controls);
    context.on('page', (page) => void this.#track(page, controls));
    await deadline.step(
      'tying the pages to their windows',
      Promise.all(context.pages().map((page) => this.#track(page, controls))),
    );
  }

  async windows(): Promise<WindowInfo[]> {
    if (!this.#main.electron) return [];
    return (await this.#mainWindows()).map((window) => ({
      id: this.#entry(window).id,
      title: window.title,
      url: window.url,
    }));
  }

  async bounds(windowId: string): Promise<Bounds | null> {
    return (await this.#mainWindow(windowId))?.bounds ?? null;
  }

  async focusedWindowId(): Promise<string | null> {
    const focused = (await this.#mainWindows()).find((window) => window.focused);
    return focused ? this.#entry(focused).id : null;
  }

  async bringToFront(windowId: string): Promise<void> {
    const entry = this.#byId(windowId);
    if (!entry) return;
    await this.#main.run(injectCallSource('agent.focus(arg)'), entry.browserWindowId);
    await this.#pages.get(entry.contentsId)?.bringToFront();
  }

  window(windowId: string): WindowDriver | undefined {
    const entry = this.#byId(windowId);
    return this.#page?.driver(entry && this.#pages.get(entry.contentsId));
  }

  stop(): Promise<ExitInfo> {
    return Promise.reject(notOwned('stop'));
  }

  forceKill(): Promise<ExitInfo> {
    return Promise.reject(notOwned('forceKill'));
  }

  async detach(): Promise<void> {
    this.#life.end();
    await this.#release();
  }

  dispose(): Promise<void> {
    return this.#life.dispose(() => this.#release());
  }

  /**
   * Lets go in order, each step done before the next: Playwright off the relay, the relay's connections
   * closed (commands still on their way answered with an error), then in the app the agent waits for its
   * debuggers' commands in flight, detaches every debugger and drops its channel, and last this
   * inspector session ends and — only after that — the inspector Stagegraph opened is closed.
   */
  async #release(): Promise<void> {
    this.native?.close();
    await this.#browser?.close().catch(() => undefined);
    await this.#relay?.close();
    if (!this.#main.closed && this.#channel)
      await this.#main.run(injectReleaseSource()).catch(() => undefined);
    await this.#channel?.close();
    await this.#main.release(this.#closeInspector);
  }

  #lost(reason: string): void {
    this.#life.lost(`the inspector connection closed (${reason})`);
  }

  #onAgentMessage(message: AgentMessage): void {
    if (message.kind === 'window-created') {
      const { window } = message;
      this.#life.emit({
        type: 'window-opened',
        window: { id: this.#entry(window).id, title: window.title, url: window.url },
      });
      if (this.#relay && message.attachError === null)
        void this.#relay.addWindow(window.contentsId).catch(() => undefined);
    } else if (message.kind === 'window-closed') {
      const entry = this.#windows.get(message.browserWindowId);
      if (!entry) return;
      this.#windows.delete(message.browserWindowId);
      this.#pages.delete(entry.contentsId);
      this.#life.emit({ type: 'window-closed', window: { id: entry.id, title: '', url: '' } });
    } else {
      this.#relay?.receive(message);
    }
  }

  /** A page Playwright announced: tied to its window through the target id the relay knows. */
  async #track(page: Page, controls: PageContextControls): Promise<void> {
    // A session of its own, for one command: the relay answers commands on any session of the window.
    const session = await page
      .context()
      .newCDPSession(page)
      .catch(() => undefined);
    const targetInfo = await session?.send('Target.getTargetInfo').catch(() => undefined);
    await session?.detach().catch(() => undefined);
    const contentsId = targetInfo && this.#relay?.contentsIdOfTarget(targetInfo.targetInfo.targetId);
    const entry = [...this.#windows.values()].find((candidate) => candidate.contentsId === contentsId);
    if (contentsId === undefined || !entry || this.#pages.get(contentsId) === page) return;
    this.#pages.set(contentsId, page);
    // The window's closing is the main process's to tell (agent 'window-closed'); the page only goes.
    controls.relayRenderer(page, entry.id);
    page.once('close', () => this.#pages.delete(contentsId));
  }

  #windowOfPage(page: Page): string | undefined {
    for (const [contentsId, candidate] of this.#pages) {
      if (candidate === page)
        return [...this.#windows.values()].find((entry) => entry.contentsId === contentsId)?.id;
    }
    return undefined;
  }

  #mainWindows(): Promise<MainWindow[]> {
    return this.#main.run<MainWindow[]>(injectCallSource('agent.windows()'));
  }

  async #mainWindow(windowId: string): Promise<MainWindow | undefined> {
    const entry = this.#byId(windowId);
    return (
      entry && (await this.#mainWindows()).find((window) => window.browserWindowId === entry.browserWindowId)
    );
  }

  /** The session's id of a main-process window, given once and never reused. */
  #entry(window: { browserWindowId: number; contentsId: number }): WindowEntry {
    let entry = this.#windows.get(window.browserWindowId);
    if (!entry) {
      entry = {
        id: `w${this.#nextWindow++}`,
        browserWindowId: window.browserWindowId,
        contentsId: window.contentsId,
      };
      this.#windows.set(window.browserWindowId, entry);
    }
    return entry;
  }

  #byId(windowId: string): WindowEntry | undefined {
    return [...this.#windows.values()].find((entry) => entry.id === windowId);
  }

  readonly #lookup: WindowLookup = {
    browserWindowIdOf: (windowId) => this.#byId(windowId)?.browserWindowId,
    contentsIdOf: (windowId) => this.#byId(windowId)?.contentsId,
    windowIdOfBrowserWindow: (browserWindowId) => this.#windows.get(browserWindowId)?.id ?? null,
  };
}

function notOwned(operation: string): StagegraphError {
  return new StagegraphError('NOT_OWNED', `${operation} would end an app Stagegraph did not start.`);
}
