import { StagegraphError } from '../../errors/stagegraph-error.js';
import { TransportError } from '../contract/transport-error.js';
import { CDP_CALL_TIMEOUT_MS } from '../protocol/cdp-connection.js';
import { withDeadline } from '../protocol/deadline.js';
import type { RunOptions } from './main-inspector.js';

/**
 * A fixed call on the main process (a menu, tray, dialog or IPC call) answers within this: as a DevTools
 * call does, since that is what it is over the inspector, and through Playwright, which sets none.
 */
export const MAIN_CALL_TIMEOUT_MS = CDP_CALL_TIMEOUT_MS;
/**
 * A call made while the main process is already known silent waits at least this long for it (a process
 * continued meanwhile answers within it), rather than the whole call timeout again.
 */
export const MAIN_ANSWER_MARGIN_MS = 500;

type Run = (source: string, arg?: unknown, options?: RunOptions) => Promise<unknown>;

/** Past its deadline, a call is the main process not answering. */
class PastDeadline extends Error {}

/**
 * `run` with every fixed call answered by its deadline, whatever the main process or its connection does:
 * MAIN_NOT_RESPONDING when it does not answer. A main process that has left a call unanswered since
 * before a new one is not given that call's whole timeout again (a governed menu invoke reads the menu
 * first, then invokes: both within one timeout of a stopped process). Calls that wait in the main process
 * by design (the event poll, IPC handlers, user eval) are bounded by whoever asked, and their answers
 * count as the process answering.
 */
export function withMainDeadline(run: Run): Run {
  /** Since when a fixed call has gone unanswered with no answer of any call since; null while it answers. */
  let silentSince: number | null = null;
  const answered = () => {
    silentSince = null;
  };
  return (source, arg, options) => {
    if (options?.waits) {
      const call = run(source, arg, options);
      void call.then(answered, (error: unknown) => (isNoAnswer(error) ? undefined : answered()));
      return call;
    }
    const now = Date.now();
    const since = silentSince;
    silentSince ??= now;
    const deadlineMs =
      since === null
        ? MAIN_CALL_TIMEOUT_MS
        : Math.max(MAIN_ANSWER_MARGIN_MS, since + MAIN_CALL_TIMEOUT_MS - now);
    const call = run(notAfter(source, now + deadlineMs), arg, options);
    return withDeadline(call, deadlineMs, () => new PastDeadline()).then(
      (value) => {
        answered();
        return value;
      },
      (error: unknown) => {
        if (!isNoAnswer(error)) {
          answered();
          throw error;
        }
        throw mainNotResponding(silentSince ?? now, error);
      },
    );
  };
}

/**
 * `source` refusing to run once `deadline` (epoch ms) has passed. A stopped process runs the calls queued
 * on its inspector when it is continued: a menu invoke answered MAIN_NOT_RESPONDING must not click the item
 * then, behind the caller's back, or its retry would click it twice. The main process is on this machine
 * (launch and inject start or signal it here), so its clock is ours.
 */
function notAfter(source: string, deadline: number): string {
  return `(electron, arg) => {
    if (Date.now() > ${deadline}) throw new Error('Stagegraph gave up on this call before it ran.');
    return (${source})(electron, arg);
  }`;
}

/** The call got no answer: our deadline, or the protocol call's own. */
function isNoAnswer(error: unknown): boolean {
  return error instanceof PastDeadline || (error instanceof TransportError && error.kind === 'timeout');
}

function mainNotResponding(since: number, cause: unknown): StagegraphError {
  const silentMs = Date.now() - since;
  return new StagegraphError(
    'MAIN_NOT_RESPONDING',
    `The app's main process has not answered for ${silentMs} ms (it is busy, paused in a debugger, or stopped).`,
    { details: { silentMs }, ...(cause instanceof PastDeadline ? {} : { cause }) },
  );
}
