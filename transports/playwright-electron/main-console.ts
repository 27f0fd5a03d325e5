import type { ConsoleMessage as PlaywrightConsoleMessage } from 'playwright-core';
import type { ConsoleMessage } from '../contract/transport-events.js';
import type { RemoteObject } from '../main-agent/main-inspector.js';
import { CONSOLE_RELEASE_INTERVAL_MS, consoleText } from '../page-engine/events/console-feed.js';
import type { CdpConnection } from '../protocol/cdp-connection.js';

/** The object group V8 wraps console arguments in, per session. */
const CONSOLE_OBJECT_GROUP = 'console';

/** What a `Runtime.consoleAPICalled` of a main process carries that a console line is made of. */
interface ConsoleApiCall {
  readonly type: string;
  readonly args?: readonly (RemoteObject & { readonly type: string; readonly objectId?: string })[];
  readonly executionContextId: number;
  readonly timestamp: number;
  readonly stackTrace?: { readonly callFrames: readonly CallFrame[] };
}

interface CallFrame {
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

/**
 * Feeds a main process's console to `deliver` over a session of its inspector of our own, from the
 * process's first line: V8 stores every console call of a process with an inspector (`--inspect`, as
 * Playwright launches it) from its start, and `Runtime.enable` replays that store (up to 1,000 lines) in
 * order before it reports live ones. Playwright's `ElectronApplication` console cannot: its own
 * `Runtime.enable` replays the store while it launches, before anyone can subscribe, and it drops every line
 * until its client's subscription arrives — an app's start-up lines were lost whenever the app spoke before
 * the launch had returned. Resolves once the replay is in; a closed connection just ends the feed.
 */
export async function feedMainConsole(
  connection: CdpConnection,
  deliver: (message: ConsoleMessage) => void,
): Promise<void> {
  const release = groupReleaser(connection);
  connection.on('Runtime.consoleAPICalled', (params) => {
    const call = params as unknown as ConsoleApiCall;
    // Playwright skips these too: a console call with no context has nowhere to be.
    if (call.executionContextId === 0) return;
    const args = call.args ?? [];
    if (args.some((arg) => arg.objectId)) release();
    deliver(mainMessage(call.timestamp, call.type, consoleText(args), call.stackTrace?.callFrames[0]));
  });
  await connection.send('Runtime.enable').catch(() => undefined);
}

/**
 * Disposes the handles Playwright makes for a main-process console line: they hold the logged objects in
 * the app until disposed, and the lines themselves come from `feedMainConsole`.
 */
export function releasePlaywrightConsole(message: PlaywrightConsoleMessage): void {
  for (const arg of message.args()) void arg.dispose().catch(() => undefined);
}

function mainMessage(
  timestamp: number,
  type: string,
  text: string,
  frame: CallFrame | undefined,
): ConsoleMessage {
  const time = new Date(timestamp);
  if (!frame?.url) return { time, type, text, source: 'MAIN' };
  return {
    time,
    type,
    text,
    source: 'MAIN',
    location: `${frame.url}:${frame.lineNumber}:${frame.columnNumber}`,
  };
}

/**
 * The release of the objects logged lines carried, as often as CONSOLE_RELEASE_INTERVAL_MS at most: the main
 * process holds every object ever logged for our session until it is released.
 */
function groupReleaser(connection: CdpConnection): () => void {
  let timer: NodeJS.Timeout | undefined;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (connection.closed) return;
      connection
        .send('Runtime.releaseObjectGroup', { objectGroup: CONSOLE_OBJECT_GROUP })
        .catch(() => undefined);
    }, CONSOLE_RELEASE_INTERVAL_MS);
    timer.unref();
  };
}
