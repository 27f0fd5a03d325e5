import { isLauncherLeftover } from '../transports/playwright-electron/launcher-leftovers.js';
import { killStartedGroups } from './shutdown-bound.js';

/** Stray errors logged per window at most: a library failing in a loop must not flood the log (or spin on it). */
export const STRAY_ERROR_LOG_LIMIT = 20;
export const STRAY_ERROR_LOG_WINDOW_MS = 60_000;
/** A stray error is logged by its name, the first line of its message cut to this, and where it was thrown. */
const STRAY_MESSAGE_CHARS = 300;
/** Node's own invariant failing: the runtime says it is broken, and no process state can be trusted. */
const FATAL_CODES = new Set(['ERR_INTERNAL_ASSERTION']);

/**
 * The served process's last resort, armed once the server serves: an error that reached no handler is
 * logged and the server keeps serving, because ending the process would drop every client and orphan every
 * app it started (owned groups are killed only by an orderly stop). Each surviving case, and why it is safe:
 *
 * - An unhandled rejection: an async operation failed and nobody awaited it (a library's listener, a
 *   promise left behind by a timed-out call). A rejection unwinds no synchronous code: every state change
 *   made before it completed, and what it abandoned is what any caught failure abandons.
 * - An uncaught exception from an asynchronous callback (a timer, an emitter's listener, a socket, a child
 *   process's event): the stack it unwound is that one callback's, run from the event loop, not a request's
 *   middle. The gateway's shared state (sessions, subscriptions, queues, the audit chain) changes only in
 *   synchronous steps that each ran to completion before it; the callback's own work is lost, as a failed
 *   request's is.
 *
 * Not survived: an exception before the server serves (this is armed after start, so a failing start
 * fails as Node fails it), and Node's internal assertions (FATAL_CODES). Those are logged, every process
 * group this server started is killed, and the process exits 1. Only the error's name, the first line of
 * its message (cut) and where it was thrown are logged: messages of launch errors carry command lines and
 * call logs, and no property of the error object is printed.
 *
 * Returns the disarm, for tests.
 */
export function keepServingThroughStrayErrors(log: (line: string) => void): () => void {
  const throttle = logThrottle(log);
  const onRejection = (reason: unknown) => {
    // Observed by the launch transport, which knows them (launcher-leftovers.ts): not strays.
    if (isLauncherLeftover(reason)) return;
    throttle(`stray promise rejection (still serving): ${describeStray(reason)}`);
  };
  const onException = (error: unknown) => {
    if (isFatal(error)) {
      log(`fatal error (exiting): ${describeStray(error)}`);
      killStartedGroups();
      process.exit(1);
    }
    throttle(`stray exception (still serving): ${describeStray(error)}`);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

function isFatal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && FATAL_CODES.has(code);
}

/** `TypeError: the first line of the message (at where it was thrown)`. */
export function describeStray(error: unknown): string {
  if (!(error instanceof Error)) return `a thrown ${typeof error} (not an Error)`;
  const [first = ''] = error.message.split('\n');
  const message = first.length > STRAY_MESSAGE_CHARS ? `${first.slice(0, STRAY_MESSAGE_CHARS)}…` : first;
  const thrownAt = /^\s+at (.+)$/m.exec(error.stack ?? '')?.[1];
  return `${error.name}: ${message}${thrownAt ? ` (at ${thrownAt})` : ''}`;
}

/** Logs at most STRAY_ERROR_LOG_LIMIT lines a window; the next window starts by saying how many it left out. */
export function logThrottle(log: (line: string) => void): (line: string) => void {
  let windowStart = Number.NEGATIVE_INFINITY;
  let logged = 0;
  let left = 0;
  return (line) => {
    const now = Date.now();
    if (now - windowStart >= STRAY_ERROR_LOG_WINDOW_MS) {
      if (left > 0) log(`${left} more stray errors in the last window were not logged`);
      windowStart = now;
      logged = 0;
      left = 0;
    }
    if (logged >= STRAY_ERROR_LOG_LIMIT) {
      left += 1;
      return;
    }
    logged += 1;
    log(line);
  };
}
