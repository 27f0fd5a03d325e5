import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { CapabilityMatrix } from '../../transports/contract/capabilities.js';
import type { TracingControl } from '../../transports/contract/tracing.js';
import type { AppInfo, TransportId, TransportSession } from '../../transports/contract/transport-contract.js';
import type { ExitInfo, TopicHandlers, WindowInfo } from '../../transports/contract/transport-events.js';
import type { WindowDriver } from '../../transports/contract/window-driver.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { OwnWindows } from '../governance/own-pages/own-page-fence.js';
import { SessionNative } from '../native/session-native.js';
import { SessionPageState } from '../page-state/session-page-state.js';
import { RefStore } from '../snapshot/ref-store.js';
import { ArtifactFolder } from './artifact-folder.js';
import { ConsoleLog } from './console-log.js';
import { sessionActions } from './next-actions.js';
import { RunLog } from './run-log.js';
import { runLogTopics } from './run-log-events.js';
import { selectWindow, type WindowSelector } from './select-window.js';
import type { SessionEvent, SessionEventType, SessionStatus } from './session-event.js';
import { noteFigures } from './session-figures.js';
import type { SessionFiles } from './session-files.js';
import { awaitWindowDriver } from './window-driver-wait.js';

/** What a session was launched from, as the launch named it: policy rules match on these. */
export interface SessionLaunch {
  readonly main: string | null;
  readonly executablePath: string | null;
}

/** A window as the gateway hands it out: its session travels with it so nested fields can reach it. */
export type SessionWindow = WindowInfo & { readonly sessionId: string };

/**
 * A session is the gateway's record of one app it drives. It outlives its process: once the app has
 * exited or crashed, status, exit and console stay readable for a post-mortem.
 */
export class Session {
  readonly id: string;
  readonly transportId: TransportId;
  readonly capabilities: CapabilityMatrix;
  readonly startedAt = new Date();
  /** Kept from the launch: the transport reports the executable it ran, but never the app's main. */
  readonly launch: SessionLaunch;
  readonly console: ConsoleLog;
  /** Menus, context menus, trays, notifications, native dialogs and eval in the main process. */
  readonly native: SessionNative;
  /** Network, dialogs, cookies and storage, clock. */
  readonly pageState: SessionPageState;
  readonly artifacts: ArtifactFolder;
  /** The unified run log in the artifact folder: output, console, dialogs and Stagegraph's own doings. */
  readonly runLog: RunLog;
  readonly uploadRoots: readonly string[];
  /** Refs and recent snapshots of every window of this session. */
  readonly snapshots: RefStore;
  readonly #hub: EventHub<SessionTopics>;
  readonly #transport: TransportSession;
  readonly #ownWindows: OwnWindows;
  #status: SessionStatus = 'STARTING';
  #exit: ExitInfo | null = null;
  #endedAt: Date | null = null;
  #stopRequested = false;
  #detachRequested = false;
  #activeWindowId: string | null = null;
  /** Ends the start-up wait: the first window opened, or the session ended before it did. */
  #startupOver: (() => void) | undefined;
  #firstWindowSeen = false;

  constructor(
    id: string,
    transportId: TransportId,
    capabilities: CapabilityMatrix,
    transport: TransportSession,
    hub: EventHub<SessionTopics>,
    files: SessionFiles,
    launch: SessionLaunch = { main: null, executablePath: null },
    /** How it came to be, for the run log: `launch`, `attach to …`, `inject into …`. */
    origin = 'launch',
  ) {
    this.id = id;
    this.launch = launch;
    this.artifacts = new ArtifactFolder(files.artifactsDir, id, () => this.runLog.written());
    this.runLog = new RunLog(this.artifacts.path);
    const app = transport.app;
    this.runLog.stagegraph(
      `session ${id} started by ${origin} on ${transportId}: ${app.name ?? 'unnamed app'}${transport.pid ? `, pid ${transport.pid}` : ''}`,
    );
    this.uploadRoots = files.uploadRoots;
    this.snapshots = new RefStore(id);
    this.transportId = transportId;
    this.capabilities = capabilities;
    this.console = new ConsoleLog(id);
    this.#transport = transport;
    this.#hub = hub;
    this.#ownWindows = new OwnWindows(files.ownPages);
    this.native = new SessionNative(this, transport, hub, () => this.assertLive());
    this.pageState = new SessionPageState(id, transport, hub, () => this.assertLive(), files.ownPages);
    transport.events.subscribe(
      this.#ownWindows.fenced([
        runLogTopics(this.runLog, () => this.#detachRequested),
        this.native.topics,
        this.pageState.topics,
        this.console.topics(hub),
        this.#topics,
      ]),
    );
    this.#publish('STARTED');
  }

  get status(): SessionStatus {
    return this.#status;
  }

  get exit(): ExitInfo | null {
    return this.#exit;
  }

  get endedAt(): Date | null {
    return this.#endedAt;
  }

  get pid(): number | null {
    return this.#transport.pid ?? null;
  }

  get app(): AppInfo {
    return this.#transport.app;
  }

  get isLive(): boolean {
    return this.#status === 'RUNNING' || this.#status === 'STARTING';
  }

  /** False for an app Stagegraph attached to without starting it: such a session detaches, never stops. */
  get ownsProcess(): boolean {
    return this.#transport.ownsProcess !== false;
  }

  /** Why the session can do less than its transport, in words (a desktop with no X input path). */
  get capabilityNotes(): readonly string[] {
    return this.#transport.capabilityNotes ?? [];
  }

  /** The CDP or inspector endpoint of an attached session. */
  get endpoint(): string | null {
    return this.#transport.endpoint ?? null;
  }

  /** Playwright tracing of the session's pages, where its transport has it (the trace plugin); else null. */
  get tracing(): TracingControl | null {
    return this.#transport.tracing ?? null;
  }

  /** Makes a window active without bringing it to the front (the renderer an attach picked). */
  preferWindow(windowId: string): void {
    this.#activeWindowId = windowId;
  }

  async windows(): Promise<SessionWindow[]> {
    if (!this.isLive) return [];
    const windows = this.#ownWindows.noted(await this.#transport.windows());
    return windows.map((window) => ({ ...window, sessionId: this.id }));
  }

  async activeWindow(): Promise<SessionWindow | null> {
    const windows = await this.windows();
    return windows.find((window) => window.id === this.#activeWindowId) ?? windows[0] ?? null;
  }

  bounds(windowId: string) {
    return this.#transport.bounds(windowId);
  }

  async isFocused(windowId: string): Promise<boolean> {
    return (await this.#transport.focusedWindowId()) === windowId;
  }

  /** Makes the selected window the active one and brings it to the front. */
  async switchWindow(selector: WindowSelector): Promise<SessionWindow> {
    this.assertLive();
    const window = selectWindow(this.id, await this.windows(), selector);
    this.#activeWindowId = window.id;
    await this.#transport.bringToFront(window.id);
    return window;
  }

  /** Whether the window is still open, without asking the app. */
  hasWindow(windowId: string): boolean {
    return this.isLive && this.#transport.window(windowId) !== undefined;
  }

  /**
   * The window `windowId`, or the active window when none is named, as listed: its title asked of its
   * renderer now (only that window's).
   */
  async findWindow(windowId?: string | null): Promise<SessionWindow> {
    this.assertLive();
    const picked = this.#pick(await this.#knownWindows(), windowId);
    const current = await this.#transport.describeWindow?.(picked.id);
    if (current) return { ...current, sessionId: this.id };
    // Closed since it was picked, or a transport whose listing is already live.
    return this.#transport.describeWindow ? this.#pick(await this.#knownWindows(), windowId) : picked;
  }

  /**
   * A window as it is now, title included, where `window` was picked without asking its renderer (the
   * window an operation acts in): what the policy is shown. Closed meanwhile: the window as it was.
   */
  async currentWindow(window: SessionWindow): Promise<SessionWindow> {
    const current = await this.#transport.describeWindow?.(window.id);
    return current ? { ...current, sessionId: this.id } : window;
  }

  /** The open windows without asking any renderer where the transport can (titles as last read). */
  async #knownWindows(): Promise<SessionWindow[]> {
    const known = this.#ownWindows.noted(this.#transport.knownWindows?.());
    if (!known) return this.windows();
    return this.isLive ? known.map((window) => ({ ...window, sessionId: this.id })) : [];
  }

  #pick(windows: readonly SessionWindow[], windowId?: string | null): SessionWindow {
    const window = windowId
      ? windows.find((candidate) => candidate.id === windowId)
      : (windows.find((candidate) => candidate.id === this.#activeWindowId) ?? windows[0]);
    if (window) return window;
    throw new StagegraphError(
      'WINDOW_NOT_FOUND',
      windowId
        ? `Session ${this.id} has no open window ${windowId}.`
        : `Session ${this.id} has no open window.`,
      {
        nextActions: [sessionActions.windows(this)],
        details: { openWindows: windows.map((open) => open.id) },
      },
    );
  }

  /**
   * The window `windowId`, or the active window when none is named, with the driver of its document. Picked
   * without a round trip to any renderer: its title is the last one read (currentWindow() asks). Every read
   * of and action on a document takes its driver here: one of the gateway's own pages is refused here.
   */
  async window(windowId?: string | null): Promise<{ window: SessionWindow; driver: WindowDriver }> {
    this.assertLive();
    const window = this.#pick(await this.#knownWindows(), windowId);
    this.#ownWindows.refuse(this.id, window);
    const ready = this.#transport.window(window.id);
    if (ready) return { window, driver: ready };
    if (!this.capabilities.SNAPSHOT) {
      // An injected session without its upgrade lists windows from the main process but drives none.
      throw new StagegraphError(
        'CAPABILITY_UNSUPPORTED',
        `Session ${this.id} reaches the main process of window ${window.id}, not its renderer.`,
        { nextActions: [sessionActions.transportsWith('SNAPSHOT')] },
      );
    }
    const driver = await awaitWindowDriver(
      () => this.#transport.window(window.id),
      () => this.isLive,
    );
    if (driver) return { window, driver };
    throw new StagegraphError(
      'WINDOW_NOT_FOUND',
      `Window ${window.id} of session ${this.id} has no renderer to drive yet.`,
      {
        nextActions: [sessionActions.windows(this)],
      },
    );
  }

  /**
   * STARTING lasts until the app's first window has opened and parsed its document (or `timeoutMs`
   * passes: a windowless app is still a running app), then the session is RUNNING. A session that ends
   * first (its app exited, a server shutdown stopped it) ends the wait at once, in its ended status.
   */
  async becomeRunning(timeoutMs: number): Promise<void> {
    if (!this.#firstWindowSeen && this.isLive) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.#startupOver = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#startupOver = undefined;
    }
    if (this.#status === 'STARTING') this.#status = 'RUNNING';
  }

  assertLive(): void {
    if (this.isLive) return;
    throw new StagegraphError(
      'SESSION_NOT_RUNNING',
      `Session ${this.id} is ${this.#status}; it can no longer act.`,
      {
        nextActions: [sessionActions.postMortem(this)],
      },
    );
  }

  async stop(graceMs: number): Promise<void> {
    if (!this.isLive) return;
    this.#assertOwned('stop');
    this.#stopRequested = true;
    await this.#transport.stop(graceMs);
    await this.#transport.dispose();
  }

  async forceKill(): Promise<void> {
    if (!this.isLive) return;
    this.#assertOwned('forceKill');
    this.#stopRequested = true;
    await this.#transport.forceKill();
    await this.#transport.dispose();
  }

  /** Lets go of an app Stagegraph attached to; the app keeps running. */
  async detach(): Promise<void> {
    this.assertLive();
    if (!this.#transport.detach) {
      throw new StagegraphError('BAD_INPUT', `Session ${this.id} started its app; stop it instead.`, {
        nextActions: [sessionActions.end(this)],
      });
    }
    this.#detachRequested = true;
    await this.#transport.detach();
    this.#end('DETACHED');
    await this.#transport.dispose();
  }

  /** Server shutdown: what Stagegraph started is stopped, what it only attached to is let go. */
  async end(graceMs: number): Promise<void> {
    if (!this.isLive) return;
    await (this.ownsProcess ? this.stop(graceMs) : this.detach()).catch(() => this.#transport.dispose());
  }

  #assertOwned(operation: string): void {
    if (this.ownsProcess) return;
    throw new StagegraphError(
      'NOT_OWNED',
      `Session ${this.id} is attached to an app Stagegraph did not start; ${operation} would end someone else's process.`,
      { nextActions: [sessionActions.end(this)] },
    );
  }

  /** The transport topics of the session's own life: its windows and its end. */
  readonly #topics: TopicHandlers = {
    'window-opened': (event) => {
      this.#firstWindowSeen = true;
      this.#startupOver?.();
      this.#publish('WINDOW_OPENED', event.window);
    },
    'window-closed': (event) => {
      this.snapshots.forgetWindow(event.window.id);
      this.#publish('WINDOW_CLOSED', event.window);
    },
    'renderer-crashed': (event) => this.#publish('RENDERER_CRASHED', event.window),
    exited: (event) => this.#onExit(event.exit),
    disconnected: () => {
      if (!this.isLive || this.#detachRequested) return;
      this.#end('DISCONNECTED');
      void this.#transport.dispose();
    },
  };

  #end(status: 'DETACHED' | 'DISCONNECTED'): void {
    noteFigures(this);
    this.runLog.stagegraph(`session ${status.toLowerCase()}`);
    this.#endedAt = new Date();
    this.#status = status;
    this.#publish(status);
    this.#startupOver?.();
  }

  #onExit(exit: ExitInfo): void {
    this.#exit = exit;
    this.#endedAt = new Date();
    // A signal we did not send is a crash (kill -9, OOM killer, segfault); a code is the app's own exit.
    const ended = this.#stopRequested ? 'STOPPED' : exit.signal ? 'CRASHED' : 'EXITED';
    noteFigures(this);
    this.#status = ended;
    this.#publish(ended);
    this.#startupOver?.();
    void this.#transport.dispose();
  }

  #publish(type: SessionEventType, window: WindowInfo | null = null): void {
    const event: SessionEvent = {
      type,
      sessionId: this.id,
      time: new Date(),
      status: this.#status,
      window,
      exit: this.#exit,
    };
    this.#hub.publish('sessionEvent', event);
  }
}
