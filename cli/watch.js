// `stagegraph watch '<subscription>'`: holds one subscription over graphql-ws and prints each event as one
// JSON line, for a shell pipeline or a CI step (`--count N` stops after N events). Exits 0 when the stream
// completes, on --count or on SIGINT/SIGTERM; 1 on an error event or a lost connection; 2 on a usage mistake.
import { createClient } from 'graphql-ws/client';
import WebSocket from 'ws';
import { parseClientArgs, SHARED_OPTIONS_HELP, UsageError, withUsage } from './options.js';

export const WATCH_USAGE = `Usage: stagegraph watch <subscription> [options]

Holds one subscription on a running gateway (graphql-ws) and prints one JSON line per event.
Exits 0 when the stream completes, after --count events or on Ctrl-C; 1 on an error event or a lost
connection; 2 on a usage mistake.

Options:
  --count <n>            stop after n events
${SHARED_OPTIONS_HELP}

Example:
  stagegraph watch 'subscription { sessionEvents { type sessionId } }' --count 1`;

/**
 * @param {readonly string[]} argv the arguments after `watch`
 * @returns {Promise<number>} the exit code
 */
export function runWatch(argv) {
  return withUsage(WATCH_USAGE, async () => {
    const options = parseClientArgs(argv, { count: { type: 'string' } });
    if (options.help) {
      process.stdout.write(`${WATCH_USAGE}\n`);
      return 0;
    }
    const count = parseCount(options.extra.count);
    const wsUrl = options.url.replace(/^http/, 'ws');
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      ...(options.token ? { connectionParams: { authorization: `Bearer ${options.token}` } } : {}),
    });
    const code = await new Promise((resolve) => {
      let received = 0;
      /** @param {number} exitCode */
      const finish = (exitCode) => {
        process.off('SIGINT', interrupted);
        process.off('SIGTERM', interrupted);
        unsubscribe();
        resolve(exitCode);
      };
      const interrupted = () => finish(0);
      // A reader that has had enough (`| head -n 1`) closes the pipe: that ends the watch, it is no failure.
      const readerGone = () => finish(0);
      process.once('SIGINT', interrupted);
      process.once('SIGTERM', interrupted);
      process.stdout.on('error', readerGone);
      const unsubscribe = client.subscribe(
        {
          query: options.query,
          ...(options.variables ? { variables: options.variables } : {}),
          ...(options.operationName ? { operationName: options.operationName } : {}),
        },
        {
          next: (event) => {
            process.stdout.write(`${JSON.stringify(event)}\n`);
            received += 1;
            if (event.errors && event.errors.length > 0) finish(1);
            else if (count !== undefined && received >= count) finish(0);
          },
          error: (error) => {
            reportError(error, wsUrl);
            finish(1);
          },
          complete: () => finish(0),
        },
      );
    });
    await client.dispose();
    return code;
  });
}

/** @param {string | boolean | undefined} value */
function parseCount(value) {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new UsageError(`--count must be a positive whole number, got "${String(value)}".`);
  return count;
}

/**
 * GraphQL errors (a document the server refused) go to stdout as an answer, like query's; a socket that
 * failed or closed goes to stderr with what the server said.
 * @param {unknown} error
 * @param {string} wsUrl
 */
function reportError(error, wsUrl) {
  if (Array.isArray(error)) {
    process.stdout.write(`${JSON.stringify({ errors: error })}\n`);
    return;
  }
  const closed = /** @type {{ code?: unknown, reason?: unknown }} */ (error);
  if (error && typeof closed.code === 'number') {
    const said = typeof closed.reason === 'string' && closed.reason !== '' ? `: ${closed.reason}` : '';
    process.stderr.write(`The gateway at ${wsUrl} closed the connection (${closed.code})${said}\n`);
    return;
  }
  const message =
    error instanceof Error
      ? error.message
      : /** @type {{ message?: unknown }} */ (error?.message ?? String(error));
  process.stderr.write(`Cannot reach the gateway at ${wsUrl}: ${String(message)}\n`);
}
