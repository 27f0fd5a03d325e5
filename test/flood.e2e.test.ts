import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FLOOD_ENABLED = process.env.STAGEGRAPH_FLOOD === '1';

import { type CaptureApp, startCaptureApp } from './helpers/capture-app.js';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';
import { type TalliedDelivery, talliedClient } from './helpers/stream-tally.js';

/**
 * The flood is 100,000 lines and 5,000 requests (`STAGEGRAPH_FLOOD_LINES=100000
 * STAGEGRAPH_FLOOD_REQUESTS=5000`). By default the suite runs a fifth of that: still 20 times the console
 * ring and every queue, so every bound is crossed many times over, but it fits the suite's time on a loaded
 * 2-core machine, where the gateway takes only ~800-1,700 console lines/s through Playwright
 * (bench/RESULTS.md, "Console fan-out").
 */
const LINES = Number(process.env.STAGEGRAPH_FLOOD_LINES ?? 20_000);
const REQUESTS = Number(process.env.STAGEGRAPH_FLOOD_REQUESTS ?? 2_000);
/**
 * Held entries of a 100,000-line flood would be ~40 MB of console entries and ~10 MB of network entries with
 * headers; bounded, the rings hold 1,000 + 500 and each subscriber queue at most 1,000 per subscription, a
 * few MB together. The rest of the limit is slack for the gateway's own caches.
 */
const HEAP_GROWTH_LIMIT_BYTES = 25 * 1024 * 1024;
/**
 * NOT bounded, and not the gateway's: Playwright keeps every finished request's objects until its page
 * closes, ~25 KB each (measured here: 2,000 requests, 50 MB; 20,000 console lines, 3.6 MB). Allowed for
 * explicitly so the rest stays asserted; releasing them needs a change below the transport contract.
 */
const PLAYWRIGHT_BYTES_PER_REQUEST = 30 * 1024;
/** The slowest ingestion the waits allow for, in events a second: a third of what a loaded machine does. */
const SLOWEST_EVENTS_PER_S = 300;
const FLOOD_TIMEOUT_MS = 30_000 + ((LINES + REQUESTS) / SLOWEST_EVENTS_PER_S) * 1000;
/**
 * How long the stalled client reads nothing, while the flood runs: below graphql-ws's 12 s keep-alive, past
 * which the server rightly closes a client that answers no ping (a stalled client is then gone, not told).
 */
const STALL_MS = 10_000;
/** Once resumed, the stalled client reads its bounded backlog (its queue plus kernel buffers). */
const CATCH_UP_TIMEOUT_MS = 60_000;

// heapUsed counts garbage not yet collected; measure only what is still reachable.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
function reachableHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

let app: CaptureApp;
beforeAll(async () => {
  app = await startCaptureApp(`?autostart&lines=${LINES}&requests=${REQUESTS}`);
}, 60_000);
afterAll(() => app?.stop());

/**
 * Aliases of the whole entry in each of the stalled client's messages (~10 KB each): the few MB of kernel
 * socket buffers then hold a few hundred, so even a slow flood overflows its queue within the stall.
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

// Opt-in (STAGEGRAPH_FLOOD=1) until it is robust: its stall must see the page out-produce a subscriber's
// queue and socket buffers within the server's 12 s keep-alive, which a loaded machine does not always manage
// (issue #4 stays open for it).
describe.skipIf(!FLOOD_ENABLED)('a page flooding console and network', () => {
  it(
    'keeps memory bounded, feeds a reading subscriber every event it did not report lost, and tells a stalled one what it lost',
    async () => {
      let lastFloodLine = 0;
      const reader = await talliedClient(
        app.gateway.wsUrl,
        subscriptions(app.sessionId, ({ entry }) => {
          if (entry.text?.startsWith(`flood ${LINES} `)) lastFloodLine = LINES;
        }),
      );
      const stalled = await talliedClient(app.gateway.wsUrl, subscriptions(app.sessionId, undefined, true));
      await expect.poll(() => app.gateway.gateway.hub.subscriberCount).toBe(4);
      await app.data('mutation { startNetworkCapture(filter: { urlPatterns: ["*/api/ping*"] }) { id } }');

      const heapBefore = reachableHeap();
      stalled.pause();
      app.startFlood();
      const started = Date.now();
      await new Promise((resolve) => setTimeout(resolve, STALL_MS));
      // Measured while the stalled client reads nothing: everything it is owed is held right now.
      const growth = reachableHeap() - heapBefore;
      stalled.resume();
      expect(growth).toBeLessThan(HEAP_GROWTH_LIMIT_BYTES + REQUESTS * PLAYWRIGHT_BYTES_PER_REQUEST);

      // The last line is the newest, so a drop-oldest queue always delivers it; then every request.
      await expect.poll(() => lastFloodLine, { timeout: FLOOD_TIMEOUT_MS, interval: 100 }).toBe(LINES);
      const networkTotal = async () =>
        (await app.data('{ session { network { total } } }')).session.network.total;
      await expect.poll(networkTotal, { timeout: FLOOD_TIMEOUT_MS, interval: 250 }).toBe(REQUESTS);
      const [readerConsole, readerNetwork] = reader.tallies;
      await expect.poll(() => readerNetwork?.lastSeq, { timeout: FLOOD_TIMEOUT_MS }).toBe(REQUESTS);
      const after = reachableHeap() - heapBefore;
      expect(after).toBeLessThan(HEAP_GROWTH_LIMIT_BYTES + REQUESTS * PLAYWRIGHT_BYTES_PER_REQUEST);

      // The reader saw every event from its first on, each either delivered or reported lost.
      const { session } = await app.data('{ session { status console(last: 1) { total overflowed } } }');
      expect(session.status).toBe('RUNNING');
      expect(session.console.overflowed).toBeGreaterThan(0);
      expect(readerConsole).toMatchObject({ unaccounted: 0, lastSeq: session.console.total });
      expect(readerConsole?.delivered).toBeGreaterThan(0);
      expect(readerNetwork).toMatchObject({ unaccounted: 0, firstSeq: 1 });
      expect((readerNetwork?.delivered ?? 0) + (readerNetwork?.dropped ?? 0)).toBe(REQUESTS);
      expect(reader.errors).toEqual([]);

      const [stalledConsole, stalledNetwork] = stalled.tallies;
      await expect
        .poll(() => [stalledConsole?.lastSeq, stalledNetwork?.lastSeq], { timeout: CATCH_UP_TIMEOUT_MS })
        .toEqual([session.console.total, REQUESTS]);
      // Told how many it lost (what it still got is its queue plus what kernel socket buffers held), and
      // nothing lost without being told.
      expect(stalledConsole?.dropped).toBeGreaterThan(0);
      expect(stalledConsole?.unaccounted).toBe(0);
      expect(stalledNetwork?.unaccounted).toBe(0);
      expect(stalled.errors).toEqual([]);

      reader.close();
      stalled.close();
      await expect.poll(() => app.gateway.gateway.hub.subscriberCount).toBe(0);
      // The server still answers, and the page is alive and done.
      await app.textIs('flood-result', `Flooded: ${LINES} lines, ${REQUESTS} requests`);
      console.log(
        `flood: ${LINES} lines in ${((Date.now() - started) / 1000).toFixed(0)} s; heap growth ${(growth / 1024 / 1024).toFixed(1)} MB stalled, ${(after / 1024 / 1024).toFixed(1)} MB after; reader console ${JSON.stringify(readerConsole)}; stalled console ${JSON.stringify(stalledConsole)}; reader network ${JSON.stringify(readerNetwork)}`,
      );
    },
    FLOOD_TIMEOUT_MS * 2 + 60_000,
  );
});

reportRealElectronSkipped('a page flooding console and network');
