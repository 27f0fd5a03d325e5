import type { ElectronApplication } from 'playwright-core';
import type { ConsoleMessage } from '../contract/transport-events.js';
import type { RunInMain } from '../main-agent/agent-surface.js';
import { findInspector, MainInspector } from '../main-agent/main-inspector.js';
import { consoleMessageOf } from '../page-engine/events/console-feed.js';
import { appBelowIsolation, namespacePids } from '../process/isolation.js';
import { CdpConnection } from '../protocol/cdp-connection.js';
import { withDeadline } from '../protocol/deadline.js';
import { feedMainConsole, releasePlaywrightConsole } from './main-console.js';

/** Finding and opening the inspector Playwright started takes milliseconds; past this, Playwright it is. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Letting go waits at most this long: the websocket's closing handshake needs the app to answer, and a
 * stopped app must not hold a session's disposal (its socket goes with the process).
 */
const CLOSE_TIMEOUT_MS = 1_000;

/**
 * Runs shipped source in the main process. Playwright calls a function it is given but only evaluates a
 * string, so one fixed function compiles the source there (the main process has no CSP) and calls it.
 * Playwright evaluates through the Node inspector, whose interrupt can land inside Node's next-tick loop
 * after it found the queue empty: a tick queued there is never run, and every later one with it (see
 * transports/main-agent/main-inspector.ts, `fromAppLoop`). So the source runs from an immediate of the
 * app's own loop, a callback scope that drains the ticks it queues.
 */
const RUN_SHIPPED = (electron: unknown, { source, arg }: { source: string; arg: unknown }) =>
  new Promise((resolve, reject) => {
    setImmediate(() => {
      try {
        // Global (indirect) eval: the source sees globals only, never this function's scope.
        // biome-ignore lint/security/noGlobalEval: compiles the transport's fixed sources (and opted-in user eval)
        const compile = globalThis.eval;
        resolve(compile(source)(electron, arg));
      } catch (error) {
        reject(error);
      }
    });
  });

/** How a launched app's main process is reached by the calls of its native surface. */
export interface MainChannel {
  /** `inspector`: a session of its own on the app's inspector; `playwright`: `ElectronApplication.evaluate`. */
  readonly via: 'inspector' | 'playwright';
  readonly run: RunInMain;
  /** True once the main process can no longer answer. */
  readonly gone: () => boolean;
  /**
   * Feeds the main process's console to `deliver`: over the inspector, every line from the process's first
   * (see feedMainConsole); through Playwright, the lines from now on. Call it once.
   */
  feedConsole(deliver: (message: ConsoleMessage) => void): Promise<void>;
  close(): Promise<void>;
}

/** Calls through Playwright's `ElectronApplication.evaluate`. */
export function playwrightChannel(electron: ElectronApplication): MainChannel {
  return {
    via: 'playwright',
    run: (source, arg) => electron.evaluate(RUN_SHIPPED, { source, arg }),
    gone: () => electron.process().exitCode !== null,
    feedConsole: async (deliver) => {
      electron.on('console', (message) => deliver(consoleMessageOf(message, 'MAIN')));
    },
    close: async () => undefined,
  };
}

/**
 * Calls over a session of our own on the inspector Playwright started the app with (`--inspect=0`): a call
 * is one Runtime.evaluate on our websocket, where Playwright's evaluate costs its client, dispatcher and
 * validators on both sides and a stack capture (bench/native.ts). Where that inspector is not found, or
 * the process answering is not the app's, calls go through Playwright as before.
 */
export async function openMainChannel(electron: ElectronApplication): Promise<MainChannel> {
  // An isolated app's inspector is the app's, below its namespace's unshares (isolation.ts).
  const launched = electron.process().pid;
  const pid = launched === undefined ? undefined : appBelowIsolation(launched);
  const endpoint = pid === undefined ? null : await findInspector(pid);
  if (pid === undefined || !endpoint) return playwrightChannel(electron);
  const connection = await CdpConnection.open(endpoint.webSocketDebuggerUrl, CONNECT_TIMEOUT_MS).catch(
    () => null,
  );
  if (!connection) return playwrightChannel(electron);
  const installed = await MainInspector.install(connection).catch(() => null);
  // The process names itself by its pid in its own namespace: an isolated app's differs from ours.
  if (installed === null || !namespacePids(pid).includes(installed.pid) || !installed.electron) {
    await connection.close();
    return playwrightChannel(electron);
  }
  const { main } = installed;
  return {
    via: 'inspector',
    run: (source, arg, options) => main.run(source, arg, options),
    gone: () => main.closed || electron.process().exitCode !== null,
    feedConsole: (deliver) => {
      electron.on('console', releasePlaywrightConsole);
      return feedMainConsole(connection, deliver);
    },
    close: () =>
      withDeadline(connection.close(), CLOSE_TIMEOUT_MS, () => new Error('not closed in time')).catch(
        () => undefined,
      ),
  };
}
