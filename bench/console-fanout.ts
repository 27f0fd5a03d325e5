// Console events from a page to 1 and to 50 graphql-ws subscribers through the whole gateway (stand-in
// app, capture page), against the raw CDP rate (Runtime.consoleAPICalled on plain Chromium showing the same
// page) in the same run. The page logs `flood <i> <Date.now()>` lines as fast as it can once released, so
// latency is page-to-subscriber; rates are measured from the first delivery to the last line's arrival.
// The subscribers run in this process, next to the gateway: their JSON parsing shares its cores, so the
// gateway figures are a lower bound.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { launchChromium } from '../test/helpers/browser.js';
import { startCaptureApp, startCaptureServer } from '../test/helpers/capture-app.js';
import { type TalliedDelivery, talliedClient } from '../test/helpers/stream-tally.js';
import { summarise } from './stats.js';

const LINES = Number(process.env.BENCH_LINES ?? 20_000);
const FAN_OUTS = (process.env.BENCH_FAN_OUTS ?? '1,50').split(',').map(Number);
/** A run that has not seen the last line by then has stalled; the figures would say so. */
const RUN_TIMEOUT_MS = 180_000;
/** Every Nth line's latency is kept: enough for a p95, without the bench's own samples skewing the heap. */
const LATENCY_SAMPLE_EVERY = 10;
const POLL_MS = 20;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const reachableHeapMb = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${RUN_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

/** The same page in plain Chromium, read over a bare CDP session: what the browser itself emits. */
async function rawCdpRate(): Promise<number> {
  const server = await startCaptureServer();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Runtime.enable');
    let seen = 0;
    let first = 0;
    let last = 0;
    cdp.on('Runtime.consoleAPICalled', (event) => {
      if (!String(event.args[0]?.value ?? '').startsWith('flood ')) return;
      seen += 1;
      last = performance.now();
      if (seen === 1) first = last;
    });
    await page.goto(`${server.url}/?autostart&lines=${LINES}`);
    server.startFlood();
    await until(() => seen === LINES, 'the raw CDP flood');
    return (LINES - 1) / ((last - first) / 1000);
  } finally {
    await browser.close();
    await server.close();
  }
}

async function gatewayRun(fanOut: number) {
  const app = await startCaptureApp(`?autostart&lines=${LINES}`);
  try {
    const latencies: number[] = [];
    let first = 0;
    let finished = 0;
    const onDelivery = ({ entry }: TalliedDelivery) => {
      const [, line, stamp] = (entry.text ?? '').split(' ');
      if (first === 0) first = performance.now();
      if (Number(line) % LATENCY_SAMPLE_EVERY === 0) latencies.push(Date.now() - Number(stamp));
      if (Number(line) === LINES) finished += 1;
    };
    const query = `subscription { console(session: "${app.sessionId}", textContains: "flood ") { droppedBefore entry { seq text } } }`;
    const clients = await Promise.all(
      Array.from({ length: fanOut }, () =>
        talliedClient(app.gateway.wsUrl, [{ field: 'console', query, onDelivery }]),
      ),
    );
    await until(() => app.gateway.gateway.hub.subscriberCount === fanOut, 'subscribing');
    const heapBefore = reachableHeapMb();
    app.startFlood();
    await until(() => finished === fanOut, 'delivering the last line to every subscriber');
    const seconds = (performance.now() - first) / 1000;
    const heapAfter = reachableHeapMb();
    const delivered = clients.reduce((sum, client) => sum + (client.tallies[0]?.delivered ?? 0), 0);
    const dropped = clients.reduce((sum, client) => sum + (client.tallies[0]?.dropped ?? 0), 0);
    for (const client of clients) client.close();
    return { fanOut, delivered, dropped, seconds, latency: summarise(latencies), heapBefore, heapAfter };
  } finally {
    await app.stop();
  }
}

const reference = await rawCdpRate();
const runs = [];
for (const fanOut of FAN_OUTS) runs.push(await gatewayRun(fanOut));

console.log(`## Console fan-out: ${LINES} lines from the page (node ${process.version})\n`);
console.log(
  `Raw CDP (Runtime.consoleAPICalled, plain Chromium, same page): ${Math.round(reference)} lines/s\n`,
);
console.log(
  '| subscribers | delivered | dropped | deliveries/s | lines/s | vs raw CDP | p50 ms | p95 ms | heap before → after MB |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const run of runs) {
  const lines = (run.delivered + run.dropped) / run.fanOut / run.seconds;
  console.log(
    `| ${run.fanOut} | ${run.delivered} | ${run.dropped} | ${Math.round(run.delivered / run.seconds)} | ${Math.round(lines)} | ${(lines / reference).toFixed(2)}x | ${run.latency.median.toFixed(0)} | ${run.latency.p95.toFixed(0)} | ${run.heapBefore.toFixed(1)} → ${run.heapAfter.toFixed(1)} |`,
  );
}
