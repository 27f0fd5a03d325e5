import { CdpConnection } from '../cdp/connection.js';
import type { ConsoleMessage } from '../contract.js';
import { injectFailed } from './open-inspector.js';

/** Where inject keeps what it found in the main process (the electron module, the inspector module). */
export const INJECT_KEY = 'stagegraph.inject';
/** The store as an expression in shipped source: `{ electron, reason, inspector, net }`. */
export const STORE = `globalThis[Symbol.for(${JSON.stringify(INJECT_KEY)})]`;

/** Runs once, with the inspector's command-line `require`: finds the app's electron module, if any. */
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
  static async connect(webSocketDebuggerUrl: string, pid: number, timeoutMs: number): Promise<MainProcess> {
    const connection = await CdpConnection.open(webSocketDebuggerUrl, timeoutMs);
    try {
      const installed = await evaluate<{ pid: number; electron: boolean }>(connection, INSTALL, true);
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

  /** Runs shipped source `(electron, arg) => …` in the main process and returns its (awaited) JSON result. */
  run<T>(source: string, arg?: unknown): Promise<T> {
    return evaluate<T>(this.#connection, `(${source})(${STORE}.electron, ${JSON.stringify(arg ?? null)})`);
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
   * Lets go: when Stagegraph opened the inspector, it is closed again (after this call's answer, from a
   * timer in the process, since closing it ends this very connection).
   */
  async release(closeInspector: boolean): Promise<void> {
    if (this.#connection.closed) return;
    if (closeInspector) {
      await this.#connection
        .send('Runtime.evaluate', {
          expression: `(() => { const store = ${STORE}; delete ${STORE}; setTimeout(() => store.inspector.close(), 0); })()`,
        })
        .catch(() => undefined);
    }
    await this.#connection.close();
  }
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
    const message = exceptionDetails.exception?.description?.split('\n')[0] ?? exceptionDetails.text;
    throw new Error(message);
  }
  return result.value as T;
}
