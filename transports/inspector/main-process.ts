import type { ConsoleMessage } from '../contract/transport-events.js';
import {
  fromAppLoop,
  MainInspector,
  type RemoteObject,
  type RunOptions,
  STORE,
} from '../main-agent/main-inspector.js';
import { loopbackPortsOf } from '../process/proc-sockets.js';
import { delay } from '../process/process-group.js';
import { CdpConnection } from '../protocol/cdp-connection.js';
import { withDeadline } from '../protocol/deadline.js';
import { AgentChannel } from './agent-channel.js';
import type { InjectDeadline } from './inject-deadline.js';
import { injectFailed } from './inject-failed.js';

/** Each step of letting go waits at most this long: a stopped or hung app cannot hold a detach. */
const RELEASE_STEP_MS = 5_000;
/** How often the app's ports are read while its inspector closes. */
const PORT_POLL_MS = 20;

/**
 * A running Node or Electron main process, through its inspector: the pid checked, shipped sources run with
 * the app's own electron module (MainInspector), its console, and letting go of an inspector inject opened.
 */
export class MainProcess {
  readonly pid: number;
  /** Whether `require('electron')` gave the Electron API (false for plain Node). */
  readonly electron: boolean;
  readonly endpoint: string;
  readonly #connection: CdpConnection;
  readonly #main: MainInspector;

  private constructor(connection: CdpConnection, main: MainInspector, pid: number, electron: boolean) {
    this.#connection = connection;
    this.#main = main;
    this.pid = pid;
    this.electron = electron;
    this.endpoint = connection.url;
  }

  /** Connects and checks the inspector belongs to `pid`: a port can be shared, forwarded or reused. */
  static async connect(webSocketDebuggerUrl: string, deadline: InjectDeadline): Promise<MainProcess> {
    const { pid } = deadline;
    const connection = await deadline.step(
      'connecting to its inspector',
      CdpConnection.open(webSocketDebuggerUrl, deadline.remainingMs()),
      (late) => late.close(),
    );
    try {
      const installed = await deadline.step(
        'checking whose inspector answered',
        MainInspector.install(connection),
      );
      if (installed.pid !== pid) {
        throw injectFailed(pid, `the inspector that answered belongs to pid ${installed.pid}`);
      }
      return new MainProcess(connection, installed.main, pid, installed.electron);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  get closed(): boolean {
    return this.#connection.closed;
  }

  /** See MainInspector.run. */
  run<T>(source: string, arg?: unknown, options?: RunOptions): Promise<T> {
    return this.#main.run(source, arg, options);
  }

  /** See MainInspector.peek. */
  peek<T>(expression: string): Promise<T> {
    return this.#main.peek(expression);
  }

  /** The main process's console from now on (the inspector replays older messages; those are dropped). */
  async captureConsole(listener: (message: ConsoleMessage) => void): Promise<void> {
    const since = Date.now();
    this.#connection.on('Runtime.consoleAPICalled', (params) => {
      const timestamp = params.timestamp as number;
      if (timestamp < since) return;
      const args = (params.args as RemoteObject[]) ?? [];
      const frame = (
        params.stackTrace as { callFrames?: { url: string; lineNumber: number; columnNumber: number }[] }
      )?.callFrames?.[0];
      listener({
        time: new Date(timestamp),
        type: params.type as string,
        text: args
          .map((arg) => (arg.value !== undefined ? String(arg.value) : (arg.description ?? '')))
          .join(' '),
        source: 'MAIN',
        ...(frame?.url ? { location: `${frame.url}:${frame.lineNumber}:${frame.columnNumber}` } : {}),
      });
    });
    await this.#connection.send('Runtime.enable');
  }

  onClose(listener: (reason: string) => void): void {
    this.#connection.onClose(listener);
  }

  /**
   * Lets go, in order: this session's Runtime domain off, its websocket closed (and seen closed), and only
   * then — when Stagegraph opened the inspector — the inspector closed from inside the app. Closing it
   * while a session is still connected (a timer racing this very connection) can crash Electron. The app
   * holds a loopback link to the gateway and closes its inspector when the gateway drops that link, which
   * happens once the websocket is gone. A link that does not connect leaves the inspector open: an open
   * inspector is harmless, a crash is not.
   */
  async release(closeInspector: boolean): Promise<void> {
    if (this.#connection.closed) return;
    const link = closeInspector ? await this.#inspectorCloseLink() : null;
    await this.#connection.send('Runtime.disable', {}, RELEASE_STEP_MS).catch(() => undefined);
    const closed = await withDeadline(this.#connection.close(), RELEASE_STEP_MS, () => new Error('stuck'))
      .then(() => true)
      .catch(() => false);
    // Only a connection seen closed lets the inspector close: never while this session may be on it.
    if (!closed || !link) return;
    await link.close();
    // Detach is over when the inspector is: an inject right after must not find it half closed.
    const { port } = new URL(this.endpoint);
    const until = Date.now() + RELEASE_STEP_MS;
    while (loopbackPortsOf(this.pid).includes(Number(port)) && Date.now() < until) await delay(PORT_POLL_MS);
  }

  /** A link whose closing makes the app close its inspector; null when the app did not connect it. */
  async #inspectorCloseLink(): Promise<AgentChannel | null> {
    const link = await AgentChannel.open();
    const connect = fromAppLoop(`(() => {
      const store = ${STORE};
      delete ${STORE};
      const link = store.net.connect({ host: '127.0.0.1', port: ${link.port} });
      link.on('error', () => undefined);
      link.write(${JSON.stringify(`${link.token}\n`)});
      link.once('close', () => store.inspector.close());
      return true;
    })()`);
    const sent = await this.#connection
      .send('Runtime.evaluate', { expression: connect, awaitPromise: true }, RELEASE_STEP_MS)
      .then(() => withDeadline(link.connected, RELEASE_STEP_MS, () => new Error('no link')))
      .then(() => true)
      .catch(() => false);
    if (sent) return link;
    await link.close();
    return null;
  }
}
