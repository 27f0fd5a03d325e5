import type { EvalOutcome } from '../contract/native.js';
import { TransportError } from '../contract/transport-error.js';

/**
 * The outcome of a run of user code (`userCodeSource`), wherever it ran: the outcome it reported, or —
 * when the run itself rejected — EVAL_FAILED's message. Code that does not even compile rejects before
 * `runUserCode` can catch anything. A connection that closed, timed out or crashed under the run is not
 * the code's fault and keeps its own error (and code).
 */
export async function settleEval(running: Promise<unknown>): Promise<EvalOutcome> {
  try {
    return (await running) as EvalOutcome;
  } catch (error) {
    if (error instanceof TransportError && error.kind !== 'protocol') throw error;
    return { status: 'failed', message: evalFailureMessage(error) };
  }
}

/**
 * The engine's own words for a failed evaluation, never a stack: the first line that names an error (a
 * Playwright message may open with a call log), without the call that carried it — Playwright's
 * `page.evaluate: ` or `electronApplication.evaluate: `, the inspector's `Runtime.evaluate: `.
 */
export function evalFailureMessage(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split('\n');
  const line = lines.find((text) => /Error/.test(text)) ?? lines[0] ?? '';
  return line.replace(/^.*?evaluate: /, '').trim();
}
