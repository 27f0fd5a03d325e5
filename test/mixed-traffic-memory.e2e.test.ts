import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { heapBaseline } from './helpers/heap-growth.js';
import { mixedOperation, rawGraphqlWs, sendOverHttp } from './helpers/mixed-traffic.js';
import { megabytes, reachableUsage } from './helpers/reachable-heap.js';

/** The figure; fewer through the environment for a quick local run only. */
const OPERATIONS = Number(process.env.STAGEGRAPH_MIXED_OPERATIONS ?? 10_000);
/** Sent before the baseline: what any gateway holds once it has served each kind (its compiled code) is not growth. */
const WARM_UP = 300;
/** Operations in flight at once: a few careless agents, not a flood (the flood has its own test). */
const IN_FLIGHT = 8;
/**
 * Bounded, the gateway keeps its document cache (at most 500 valid documents and 1,000,000 characters
 * of them, with their compiled queries) and nothing per request: 10,000 operations left 1.8 MB. Before,
 * yoga's caches kept 1,024 documents and 1,024 parse errors whatever their size, failed validations
 * with their captured stacks, and graphql-jit compiled every new document (V8 keeping each generated
 * source, 100 KB arguments inline): 245 MB, and rising.
 */
const RETAINED_GROWTH_LIMIT_BYTES = 32 * 1024 * 1024;
/** A safety net for a loaded machine, not a measure: 10,000 operations took 3 to 12 minutes at load 15–60. */
const TEST_TIMEOUT_MS = 40 * 60_000;

describe('mixed valid and invalid traffic over HTTP, GET and graphql-ws', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway?.stop());

  /** Sends operations `from` to `from + count` of the mix; answers how each kind was answered, counted. */
  async function send(from: number, count: number): Promise<Map<string, number>> {
    const ws = rawGraphqlWs(gateway.wsUrl);
    const answers = new Map<string, number>();
    let next = from;
    const sender = async () => {
      while (next < from + count) {
        const operation = mixedOperation(next);
        next += 1;
        const answer =
          operation.via === 'WS'
            ? await ws.send(operation.query)
            : String(await sendOverHttp(gateway.url, operation));
        const key = `${operation.via} ${operation.kind}: ${answer}`;
        answers.set(key, (answers.get(key) ?? 0) + 1);
      }
    };
    try {
      await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    } finally {
      await ws.close();
    }
    return answers;
  }

  it(
    `${OPERATIONS} operations, each document new, leave the reachable heap within a bound`,
    async () => {
      await send(0, WARM_UP);
      const baseline = await heapBaseline();
      try {
        const before = reachableUsage();
        const answers = await send(WARM_UP, OPERATIONS);
        const after = reachableUsage();
        const growth = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
        console.log(
          `${OPERATIONS} mixed operations: reachable heap ${megabytes(after.heapUsed - before.heapUsed)} MB, buffers ${megabytes(after.arrayBuffers - before.arrayBuffers)} MB`,
          Object.fromEntries(answers),
        );
        baseline.expectWithin(growth, RETAINED_GROWTH_LIMIT_BYTES, `${OPERATIONS} mixed operations`);
        // Every operation was answered: by a status over HTTP, by `complete` or `error` over graphql-ws.
        expect([...answers.values()].reduce((sum, n) => sum + n, 0)).toBe(OPERATIONS);
        expect([...answers.keys()].filter((key) => !/: (\d{3}|complete|error)$/.test(key))).toEqual([]);
        expect([...answers.keys()].filter((key) => /: 5\d\d$/.test(key))).toEqual([]);
      } finally {
        baseline.discard();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
