import { setFlagsFromString } from 'node:v8';
import { StagegraphError } from '../../errors/stagegraph-error.js';

/**
 * Regular expressions a client sends (find's nameRegex, expect's regex) are checked here and matched in a
 * worker (pattern-worker.ts) against text an app controls. On V8's backtracking engine `(.*)*x` or `(a+)+$`
 * against a long accessible name takes exponential time; on V8's linear-time engine (the `l` flag) it takes
 * time proportional to the text's length times the pattern's size, so the worker runs every pattern that
 * engine can run on it, and the rest (backreferences, lookaround, a counted repetition over 16) on the
 * backtracking engine, under the same deadline.
 *
 * Node 20's V8 (11.3) accepts the `l` flag only with `--enable-experimental-regexp-engine`, a flag V8 reads
 * at each RegExp construction (in every isolate of the process, workers included), so setting it here,
 * before any worker compiles a pattern, is enough: no `node` option is needed at start-up. The other option,
 * `--enable-experimental-regexp-engine-on-excessive-backtracks`, falls back to the linear engine after
 * 50,000 backtracks only for patterns that engine can run, and leaves the rest to backtrack for ever.
 */
setFlagsFromString('--enable-experimental-regexp-engine');

/** V8's flag for its linear-time engine. */
export const LINEAR_FLAG = 'l';
/**
 * How long one match of a client pattern may run (all the texts of one call): a name or text pattern on the
 * linear engine takes milliseconds on a whole snapshot; one past this is stopped and answered BAD_INPUT.
 */
export const CLIENT_PATTERN_DEADLINE_MS = 2_000;
/** The longest client pattern: a name or text pattern has no use for more, and the engine's time grows with it. */
export const CLIENT_PATTERN_MAX_CHARS = 1_000;

/** Refuses, with BAD_INPUT naming `argument` (nameRegex, regex), a pattern too long or not JavaScript's. */
export function checkClientPattern(source: string, argument: string): void {
  if (source.length > CLIENT_PATTERN_MAX_CHARS)
    throw new StagegraphError(
      'BAD_INPUT',
      `${argument} is ${source.length} characters long; patterns are at most ${CLIENT_PATTERN_MAX_CHARS}.`,
      { details: { argument } },
    );
  try {
    new RegExp(source);
  } catch (error) {
    throw new StagegraphError(
      'BAD_INPUT',
      `${argument} is not a valid JavaScript pattern: ${String(error)}`,
      {
        details: { argument },
      },
    );
  }
}
