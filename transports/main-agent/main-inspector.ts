import { TransportError } from '../contract/transport-error.js';
import { loopbackPortsOf } from '../process/proc-sockets.js';
import { CDP_CALL_TIMEOUT_MS, type CdpConnection } from '../protocol/cdp-connection.js';
import { getDevtoolsJson } from '../protocol/devtools-http.js';

/** One /json/list of a candidate port answers within this, or the port is not an inspector. */
const LIST_TIMEOUT_MS = 1_000;

/** Where a session of the inspector keeps what it found in the main process (the electron module, …). */
export const MAIN_STORE_KEY = 'stagegraph.main';
/** The store as an expression in shipped source: `{ electron, reason, inspector, net }`. */
export const STORE = `globalThis[Symbol.for(${JSON.stringify(MAIN_STORE_KEY)})]`;

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

/** The parts of a CDP RemoteObject a main-process value or console argument is read from. */
export interface RemoteObject {
  readonly value?: unknown;
  readonly description?: string;
}

interface EvaluateResult {
  readonly result: RemoteObject;
  readonly exceptionDetails?: { readonly text: string; readonly exception?: RemoteObject };
}

/** How a call behaves in the main process. */
export interface RunOptions {
  /**
   * The call may wait there (the next poll, an IPC handler's answer, user code): a protocol call's deadline
   * gives way to WAITING_CALL_BACKSTOP_MS, as whoever asked bounds the wait (user eval runs up to a
   * minute, EVAL_TIMEOUT_MAX_MS), and it takes no turn (see `MainInspector.run`), so no call waits
   * behind it.
   */
  readonly waits?: boolean;
}

/** A waiting call's deadline on the wire: a backstop, never what bounds it in practice. */
const WAITING_CALL_BACKSTOP_MS = 5 * 60_000;

/**
 * A call waits at most this long for the one before it to answer. Past it the one before is slow or stuck,
 * and running beside it costs at most one delayed ACK (see `run`), where waiting would cost up to its
 * deadline in an app that stalls.
 */
const TURN_PATIENCE_MS = 50;

/** Why the session left when the process began to exit (the reason its `onClose` listeners get). */
export const PROCESS_EXITING = 'the process is exiting';

/** What installing found: whose inspector answered, and whether it has the Electron API. */
export interface MainInstall {
  readonly main: MainInspector;
  readonly pid: number;
  /** Whether `require('electron')` gave the Electron API (false for plain Node). */
  readonly electron: boolean;
}

/**
 * A Node or Electron main process through one session of its inspector: shipped sources run with the app's
 * own electron module, from a callback of the app's event loop. Plain protocol calls on a websocket of our
 * own, where Playwright's `ElectronApplication.evaluate` crosses its client, dispatcher and validators.
 */
export class MainInspector {
  readonly #connection: CdpConnection;
  /** Settles when the last call that takes a turn has answered (or failed). */
  #turn: Promise<unknown> = Promise.resolve();
  /** Calls that take a turn, queued or sent, not yet answered. */
  #unanswered = 0;
  readonly #turnPatienceMs: number;

  private constructor(connection: CdpConnection, turnPatienceMs: number) {
    this.#connection = connection;
    this.#turnPatienceMs = turnPatienceMs;
  }

  /**
   * Stores the app's electron module where shipped sources find it (once per process), and has the session
   * leave when the process ends: Node, ending with an inspector session open, waits for it to disconnect,
   * so an app that quits with ours open would hang at exit for good. It tells a session that asked
   * (NodeRuntime.waitingForDisconnect); then the connection closes with PROCESS_EXITING.
   * `turnPatienceMs` is how long a call waits for the one before it (TURN_PATIENCE_MS unless told).
   */
  static async install(connection: CdpConnection, turnPatienceMs = TURN_PATIENCE_MS): Promise<MainInstall> {
    connection.on('NodeRuntime.waitingForDisconnect', () => void connection.leave(PROCESS_EXITING));
    const [found] = await Promise.all([
      evaluateIn<{ pid: number; electron: boolean }>(connection, INSTALL, true),
      // An inspector without the NodeRuntime domain still runs the calls; only the exit goes unseen.
      connection.send('NodeRuntime.notifyWhenWaitingForDisconnect', { enabled: true }).catch(() => undefined),
    ]);
    return { main: new MainInspector(connection, turnPatienceMs), pid: found.pid, electron: found.electron };
  }

  get closed(): boolean {
    return this.#connection.closed;
  }

  /**
   * Runs shipped source `(electron, arg) => …` in the main process, from a callback of its own event loop
   * (see `fromAppLoop`), and returns its (awaited) JSON result.
   */
  run<T>(source: string, arg?: unknown, options: RunOptions = {}): Promise<T> {
    const expression = fromAppLoop(`(${source})(${STORE}.electron, ${JSON.stringify(arg ?? null)})`);
    if (options.waits) return evaluateIn<T>(this.#connection, expression, false, WAITING_CALL_BACKSTOP_MS);
    // Calls take turns: the inspector sends with Nagle's algorithm on, so an answer written while the one
    // before it is unacknowledged waits for our delayed ACK — 44 ms for two or four calls at once against
    // 0.45 ms for one. A call that waits in the main process takes no turn, and one that outlasts
    // its turn's patience (TURN_PATIENCE_MS) holds the next no longer.
    const call = () => evaluateIn<T>(this.#connection, expression);
    const next =
      this.#unanswered === 0 ? call() : untilSettledOr(this.#turn, this.#turnPatienceMs).then(call);
    this.#unanswered += 1;
    this.#turn = next
      .catch(() => undefined)
      .finally(() => {
        this.#unanswered -= 1;
      });
    return next;
  }

  /**
   * Reads `expression` where the inspector lands, even in an app whose event loop does not turn: for a
   * diagnosis only, and only property reads — it must queue nothing (see `fromAppLoop`).
   */
  peek<T>(expression: string): Promise<T> {
    return evaluateIn<T>(this.#connection, expression);
  }
}

/** Resolves when `previous` settles or `ms` have passed, whichever is first. */
function untilSettledOr(previous: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const settled = () => {
      clearTimeout(timer);
      resolve();
    };
    previous.then(settled, settled);
  });
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
export function fromAppLoop(expression: string): string {
  return `new Promise((resolve, reject) => setImmediate(() => {
    try { resolve(${expression}); } catch (error) { reject(error); }
  }))`;
}

/** `expression`'s awaited JSON value; its exception's first line as a `protocol` TransportError. */
export async function evaluateIn<T>(
  connection: CdpConnection,
  expression: string,
  commandLineApi = false,
  timeoutMs = CDP_CALL_TIMEOUT_MS,
): Promise<T> {
  const { result, exceptionDetails } = await connection.send<EvaluateResult>(
    'Runtime.evaluate',
    {
      expression,
      awaitPromise: true,
      returnByValue: true,
      ...(commandLineApi ? { includeCommandLineAPI: true } : {}),
    },
    timeoutMs,
  );
  if (exceptionDetails) {
    // Its first line: the stack under it names files and lines of the app, of no use to a caller.
    const message = exceptionDetails.exception?.description?.split('\n')[0] ?? exceptionDetails.text;
    throw new TransportError('protocol', message, { method: 'Runtime.evaluate' });
  }
  return result.value as T;
}

/**
 * The first of the process's loopback ports (those not in `known` first) that answers as a Node inspector:
 * an inspector tells its websocket only on its own stderr, and a port is found by asking it.
 */
export async function findInspector(
  pid: number,
  known: readonly number[] = [],
): Promise<{ port: number; webSocketDebuggerUrl: string } | null> {
  const ports = loopbackPortsOf(pid);
  const ordered = [
    ...ports.filter((port) => !known.includes(port)),
    ...ports.filter((port) => known.includes(port)),
  ];
  for (const port of ordered) {
    // Any of the app's ports may answer, with anything: only a list holding a node target is an inspector.
    const targets = await getDevtoolsJson('127.0.0.1', port, '/json/list', LIST_TIMEOUT_MS).catch(() => []);
    const node = (Array.isArray(targets) ? (targets as unknown[]) : []).find(isNodeTarget);
    if (node) return { port, webSocketDebuggerUrl: node.webSocketDebuggerUrl };
  }
  return null;
}

function isNodeTarget(target: unknown): target is { type: 'node'; webSocketDebuggerUrl: string } {
  const { type, webSocketDebuggerUrl } = (target ?? {}) as { type?: unknown; webSocketDebuggerUrl?: unknown };
  return type === 'node' && typeof webSocketDebuggerUrl === 'string' && webSocketDebuggerUrl !== '';
}
