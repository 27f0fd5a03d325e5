import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaptureApp, startCaptureApp } from './helpers/capture-app.js';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';
import { countReaches, STALL_MS } from './helpers/progress.js';
import { reachableHeap } from './helpers/reachable-heap.js';

/** Enough requests that a per-request cost shows far above the noise of the gateway's own caches. */
const REQUESTS = Number(process.env.STAGEGRAPH_NETWORK_MEMORY_REQUESTS ?? 2_000);
/**
 * What capture may keep reachable in the gateway's process after a flood: the network ring (500 entries of
 * ~1-2 KB with headers) and slack for caches. Capture through Playwright's request events kept ~25 KB per
 * finished request until the page closed (~49 MB for 2,000), and stubs on Playwright routes kept ~20 KB of
 * Route and Request objects per request they matched (~39 MB for 2,000): either fails this bound several
 * times over.
 */
const HEAP_GROWTH_LIMIT_BYTES = 12 * 1024 * 1024;
/**
 * A safety net only: the flood is waited out by its count, however slowly a loaded machine captures it
 * (~90 requests a second at load 20 on 2 cores), and a count that stops short fails sooner.
 */
const FLOOD_TEST_TIMEOUT_MS = 15 * 60_000;
/**
 * A click that starts the flood settles while the page is busy fetching, and the page's last words come
 * after its last request: the gateway's 5 s is too tight for either on a loaded machine, 30 s its most.
 */
const BUSY_PAGE_TIMEOUT_MS = 30_000;

let app: CaptureApp;
beforeAll(async () => {
  app = await startCaptureApp(`?autostart&requests=${REQUESTS}`);
}, 2 * STALL_MS);
afterAll(() => app?.stop());

const total = async () => (await app.data('{ session { network { total } } }')).session.network.total;

/** Runs a flood of REQUESTS captured requests and returns the reachable heap growth it left behind. */
async function flood(start: () => Promise<void>, expectedTotal: number, label: string): Promise<number> {
  const heapBefore = reachableHeap();
  const started = Date.now();
  await start();
  await countReaches(total, expectedTotal, 'requests captured');
  const seconds = (Date.now() - started) / 1000;
  const growth = reachableHeap() - heapBefore;
  console.log(
    `network memory, ${label}: ${REQUESTS} requests captured in ${seconds.toFixed(1)} s (${(REQUESTS / seconds).toFixed(0)}/s); reachable heap growth ${(growth / 1024 / 1024).toFixed(1)} MB (${(((growth / REQUESTS) * 1000) / 1024 / 1024).toFixed(2)} MB per 1,000 requests)`,
  );
  return growth;
}

describe('network capture memory', () => {
  it(
    'keeps what the gateway holds bounded while a page makes thousands of captured requests',
    async () => {
      await app.data('mutation { startNetworkCapture(filter: { urlPatterns: ["*/api/ping*"] }) { id } }');
      const growth = await flood(async () => app.startFlood(), REQUESTS, 'capture');
      expect(growth).toBeLessThan(HEAP_GROWTH_LIMIT_BYTES);
      await app.textIs('flood-result', `Flooded: 0 lines, ${REQUESTS} requests`, BUSY_PAGE_TIMEOUT_MS);
    },
    FLOOD_TEST_TIMEOUT_MS,
  );

  it(
    'stays bounded with a stub active that none of the requests match',
    async () => {
      await app.data('mutation { stubNetwork(input: { pattern: "*/never/*", status: 500 }) { id } }');
      const growth = await flood(
        () => app.click('flood', BUSY_PAGE_TIMEOUT_MS),
        REQUESTS * 2,
        'capture and a stub',
      );
      expect(growth).toBeLessThan(HEAP_GROWTH_LIMIT_BYTES);
    },
    FLOOD_TEST_TIMEOUT_MS,
  );

  it(
    'stays bounded with a stub active that answers every request',
    async () => {
      await app.data(
        'mutation { stubNetwork(input: { pattern: "*/api/ping?n=*", body: "stubbed" }) { id } }',
      );
      const growth = await flood(
        () => app.click('flood', BUSY_PAGE_TIMEOUT_MS),
        REQUESTS * 3,
        'capture and a stub answering all',
      );
      expect(growth).toBeLessThan(HEAP_GROWTH_LIMIT_BYTES);
      const stubbed = await app.data('{ session { network(last: 1) { entries { stubId } } } }');
      expect(stubbed.session.network.entries[0].stubId).not.toBeNull();
    },
    FLOOD_TEST_TIMEOUT_MS,
  );
});

reportRealElectronSkipped('network capture memory');
