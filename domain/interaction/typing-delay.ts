import { StagegraphError } from '../../errors/stagegraph-error.js';

/**
 * The longest pause between two typed keys. A person types several keys a second; a longer pause is a
 * wait, and a wait an agent asks for is bounded like every other.
 */
export const TYPE_DELAY_MAX_MS = 1_000;

/**
 * Refuses typing that could not finish within the action's timeout (its length times the pause between
 * keys) before any key is pressed: typing cannot be stopped halfway and answered as a timeout, so a
 * request that would outlast its own bound is bad input, named with what would fit.
 */
export function checkTypingDelay(
  text: string,
  delayMs: number | undefined,
  timeoutMs: number,
  maxTimeoutMs: number,
): void {
  if (delayMs === undefined || delayMs === 0) return;
  if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > TYPE_DELAY_MAX_MS) {
    throw new StagegraphError('BAD_INPUT', `delayMs must be a whole number from 0 to ${TYPE_DELAY_MAX_MS}.`, {
      hint: `Pass delayMs between 0 and ${TYPE_DELAY_MAX_MS}; 0 types as fast as the app takes keys.`,
      details: { delayMs, max: TYPE_DELAY_MAX_MS },
    });
  }
  const keys = [...text].length;
  const needsMs = keys * delayMs;
  if (needsMs <= timeoutMs) return;
  const fitsDelayMs = Math.floor(timeoutMs / Math.max(1, keys));
  throw new StagegraphError(
    'BAD_INPUT',
    `Typing ${keys} characters ${delayMs} ms apart takes ${needsMs} ms, longer than the action's timeout of ${timeoutMs} ms.`,
    {
      hint: `Lower delayMs to ${fitsDelayMs} or less, raise timeoutMs (at most ${maxTimeoutMs}), or type the text in parts.`,
      details: { characters: keys, delayMs, timeoutMs, fitsDelayMs },
    },
  );
}
