import type { ConsoleMessage } from '../contract/transport.js';
import { TransportError } from '../contract/transport-error.js';
import { loopbackPortsOf } from '../process/proc-sockets.js';
import { delay } from '../process/process-group.js';
import { CdpConnection } from '../protocol/cdp-connection.js';
import { withDeadline } from '../protocol/deadline.js';
import { AgentChannel } from './agent-channel.js';
import type { InjectDeadline } from './inject-deadline.js';
import { injectFailed } from './open-inspector.js';

/** Each step of letting go waits at most this long: a stopped or hung app cannot hold a detach. */
const RELEASE_STEP_MS = 5_000;
/** How often the app's ports are read while its inspector closes. */
const PORT_POLL_MS = 20;

/** Where inject keeps what it found in the main process (the electron module, the inspector module). */
export const INJECT_KEY = 'stagegraph.inject';
/** The store as an expression in shipped source: `{ electron, reason, inspector, net }`. */
export const STORE = `globalThis[Symbol.for(${JSON.stringify(INJECT_KEY)})]`;

/**
 * Runs once, with the inspector's command-line `require`: finds the app's electron module, if any. It runs
 * where the inspector lands (see `fromAppLoop`), as that `require` lives only while the evaluation does:
 * it loads modules and stores them, and queues no next tick.
 */
const INSTALL = `(() => {
  if (!${STORE}) {
    let electron = null;
    let reason = null;
    try { electron = require('electron'); } catch (error) { reason = String(error && error.message || error); }
    // Under plain Node, require('electron') is the npm wrapper that names the binary: not the API.
    if (typeof electron === 'string' || (electron && !electron.app)) { reason = 'not an Electron main process'; electron = null; }
    ${STORE} = { electron, reason, inspector: require('node:inspector'), net: require('node:net') };
  }
  const store = ${STORE};
  return { pid: process.pid, electron: Boolean(store.electron), reason: store.reason };
})()`;

interface RemoteObject {
  readonly value?: unknown;
  readonly description?: string;
}

interface EvaluateResult {
  readonly result: RemoteObject;
  readonly exceptionDetails?: { readonly text: string; readonly exception?: RemoteObject };
}

/**
 * A running Node or Electron main process, through its inspector: the pid checked, shipped sources run with
 * the app's own electron module, and its console.
 */
export class MainProcess {
  readonly pid: number;
  /** Whether `require('electron')` gave the Electron API (false for plain Node). */
  readonly electron: boolean;
  readonly endpoint: string;
  readonly #connection: CdpConnection;

  private constructor(connection: CdpConnection, pid: number, electron: boolean) {
    this.#connection = connection;
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
        evaluate<{ pid: number; electron: boolean }>(connection, INSTALL, true),
      );
      if (installed.pid !== pid) {
        throw injectFailed(pid, `the inspector that answered belongs to pid ${installed.pid}`);
      }
      return new MainProcess(connection, pid, installed.electron);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  get closed(): boolean {
    return this.#connection.closed;
  }

  /**
   * Runs shipped source `(electron, arg) => …` in the main process, from a callback of its own event loop
   * (see `fromAppLoop`), and returns its (awaited) JSON result.
   */
  run<T>(source: string, arg?: unknown): Promise<T> {
    const call = `(${source})(${STORE}.electron, ${JSON.stringify(arg ?? null)})`;
    return evaluate<T>(this.#connection, fromAppLoop(call));
  }

  /**
   * Reads `expression` where the inspector lands, even in an app whose event loop does not turn: for a
   * diagnosis only, and only property reads — it must queue nothing (see `fromAppLoop`).
   */
  peek<T>(expression: string): Promise<T> {
    return evaluate<T>(this.#connection, expression);
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

/**
 * `expression` evaluated from an immediate of the app's own event loop, its value or exception the promise's.
 * The inspector dispatches an evaluation by interrupting the app's JavaScript wherever it is — also inside
 * Node's `processTicksAndRejections`, after it found the next-tick queue empty and before it marks it so.
 * A tick queued there (`net.connect` queues one; so do streams, `socket.destroy`, …) lands in a queue Node
 * then believes empty, and `process.nextTick` only marks a queue that was empty: none of the app's next
 * ticks, ours or its own, ever runs again. The inject agent's socket stayed "connecting" for good, and the
 * app was left broken. An immediate runs in a callback scope of its own, which drains the ticks it queued.
 */
function fromAppLoop(expression: string): string {
  return `new Promise((resolve, reject) => setImmediate(() => {
    try { resolve(${expression}); } catch (error) { reject(error); }
  }))`;
}

async function evaluate<T>(
  connection: CdpConnection,
  expression: string,
  commandLineApi = false,
): Promise<T> {
  const { result, exceptionDetails } = await connection.send<EvaluateResult>('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
    ...(commandLineApi ? { includeCommandLineAPI: true } : {}),
  });
  if (exceptionDetails) {
    // Its first line: the stack under it names files and lines of the app, of no use to a caller.
    const message = exceptionDetails.exception?.description?.split('\n')[0] ?? exceptionDetails.text;
    throw new TransportError('protocol', message, { method: 'Runtime.evaluate' });
  }
  return result.value as T;
}
