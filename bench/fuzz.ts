// The schema fuzz (issue 31) as a measurement: the generator of test/fuzz/ run at 10,000 requests against
// `stagegraph serve --demo` in a child process, every answer judged but nothing asserted, with the
// `{ __typename }` probe beside it. Prints the operations sent, the gateway's exits, the INTERNAL answers, the
// memory growth after a forced full collection (RSS and V8 heap, read through the gateway's test inspector),
// the probe's p50/p99, and each distinct failure with a request that shows it.
// Run: `npx tsx bench/fuzz.ts`; BENCH_FUZZ_OPERATIONS (default 10000) and BENCH_FUZZ_SEED set the run;
// BENCH_FUZZ_HEAP_SNAPSHOTS=<folder> also writes the gateway's heap at the start and the end, to compare in
// DevTools (Memory, Comparison) when the growth needs explaining.

import os from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { FuzzRun } from '../test/fuzz/harness.js';
import { type Violation, violationClass } from '../test/fuzz/judge.js';
import { quantile } from '../test/fuzz/probe.js';
import { describeRequest, type FuzzRequest, shorten } from '../test/fuzz/requests.js';

const OPERATIONS = Number(process.env.BENCH_FUZZ_OPERATIONS ?? 10_000);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 31);
/** Failure classes listed, most frequent first. */
const CLASSES_SHOWN = 40;

/** Progress goes to stderr every this many requests, and each new kind of failure as it is first seen. */
const PROGRESS_EVERY = 100;
/**
 * BENCH_FUZZ_COLLECT_EVERY=N adds the memory after a forced collection to every Nth request's progress line,
 * to see where in a run memory stays. Off by default: collections mid-run change what the end reads.
 */
const COLLECT_EVERY = Number(process.env.BENCH_FUZZ_COLLECT_EVERY ?? 0);
const SNAPSHOTS = process.env.BENCH_FUZZ_HEAP_SNAPSHOTS;

// A stopped bench (Ctrl-C, a timeout's SIGTERM) still takes its gateway down: the 'exit' hooks run.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
const run = await FuzzRun.open();
const started = performance.now();
if (SNAPSHOTS) await run.writeHeapSnapshot(join(SNAPSHOTS, `fuzz-${SEED}-start.heapsnapshot`));
const before = await run.memoryAfterGc();
const classes = new Map<string, { count: number; example: string; shortest: number }>();
let internal = 0;
let failing = 0;
let stoppedBy: string | undefined;

async function record(request: FuzzRequest, violations: readonly Violation[]): Promise<void> {
  if (violations.length > 0) failing += 1;
  if (run.checks % PROGRESS_EVERY === 0) {
    const collected =
      run.alive && COLLECT_EVERY > 0 && run.checks % COLLECT_EVERY === 0
        ? await run.memoryAfterGc()
        : undefined;
    console.error(
      `${run.checks} requests, ${failing} with a violation, ${classes.size} kinds, ${run.exits.length} exits, RSS ${run.alive ? run.residentMegabytes().toFixed(0) : '—'} MB` +
        (collected
          ? `; after GC RSS ${collected.rss.toFixed(0)} MB, heap ${collected.heapUsed.toFixed(0)} MB, external ${collected.external.toFixed(0)} MB`
          : ''),
    );
  }
  for (const violation of violations) {
    if (violation.kind === 'INTERNAL') internal += 1;
    const key = violationClass(violation);
    const described = describeRequest(request);
    const known = classes.get(key);
    if (!known) console.error(`new: ${key}\n  e.g. ${shorten(described, 300)}`);
    // The shortest request of a class is the clearest example of it.
    if (!known || described.length < known.shortest)
      classes.set(key, {
        count: (known?.count ?? 0) + 1,
        example: `${shorten(described, 300)}\n      → ${shorten(violation.detail, 300)}`,
        shortest: described.length,
      });
    else known.count += 1;
  }
}

try {
  const examples = run.examples(SEED);
  for (const request of examples) await record(request, await run.check(request));
  await fc.check(
    fc.asyncProperty(run.requests.any, async (request) => {
      await record(request, await run.check(request));
      return true;
    }),
    { numRuns: Math.max(0, OPERATIONS - examples.length), seed: SEED },
  );
} catch (error) {
  stoppedBy = (error as Error).message;
}
const seconds = (performance.now() - started) / 1_000;
const after = run.alive ? await run.memoryAfterGc() : undefined;
if (SNAPSHOTS && run.alive) await run.writeHeapSnapshot(join(SNAPSHOTS, `fuzz-${SEED}-end.heapsnapshot`));
const grew = (part: 'rss' | 'heapUsed') =>
  after
    ? `${(after[part] - before[part]).toFixed(0)} MB (${before[part].toFixed(0)} → ${after[part].toFixed(0)})`
    : '—';
const { latencies, failures } = run.probe;
await run.close();

console.log(`## Schema fuzz (bench/fuzz.ts), seed ${SEED}\n`);
console.log(
  '| operations | process exits | INTERNAL answers | requests with a violation | RSS growth after GC | heap growth after GC | probe p50 | probe p99 | probe failures | wall | load (1 min) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
console.log(
  `| ${run.checks} | ${run.exits.length} | ${internal} | ${failing} | ${grew('rss')} | ${grew('heapUsed')} | ` +
    `${quantile(latencies, 0.5).toFixed(1)} ms | ${quantile(latencies, 0.99).toFixed(1)} ms | ${failures.length} | ${seconds.toFixed(0)} s | ${os.loadavg()[0]?.toFixed(1)} |`,
);
if (stoppedBy) console.log(`\nThe run stopped early: ${stoppedBy}`);
for (const exit of run.exits)
  console.log(
    `\nExit ${exit.code}/${exit.signal} during: ${shorten(exit.during, 300)}\n${exit.stderrTail.slice(-1_500)}`,
  );
const codes = [...run.codes].sort(([, a], [, b]) => b - a).map(([code, count]) => `${code} ${count}`);
console.log(`\nResults with data and no error: ${run.cleanData}. Codes answered: ${codes.join(', ')}.`);
console.log(`\n### Distinct failures (${classes.size})\n`);
for (const [key, { count, example }] of [...classes]
  .sort(([, a], [, b]) => b.count - a.count)
  .slice(0, CLASSES_SHOWN))
  console.log(`- ${count} × ${key}\n      e.g. ${example}`);
