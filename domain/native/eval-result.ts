import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { EvalOutcome } from '../../transports/contract/native.js';
import { withDeadline } from '../../transports/protocol/deadline.js';
import { clamp } from '../sessions/timeouts.js';

/** Most reads of an app's state answer in milliseconds; ten seconds is slow code, not a hung one. */
export const EVAL_TIMEOUT_DEFAULT_MS = 10_000;
/** An evaluation holds its mutation open while it runs; past a minute, the agent had better do it in steps. */
export const EVAL_TIMEOUT_MAX_MS = 60_000;

/** What opted-in code returned, as JSON text. */
export interface EvalResult {
  readonly json: string;
}

/**
 * Waits for a run of opted-in code within its clamped timeout, and turns what it reported into its result
 * or the error code that names what was wrong: it threw, its result was not plain JSON, or too large.
 */
export async function evalResult(
  running: Promise<EvalOutcome>,
  timeoutMs: number | null | undefined,
): Promise<EvalResult> {
  const boundMs = clamp(timeoutMs, EVAL_TIMEOUT_DEFAULT_MS, 1, EVAL_TIMEOUT_MAX_MS);
  const outcome = await withDeadline(
    running,
    boundMs,
    () =>
      new StagegraphError('EVAL_TIMEOUT', `The code did not settle within ${boundMs} ms.`, {
        details: { timeoutMs: boundMs },
      }),
  );
  if (outcome.status === 'ok') return { json: outcome.json };
  const code = {
    failed: 'EVAL_FAILED',
    'not-serializable': 'EVAL_NOT_SERIALIZABLE',
    'too-large': 'EVAL_RESULT_TOO_LARGE',
  } as const;
  throw new StagegraphError(code[outcome.status], outcome.message);
}
