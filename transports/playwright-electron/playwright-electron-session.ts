import type { ChildProcess } from 'node:child_process';
import type { ElectronApplication, Page } from 'playwright-core';
import type { Bounds } from '../contract/bounds.js';
import { SessionLifecycle } from '../contract/session-lifecycle.js';
import type { TracingControl } from '../contract/tracing.js';
import type { AppInfo, TransportSession } from '../contract/transport-contract.js';
import type { ExitInfo, WindowInfo } from '../contract/transport-events.js';
import type { WindowDriver } from '../contract/window-driver.js';
import { contextTracing } from '../page-engine/context/context-tracing.js';
import { PageContextControls } from '../page-engine/context/page-context-controls.js';
import { documentParsed } from '../page-engine/events/page-events.js';
import { describePage, WindowRegistry } from '../page-engine/page/window-registry.js';
import { appBelowIsolation } from '../process/isolation.js';
import { readLines } from '../process/output-lines.js';
import { OwnedGroup } from '../process/owned-group.js';
import { withDeadline } from '../protocol/deadline.js';
import { type LaunchedApp, launchedApp } from './launched-app.js';
import { openMainChannel } from './main-channel.js';
import { PlaywrightNativeSurface } from './playwright-electron-native-surface.js';

/** A window whose main-process handle does not answer within this is reported without bounds. */
const WINDOW_QUERY_TIMEOUT_MS = 2_000;
/** A new window is announced once its document is parsed (so it has its title), or after this at most. */
const WINDOW_ANNOUNCE_TIMEOUT_MS = 5_000;

/** One launched Electron app driven through Playwright's ElectronApplication. */
export class PlaywrightElectronSession implements TransportSession {
  readonly app: AppInfo;
  readonly network: PageContextControls['network'];
  readonly dialogs: PageContextControls['dialogs'];
  readonly storage: PageContextControls['storage'];
  readonly clock: PageContextControls['clock'];
  readonly tracing: TracingControl;
  /** Set once start() has installed (or found) the main-process agent. */
  native: PlaywrightNativeSurface | undefined;
  readonly #electron: ElectronApplication;
  readonly #launched: LaunchedApp;
  readonly #windows = new WindowRegistry();
  readonly #page: PageContextControls;
  /** Events from before the first listener (the app's start-up output, console, windows) wait for it. */
  readonly #life = new SessionLifecycle('dropped');
  readonly events = this.#life.events;
  readonly #exited: Promise<ExitInfo>;
  /** The app's process group: reaped when it exits, stopped and killed through one ladder. */
  readonly #group: OwnedGroup | undefined;
  /** The app's main process: the launched child, or the app below its isolation's unshares. */
  readonly #appPid: number | undefined;
  #exit: ExitInfo | undefined;

  private constructor(
    electron: ElectronApplication,
    launched: LaunchedApp & { process: ChildProcess },
    app: AppInfo,
  ) {
    this.#electron = electron;
    this.#launched = launched;
    this.app = app;
    this.#page = new PageContextControls({
      context: electron.context(),
      pages: () => this.#windows.entries().map(([, page]) => page),
      windowIdOf: (page) => this.#windows.idOf(page),
      emit: (event) => this.#life.emit(event),
    });
    ({ network: this.network, dialogs: this.dialogs, storage: this.storage, clock: this.clock } = this.#page);
    this.tracing = contextTracing(electron.context());
    const child = launched.process;
    for (const stream of ['stdout', 'stderr'] as const) {
      const source = child[stream];
      if (source) readLines(source, (text) => this.#life.emit({ type: 'output', stream, text }));
    }
    this.#exited = new Promise((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.#exit) return;
        this.#exit = { code, signal };
        this.#life.emit({ type: 'exited', exit: this.#exit });
        resolve(this.#exit);
      };
      if (child.exitCode !== null || child.signalCode !== null) finish(child.exitCode, child.signalCode);
      else child.once('exit', finish);
    });
    // An isolated app runs below its namespace's unshares, leading its own group (isolation.ts).
    this.#appPid = child.pid === undefined ? undefined : appBelowIsolation(child.pid);
    this.#group = this.#appPid === undefined ? undefined : new OwnedGroup(this.#appPid, this.#exited);
    electron.on('window', (page) => this.#track(page));
    for (const page of electron.windows()) this.#track(page);
  }

  /**
   * Reads the app and opens its main channel, both at once and both observed from the start: a channel that
   * failed while the read was still pending must not reject unheard. A channel opened for a failed read is
   * closed again.
   */
  static async start(
    electron: ElectronApplication,
    executablePath: string,
    launched: LaunchedApp = launchedApp(electron),
  ): Promise<PlaywrightElectronSession> {
    const child = launched.process;
    if (!child) throw new Error('Playwright let go of the app before its session started: it closed.');
    const [read, channel] = await Promise.allSettled([
      electron.evaluate(({ app }) => ({
        name: app.getName(),
        version: app.getVersion(),
        versions: { ...process.versions } as Record<string, string>,
      })),
      openMainChannel(electron),
    ]);
    if (read.status === 'rejected' || channel.status === 'rejected') {
      if (channel.status === 'fulfilled') await channel.value.close();
      throw read.status === 'rejected' ? read.reason : (channel as PromiseRejectedResult).reason;
    }
    const session = new PlaywrightElectronSession(
      electron,
      { ...launched, process: child },
      {
        name: read.value.name || null,
        version: read.value.version || null,
        executablePath,
        versions: read.value.versions,
        standIn: 'electron-standin' in read.value.versions,
      },
    );
    // The main process's console from its first line, in before the launch answers (main-console.ts).
    const consoleFed = channel.value.feedConsole((message) =>
      session.#life.emit({ type: 'console', message }),
    );
    // Both awaited whatever either does: a feed that fails after a failed attach is heard too. A failed
    // attach has closed the channel; the launch that called this ends the app and says how it ended, so
    // the app is not killed here first.
    const [attached, fed] = await Promise.allSettled([
      PlaywrightNativeSurface.attach(electron, session.#windows, channel.value),
      consoleFed,
    ]);
    if (attached.status === 'rejected') throw attached.reason;
    if (fed.status === 'rejected') throw fed.reason;
    session.native = attached.value;
    // Native events wait in the main process until streamed, and on the event port until subscribed.
    session.native.startEvents((event) => session.#life.emit({ type: 'native', event }));
    return session;
  }

  get pid(): number | undefined {
    return this.#appPid;
  }

  /** The app's last stderr lines, from its first: why an app that ended during start-up did. */
  stderrTail(): string {
    return this.#launched.stderrTail().join('\n');
  }

  async windows(): Promise<WindowInfo[]> {
    return Promise.all(this.#windows.entries().map(([id, page]) => describePage(id, page)));
  }

  knownWindows(): WindowInfo[] {
    return this.#windows.known();
  }

  describeWindow(windowId: string): Promise<WindowInfo | undefined> {
    return this.#windows.describe(windowId);
  }

  async bounds(windowId: string): Promise<Bounds | null> {
    const page = this.#windows.page(windowId);
    if (!page || !this.native) return null;
    return withinWindowQuery(this.native.boundsOf(page));
  }

  async focusedWindowId(): Promise<string | null> {
    return this.native ? withinWindowQuery(this.native.focusedWindowId()) : null;
  }

  async bringToFront(windowId: string): Promise<void> {
    const page = this.#windows.page(windowId);
    if (!page) return;
    await page.bringToFront();
    if (this.native) await withinWindowQuery(this.native.focus(page));
  }

  window(windowId: string): WindowDriver | undefined {
    return this.#page.driver(this.#windows.page(windowId));
  }

  async stop(graceMs: number): Promise<ExitInfo> {
    return this.#group?.stop(() => this.#electron.close(), graceMs) ?? this.#exited;
  }

  async forceKill(): Promise<ExitInfo> {
    return this.#group?.kill() ?? this.#exited;
  }

  dispose(): Promise<void> {
    return this.#life.dispose(async () => {
      await this.native?.close();
      if (!this.#exit) await (this.#group?.end() ?? this.#exited);
    });
  }

  #track(page: Page): void {
    const { id, isNew } = this.#windows.add(page);
    if (!isNew) return;
    this.#page.relayWindow(page, id, (closed) => this.#windows.remove(closed));
    // A window that closed (or an app that exited) before it could be described is announced as known.
    void documentParsed(page, WINDOW_ANNOUNCE_TIMEOUT_MS)
      .then(() => describePage(id, page))
      .catch(() => ({ id, title: '', url: page.url() }))
      .then((window) => this.#life.emit({ type: 'window-opened', window }));
  }
}

/** A main-process window query's answer, or null when it fails or does not answer in time. */
function withinWindowQuery<T>(query: Promise<T>): Promise<T | null> {
  return withDeadline(query, WINDOW_QUERY_TIMEOUT_MS, () => new Error('no answer in time')).catch(() => null);
}
