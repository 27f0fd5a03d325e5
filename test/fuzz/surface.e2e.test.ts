// The whole GraphQL surface, fuzzed (issue 31): operations generated from the schema — valid ones with random
// arguments, mistyped, mutated, megabyte-sized, nested and repeated — and raw bodies and frames, over HTTP POST,
// GET, SSE and graphql-ws, against `stagegraph serve --demo` in a child process, with a `{ __typename }` probe
// beside them. FUZZ_OPERATIONS sets the size (2,000 here in CI; `npm run fuzz` runs 10,000), FUZZ_SEED replays
// a run (fast-check prints the seed and the shrunk request of a failure): CI replays one fixed seed, `npm run
// fuzz` draws a new one.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FuzzRun } from './harness.js';
import { quantile } from './probe.js';
import type { FuzzRequest } from './requests.js';

const OPERATIONS = Number(process.env.FUZZ_OPERATIONS ?? 2_000);
/**
 * The main suite (CI) replays one fixed corpus, so a red run is a regression someone can replay, not a new
 * draw; `npm run fuzz` (FUZZ_SEED=random) explores a new one each time, and what it finds becomes work.
 */
const CI_SEED = 1_317_486_544;
const SEED =
  process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? CI_SEED);
/**
 * Issue 31's bound on the server's RSS growth over the run, read after a forced full collection in the
 * served process (FuzzRun.memoryAfterGc): what it still holds, not garbage V8 has yet to collect (read
 * without one, seed 7 showed +331 MB at 10,000 requests; after one, the heap had grown 31 MB, most of it the
 * document cache filling to its bound and results every page call left behind, since fixed).
 */
const RSS_GROWTH_BOUND_MB = 100;
/**
 * Measured: 1,072 requests (1,000 and one per root field) took 29 s at load 15, and the bench's 2,000 took 67 s at
 * load 18 — about 30 ms each once every request is answered. Eight times that, plus five minutes for the
 * demo's start and a shrink: a safety net, not a measure.
 */
const MS_PER_OPERATION = 250;
const TIMEOUT_MS = 300_000 + OPERATIONS * MS_PER_OPERATION;
/** Left of the timeout for fast-check's report and the checks after the run. */
const REPORT_MARGIN_MS = 60_000;

describe('the whole surface, fuzzed', () => {
  let run: FuzzRun;

  beforeAll(async () => {
    run = await FuzzRun.open();
  }, 300_000);

  afterAll(async () => {
    await run?.close();
  }, 90_000);

  it(
    `${OPERATIONS} generated requests: the gateway lives, answers data or registered codes only, and keeps answering a probe`,
    async () => {
      const before = await run.memoryAfterGc();
      const started = Date.now();
      const property = (requests: fc.Arbitrary<FuzzRequest>) =>
        fc.asyncProperty(requests, async (request) => {
          const violations = await run.check(request);
          if (violations.length > 0)
            throw new Error(
              violations.map((violation) => `${violation.kind}: ${violation.detail}`).join('\n'),
            );
        });
      try {
        // One valid call of every root field first, each its own property so that a failure shrinks.
        for (const [index, field] of run.requests.eachField.entries())
          await fc.assert(property(field), { numRuns: 1, seed: SEED + index, includeErrorInReport: true });
        await fc.assert(property(run.requests.any), {
          numRuns: OPERATIONS,
          seed: SEED,
          includeErrorInReport: true,
          // Ends a run (and a long shrink) with its report before vitest's timeout would end it without one.
          interruptAfterTimeLimit: TIMEOUT_MS - REPORT_MARGIN_MS - (Date.now() - started),
          markInterruptAsFailure: true,
        });
      } catch (error) {
        const exits = run.exits.map(
          (exit) => `exit ${exit.code}/${exit.signal} during ${exit.during}\n${exit.stderrTail}`,
        );
        throw new Error(`${(error as Error).message}\n\nGateway exits:\n${exits.join('\n\n') || 'none'}`);
      }
      const after = await run.memoryAfterGc();
      const grew = after.rss - before.rss;
      const { latencies, failures } = run.probe;
      console.log(
        `fuzz: ${run.checks} requests (seed ${SEED}), after GC RSS ${Math.round(before.rss)} MB + ${Math.round(grew)} MB, ` +
          `heap ${Math.round(before.heapUsed)} MB + ${Math.round(after.heapUsed - before.heapUsed)} MB, probe ` +
          `${latencies.length} answered, p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms`,
      );
      expect(run.exits).toEqual([]);
      expect(run.alive).toBe(true);
      expect(failures).toEqual([]);
      expect(grew).toBeLessThan(RSS_GROWTH_BOUND_MB);
    },
    TIMEOUT_MS,
  );
});
