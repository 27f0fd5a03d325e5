import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { causeChain } from '../errors/cause-chain.js';
import { CAPTURE_TARGETS, type CaptureApp } from './helpers/capture-app.js';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';
import { heapBaseline } from './helpers/heap-growth.js';
import { countReaches, STALL_MS, whileMoving } from './helpers/progress.js';
import { megabytes, reachableMemory } from './helpers/reachable-heap.js';
import { type TalliedDelivery, talliedClient } from './helpers/stream-tally.js';

/** The flood; smaller figures through the environment for a quick local run only. */
const LINES = Number(process.env.STAGEGRAPH_FLOOD_LINES ?? 100_000);
const REQUESTS = Number(process.env.STAGEGRAPH_FLOOD_REQUESTS ?? 5_000);
/**
 * Bounded, the gateway holds the console ring (1,000 entries), the network ring (500) and at most 1,000
 * deliveries per subscription queue: ~10 MB measured together with Playwright's own bounded buffers.
 * Unbounded, 100,000 console entries alone would be ~40 MB, 5,000 requests with headers ~10 MB, and
 * Playwright's request objects ~125 MB (~25 KB each, before capture moved to the raw CDP session).
 */
const RETAINED_GROWTH_LIMIT_BYTES = 20 * 1024 * 1024;
/**
 * A safety net only: the waits follow the flood's own counts for as long as they keep rising, however
 * slowly a loaded machine takes the flood in, and a count that stops short fails sooner.
 */
const FLOOD_TEST_TIMEOUT_MS = 20 * 60_000;
/**
 * The stalled client answers no ping while it reads nothing, and graphql-ws closes a socket that misses
 * one (12 s by default, which the flood outlasts). This gateway waits out the whole flood, so the
 * client is stalled for as long as the page floods and is then told, not cut off.
 */
const KEEP_ALIVE_MS = FLOOD_TEST_TIMEOUT_MS;
/** The page's own waits on a loaded machine: the most the gateway allows, rather than its 5 s default. */
const PAGE_WAIT_MS = 30_000;

/**
 * Aliases of the whole entry in each of the stalled client's messages (~10 KB each): the few MB of kernel
 * socket buffers then hold a few hundred, so its queues, not the kernel, absorb the flood.
 */
const PADDING_ALIASES = 48;
/** `wide`: messages padded with aliases, so a stalled client's kernel buffers fill with few entries. */
const subscriptions = (session: string, onConsole?: (delivery: TalliedDelivery) => void, wide = false) => [
  {
    field: 'console',
    query: `subscription { console(session: "${session}") { droppedBefore entry { seq text } ${
      wide
        ? Array.from(
            { length: PADDING_ALIASES },
            (_, i) => `pad${i}: entry { sessionId time type text source windowId location }`,
          ).join(' ')
        : ''
    } } }`,
    ...(onConsole ? { onDelivery: onConsole } : {}),
  },
  {
    field: 'network',
    query: `subscription { network(session: "${session}") { droppedBefore entry { seq } } }`,
  },
];

for (const target of CAPTURE_TARGETS) {
  describe(`a page flooding console and network (${target.name})`, () => {
    let app: CaptureApp;
    beforeAll(async () => {
      app = await target.start(`?autostart&lines=${LINES}&requests=${REQUESTS}`, {
        keepAliveMs: KEEP_ALIVE_MS,
      });
    }, 2 * STALL_MS);
    afterAll(() => app?.stop());

    it(
      'keeps memory bounded, feeds a reading subscriber every event it did not report lost, and tells a stalled one what it lost',
      async () => {
        // The page's last line is the newest when the flood ends, so a drop-oldest queue always delivers it.
        const isLastLine = (delivery: TalliedDelivery) => delivery.entry.text?.startsWith(`flood ${LINES} `);
        let readerSawLastLine = false;
        let stalledSawLastLine = false;
        const reader = await talliedClient(
          app.gateway.wsUrl,
          subscriptions(app.sessionId, (delivery) => {
            readerSawLastLine ||= isLastLine(delivery) === true;
          }),
        );
        const stalled = await talliedClient(
          app.gateway.wsUrl,
          subscriptions(
            app.sessionId,
            (delivery) => {
              stalledSawLastLine ||= isLastLine(delivery) === true;
            },
            true,
          ),
        );
        await countReaches(() => app.gateway.gateway.hub.subscriberCount, 4, 'subscribers');
        await app.data('mutation { startNetworkCapture(filter: { urlPatterns: ["*/api/ping*"] }) { id } }');
        const TOTALS =
          '{ session { status console(last: 1) { total overflowed } network { total droppedInFlight } } }';
        // The heap baseline below stops this process for up to about a minute on a loaded machine: about as
        // long as the server keeps an idle keep-alive connection (65 s). A read sent on one just as the
        // server's overdue idle timer fires is reset before the server reads it (ECONNRESET). This read
        // changes nothing, so it is sent once more.
        const totals = async () => {
          const { session } = await app.data(TOTALS).catch((error: unknown) => {
            if (!causeChain(error).some((cause) => (cause as NodeJS.ErrnoException).code === 'ECONNRESET'))
              throw error;
            return app.data(TOTALS);
          });
          return session;
        };

        // Past the bound, the failure says what the growth is made of.
        const baseline = await heapBaseline();
        onTestFinished(() => baseline.discard());
        const before = reachableMemory();
        stalled.pause();
        app.startFlood();
        const started = Date.now();
        // The stalled client reads nothing for the whole flood: until the last line reaches the reader and
        // every request is recorded, waited for as long as lines reach the reader or requests are recorded.
        await whileMoving(
          async () => ({
            readerSawLastLine,
            lines: reader.tallies[0]?.lastSeq,
            requests: (await totals()).network.total,
          }),
          (seen) => seen.readerSawLastLine && seen.requests === REQUESTS,
          'the flood reaching the reader and the network buffer',
        );
        const floodSeconds = (Date.now() - started) / 1000;
        // Measured while the stalled client still reads nothing: everything it is owed is held right now.
        const growthStalled = reachableMemory() - before;
        console.log(
          `flood: ${LINES} lines + ${REQUESTS} requests in ${floodSeconds.toFixed(0)} s; retained growth ${megabytes(growthStalled)} MB with a stalled subscriber`,
        );
        baseline.expectWithin(growthStalled, RETAINED_GROWTH_LIMIT_BYTES, 'with a stalled subscriber');
        const session = await totals();
        expect(session.status).toBe('RUNNING');
        expect(session.console.overflowed).toBeGreaterThan(0);
        expect(session.network.droppedInFlight).toBe(0);
        stalled.resume();

        // The reader saw every event from its first on, each either delivered or reported lost.
        const [readerConsole, readerNetwork] = reader.tallies;
        await countReaches(() => readerNetwork?.lastSeq, REQUESTS, "the reader's last request");
        expect(readerConsole?.unaccounted).toBe(0);
        expect(readerConsole?.delivered).toBeGreaterThan(0);
        expect(readerNetwork).toMatchObject({ unaccounted: 0, firstSeq: 1 });
        expect((readerNetwork?.delivered ?? 0) + (readerNetwork?.dropped ?? 0)).toBe(REQUESTS);
        expect(reader.errors).toEqual([]);

        // The stalled client catches up on what its queues kept, is told how many it lost of each, and
        // nothing is lost without being told.
        const [stalledConsole, stalledNetwork] = stalled.tallies;
        await whileMoving(
          () => ({ stalledSawLastLine, lines: stalledConsole?.lastSeq, requests: stalledNetwork?.lastSeq }),
          (seen) => seen.stalledSawLastLine && seen.requests === REQUESTS,
          'the stalled client catching up',
        );
        expect(stalledConsole?.dropped).toBeGreaterThan(0);
        expect(stalledNetwork?.dropped).toBeGreaterThan(0);
        expect(stalledConsole?.unaccounted).toBe(0);
        expect(stalledNetwork?.unaccounted).toBe(0);
        expect((stalledNetwork?.delivered ?? 0) + (stalledNetwork?.dropped ?? 0)).toBe(REQUESTS);
        expect(stalled.errors).toEqual([]);
        const growthAfter = reachableMemory() - before;
        console.log(
          `flood: retained growth ${megabytes(growthAfter)} MB once caught up; reader console ${JSON.stringify(readerConsole)}; stalled console ${JSON.stringify(stalledConsole)}; stalled network ${JSON.stringify(stalledNetwork)}`,
        );
        baseline.expectWithin(growthAfter, RETAINED_GROWTH_LIMIT_BYTES, 'once caught up');

        reader.close();
        stalled.close();
        await expect.poll(() => app.gateway.gateway.hub.subscriberCount, { timeout: STALL_MS }).toBe(0);
        // The server still answers, and the page is alive and done.
        await app.textIs('flood-result', `Flooded: ${LINES} lines, ${REQUESTS} requests`, PAGE_WAIT_MS);
      },
      FLOOD_TEST_TIMEOUT_MS,
    );
  });
}

reportRealElectronSkipped('a page flooding console and network');
