import { errors } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { TransportError } from '../../contract/transport-error.js';

/**
 * Playwright reports why an element never became actionable only in its call log text ("element is not
 * enabled", "<div …> intercepts pointer events"). These patterns turn that log into registered codes; the
 * most specific reason seen last wins, because the log lists every retry in order.
 */
const REASONS = [
  { code: 'ELEMENT_OBSCURED', pattern: /(<[^\n]+?>) (?:from <[^\n]+?> subtree )?intercepts pointer events/ },
  { code: 'ELEMENT_DISABLED', pattern: /element is not enabled|element is disabled/ },
  {
    code: 'ELEMENT_NOT_EDITABLE',
    pattern:
      /element is not editable|Element is not an <input>|not a <select> element|Not a checkbox or radio button/,
  },
  {
    code: 'ELEMENT_NOT_VISIBLE',
    pattern: /element is not visible|element is outside of the viewport|element is not attached/,
  },
] as const;

/**
 * Call log lines Playwright writes once an attempt has sent the action's input to the page (its
 * `_performPointerAction` and `_selectOption` in server/dom.ts): from here on a timeout means the page got
 * the click and did not answer in time, not that nothing happened.
 */
const DISPATCHED =
  /performing .+ action|\w action done|waiting for scheduled navigations to finish|navigations have finished|selected specified option/;
/** Each attempt (the first, then every retry after an actionability check failed) starts with one of these. */
const ATTEMPT = /^(?:attempting|retrying) .+ action/;
/** Playwright's words for a page, context or browser that closed under the call (its TargetClosedError). */
const CLOSED = /Target page, context or browser has been closed|Target closed|Browser has been closed/;
const CRASHED = /Target crashed|Page crashed/i;
/** Arguments Playwright refuses before it touches the page: a key or modifier it does not know. */
const BAD_ARGUMENT = /Unknown key|Unknown modifier|Cannot type text into input\[type=number\]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the call log is coloured with ANSI escapes
const ANSI = /\u001b\[[0-9;]*m/g;

/** The call log's lines, without colour and list marks: "performing click action". */
function callLog(message: string): string[] {
  const start = message.indexOf('Call log:');
  if (start < 0) return [];
  return message
    .slice(start + 'Call log:'.length)
    .replace(ANSI, '')
    .split('\n')
    .map((line) => line.replace(/^\s*-\s*/, '').trim())
    .filter((line) => line.length > 0);
}

/**
 * The line of the last attempt that says the action reached the page, if it did. A reason logged after it
 * (the click went to a cover, and was kept from the target) means that attempt did not land either.
 */
function dispatchedPhase(log: readonly string[]): string | undefined {
  const last = log.slice(Math.max(0, lastIndexOf(log, ATTEMPT)));
  const sent = lastIndexOf(last, DISPATCHED);
  if (sent < 0) return undefined;
  const refused = last.slice(sent).some((line) => REASONS.some(({ pattern }) => pattern.test(line)));
  return refused ? undefined : last.at(-1);
}

function lastIndexOf(lines: readonly string[], pattern: RegExp): number {
  for (let index = lines.length - 1; index >= 0; index -= 1)
    if (pattern.test(lines[index] ?? '')) return index;
  return -1;
}

function actionabilityReason(message: string) {
  let found: { code: (typeof REASONS)[number]['code']; index: number; detail?: string } | undefined;
  for (const reason of REASONS) {
    const matches = [...message.matchAll(new RegExp(reason.pattern, 'g'))];
    const last = matches.at(-1);
    if (last && (found === undefined || (last.index ?? 0) > found.index)) {
      found = { code: reason.code, index: last.index ?? 0, ...(last[1] ? { detail: last[1] } : {}) };
    }
  }
  return found;
}

/** Whether the action had already reached the page when it failed, as the caller knows it (a drag's button down). */
export interface ActionProgress {
  dispatched: boolean;
}

/**
 * Turns a failed action into a registered code, telling apart what a retry can fix from what it cannot:
 * - the target never became actionable: its reason (ELEMENT_DISABLED, …) or ACTION_TIMEOUT, retryable —
 *   nothing reached the page;
 * - the input reached the page and the page did not confirm in time: ACTION_UNCONFIRMED, not retryable —
 *   it may have taken effect, and a retry could do it twice;
 * - the transport failed under the action (the window closed, the renderer crashed, a protocol error):
 *   the code its TransportError kind maps to.
 */
export function actionError(
  error: unknown,
  what: string,
  target: string,
  timeoutMs: number,
  progress: ActionProgress = { dispatched: false },
): StagegraphError {
  if (error instanceof StagegraphError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] ?? message;
  if (CRASHED.test(message))
    return new TransportError('crashed', `${what} on ${target}: the window's renderer crashed.`, {
      cause: error,
    });
  if (CLOSED.test(message) || (error instanceof Error && error.name === 'TargetClosedError'))
    return new TransportError('closed', `${what} on ${target}: the window closed during the action.`, {
      cause: error,
    });
  const timedOut = error instanceof errors.TimeoutError;
  const log = callLog(message);
  const phase = dispatchedPhase(log) ?? (progress.dispatched ? 'holding the mouse button down' : undefined);
  if (timedOut && phase !== undefined) {
    return new StagegraphError(
      'ACTION_UNCONFIRMED',
      `${what} on ${target} reached the page but was not confirmed within ${timeoutMs} ms (it was ${phase}); it may have taken effect.`,
      { details: { phase }, cause: error },
    );
  }
  const found = actionabilityReason(message);
  if (found?.code === 'ELEMENT_OBSCURED') {
    return new StagegraphError('ELEMENT_OBSCURED', `${what} on ${target}: ${found.detail} covers it.`, {
      details: { coveredBy: found.detail },
      cause: error,
    });
  }
  if (found)
    return new StagegraphError(
      found.code,
      `${what} on ${target} failed: ${found.code.toLowerCase().replaceAll('_', ' ')}.`,
      { cause: error },
    );
  if (timedOut) {
    const waiting = log.at(-1);
    return new StagegraphError(
      'ACTION_TIMEOUT',
      `${what} on ${target} was not performed within ${timeoutMs} ms${waiting ? ` (still ${waiting})` : ''}.`,
      { ...(waiting ? { details: { phase: waiting } } : {}), cause: error },
    );
  }
  if (BAD_ARGUMENT.test(message))
    return new StagegraphError('BAD_INPUT', `${what} on ${target}: ${firstLine}`, { cause: error });
  return new TransportError('protocol', `${what} on ${target} failed: ${firstLine}`, { cause: error });
}
