// Network capture of a page making N requests (8 at a time), through four listeners in one process, one
// fresh page each: a bare CDP listener that only counts loadingFinished (the reference: what the page and
// the protocol deliver), the capture tracker on the page's raw CDP session (what Stagegraph uses),
// Playwright's context request events (the old path, now the fallback), and Stagegraph's whole network
// control capturing with a stub that matches (and lets through) every request. Each builds the same
// capture record per request. Figures: requests captured per second, and the reachable heap the listener still holds once
// every request is captured, with the page still open.
import { createServer } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.js';
import { listenOnLoopback } from '../test/helpers/loopback-server.js';
import { reachableHeap } from '../test/helpers/reachable-heap.js';
import { PlaywrightNetwork } from '../transports/page-engine/network/capture.js';
import { CdpRequestTracker } from '../transports/page-engine/network/cdp-requests.js';
import { PlaywrightRequestEvents } from '../transports/page-engine/network/playwright-requests.js';
import {
  ArmedCapture,
  captureRecord,
  type FinishedRequest,
} from '../transports/page-engine/network/record.js';
import { summarise } from './stats.js';

const N = Number(process.env.BENCH_NETWORK_N ?? 2_000);
const ROUNDS = Number(process.env.BENCH_NETWORK_ROUNDS ?? 3);
const PARALLEL = 8;
const WARMUP_REQUESTS = 200;
/** The longest one path may take to capture N requests. */
const CAPTURE_TIMEOUT_MS = 120_000;

const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'b=1' }).end('pong');
});
const origin = await listenOnLoopback(server);
const capture = new ArmedCapture({ filter: {}, bodies: false, binaryBodies: false, maxBodyBytes: 0 });

interface Listener {
  start(page: Page, captured: (request: FinishedRequest | null) => void): Promise<() => Promise<void>>;
}

/** A stub matching every request that lets each through unchanged: what interception costs, not answering. */
const STUB_EVERY_REQUEST = {
  pattern: `${origin}/ping*`,
  methods: [],
  status: null,
  headers: {},
  body: null,
  abort: false,
  delayMs: 0,
  times: null,
};

const LISTENERS: Record<string, Listener> = {
  'bare CDP listener (counts loadingFinished)': {
    async start(page, captured) {
      const session = await page.context().newCDPSession(page);
      session.on('Network.loadingFinished', () => captured(null));
      await session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
      return () => session.detach();
    },
  },
  'CDP capture tracker (Stagegraph)': {
    async start(page, captured) {
      const session = await page.context().newCDPSession(page);
      const tracker = new CdpRequestTracker(page, session, captured);
      await tracker.start(false);
      return async () => {
        await tracker.stop();
        await session.detach();
      };
    },
  },
  'Playwright request events (old path, fallback)': {
    async start(page, captured) {
      const events = new PlaywrightRequestEvents(page.context(), () => false, captured);
      events.start();
      return async () => events.stop();
    },
  },
  'Stagegraph capture with a stub matching every request': {
    async start(page, captured) {
      const network = new PlaywrightNetwork(
        page.context(),
        () => undefined,
        () => captured(null),
      );
      await network.arm('capture', capture.spec);
      await network.stub('stub', STUB_EVERY_REQUEST);
      return async () => {
        await network.unstub('stub');
        await network.disarm('capture');
      };
    },
  },
};

async function measure(browser: Browser, listener: Listener, count = N) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  let captured = 0;
  let done: () => void = () => {};
  const all = new Promise<void>((resolve, reject) => {
    done = resolve;
    setTimeout(() => reject(new Error(`captured ${captured} of ${count}`)), CAPTURE_TIMEOUT_MS);
  });
  const stop = await listener.start(page, (request) => {
    const counted = () => {
      captured += 1;
      if (captured === count) done();
    };
    if (!request) return counted();
    void captureRecord(request, [capture], null, null).then(counted);
  });
  const heapBefore = reachableHeap();
  const started = performance.now();
  // A string, not a function: tsx names functions with a helper the page does not have.
  await page.evaluate(`(async () => {
    let next = 0;
    const worker = async () => {
      while (next < ${count}) {
        next += 1;
        await fetch('/ping?n=' + next).then((response) => response.text());
      }
    };
    await Promise.all(Array.from({ length: ${PARALLEL} }, worker));
  })()`);
  await all;
  const seconds = (performance.now() - started) / 1000;
  const held = reachableHeap() - heapBefore;
  await stop();
  await context.close();
  return { perSecond: count / seconds, heldMb: held / 1024 / 1024 };
}

const browser = await launchChromium();
try {
  console.log(
    `## Network capture (${N} requests, ${PARALLEL} at a time, one page per listener, median of ${ROUNDS} rounds)\n`,
  );
  console.log(
    '| listener | requests/s (median) | vs reference | heap held after, MB (max) | MB per 1,000 requests |',
  );
  console.log('|---|---|---|---|---|');
  // Untimed, so that the browser's and this process's first-use costs fall on no listener.
  for (const listener of Object.values(LISTENERS)) await measure(browser, listener, WARMUP_REQUESTS);
  // Rounds alternate the listeners so that they share the machine's noise; the median rate and the largest
  // heap held are reported.
  const results = new Map<string, { rates: number[]; heldMb: number }>();
  for (let round = 0; round < ROUNDS; round += 1)
    for (const [name, listener] of Object.entries(LISTENERS)) {
      const { perSecond, heldMb } = await measure(browser, listener);
      const result = results.get(name) ?? { rates: [], heldMb: 0 };
      result.rates.push(perSecond);
      result.heldMb = Math.max(result.heldMb, heldMb);
      results.set(name, result);
    }
  let reference: number | undefined;
  for (const [name, { rates, heldMb }] of results) {
    const perSecond = summarise(rates).median;
    reference ??= perSecond;
    console.log(
      `| ${name} | ${perSecond.toFixed(0)} | ${(perSecond / reference).toFixed(2)}x | ${heldMb.toFixed(1)} | ${((heldMb / N) * 1000).toFixed(2)} |`,
    );
  }
} finally {
  await browser.close();
  server.close();
}
