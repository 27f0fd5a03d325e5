// Attach at scale (issue 18): `attach` through the gateway to headless Chromium showing bench/table-page.ts
// at 100, 1,000 and 5,000 rows, each started by hand with a DevTools port, detached between runs, the sizes
// taking turns within each run. The in-run reference is Playwright's own `connectOverCDP` until the first
// page is known (with its default overrides, and with `noDefaults` as the gateway now connects). Besides the answer's time, each row gives
// how long the page stayed busy after it: the work a connect leaves the renderer (a relayout of the whole
// document, for Playwright's default font and media overrides) delays the first read that follows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { chromium } from 'playwright-core';
import { type OutsideProcess, startDebuggableChromium } from '../test/helpers/debuggable.js';
import { startGateway, wsClient, wsRequest } from '../test/helpers/gateway.js';
import { readBrowserEndpoint } from '../transports/cdp/endpoint.js';
import { CdpConnection } from '../transports/protocol/cdp-connection.js';
import { type Summary, summarise } from './stats.js';
import { tablePageHtml } from './table-page.js';

const RUNS = Number(process.env.BENCH_ATTACH_SCALE_RUNS ?? 9);
const SIZES = (process.env.BENCH_ATTACH_SCALE_ROWS ?? '100,1000,5000').split(',').map(Number);
const TARGET_MS = 150;
const SPREAD = 1.2;
/** A frame and a task that come back within this mean the page's main thread is idle. */
const IDLE_FRAME_MS = 50;
const CALL_MS = 300_000;

// biome-ignore lint/suspicious/noExplicitAny: benchmark responses are read loosely
type Loose = any;

/** A raw DevTools session on the page, outside Playwright and the gateway, to tell when the page is idle. */
async function idleProbe(port: number): Promise<{ idle: () => Promise<number>; close: () => Promise<void> }> {
  const endpoint = await readBrowserEndpoint({ host: '127.0.0.1', port }, 30_000);
  const connection = await CdpConnection.open(endpoint.webSocketDebuggerUrl, 30_000);
  const { targetInfos } = await connection.send<{ targetInfos: { targetId: string; type: string }[] }>(
    'Target.getTargets',
  );
  const page = targetInfos.find((target) => target.type === 'page');
  if (!page) throw new Error('the browser shows no page');
  const { sessionId } = await connection.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: page.targetId,
    flatten: true,
  });
  /** Waits until the page renders a frame promptly; the time it was busy until then. */
  const idle = async () => {
    const started = performance.now();
    for (;;) {
      const asked = performance.now();
      try {
        await connection.send(
          'Runtime.evaluate',
          {
            expression: 'new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))',
            awaitPromise: true,
          },
          CALL_MS,
          sessionId,
        );
      } catch {
        // The document is still being replaced (the page's first navigation).
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const took = performance.now() - asked;
      if (took < IDLE_FRAME_MS) return asked - started;
    }
  };
  return { idle, close: () => connection.close() };
}

interface Measured {
  readonly answer: number[];
  readonly busyAfter: number[];
}

const measured = (): Measured => ({ answer: [], busyAfter: [] });

const gateway = await startGateway({ allowEval: 'none' });
const client = wsClient(gateway.wsUrl);
async function send(query: string): Promise<Loose> {
  const result = await wsRequest(
    client,
    parse(query) as TypedDocumentNode<Loose, Record<string, unknown>>,
    {},
  );
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

interface Figures {
  readonly reference: Measured;
  readonly noDefaults: Measured;
  readonly gateway: Measured;
}

/** One browser per size, all open at once, so each run can visit every size. */
interface Target {
  readonly rows: number;
  readonly browser: OutsideProcess;
  readonly probe: Awaited<ReturnType<typeof idleProbe>>;
  readonly figures: Figures;
}

/** One run's three timings on one size: the two references, then the gateway. */
async function measureOnce({ browser, probe, figures }: Target, timed: boolean): Promise<void> {
  const port = browser.port;
  for (const noDefaults of [false, true]) {
    await probe.idle();
    const started = performance.now();
    const direct = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, {
      noDefaults,
      timeout: CALL_MS,
    });
    const first = direct.contexts()[0]?.pages()[0];
    const answer = performance.now() - started;
    if (!first) throw new Error('connectOverCDP found no page');
    const busyAfter = await probe.idle();
    await direct.close();
    if (!timed) continue;
    const into = noDefaults ? figures.noDefaults : figures.reference;
    into.answer.push(answer);
    into.busyAfter.push(busyAfter);
  }
  await probe.idle();
  const started = performance.now();
  const { attach } = await send(
    `mutation { attach(input: { port: ${port}, timeoutMs: 60000 }) { id windows { id title url } } }`,
  );
  const answer = performance.now() - started;
  if (attach.windows.length !== 1 || attach.windows[0].title !== 'Orders')
    throw new Error(`attach answered ${JSON.stringify(attach.windows)}`);
  const busyAfter = await probe.idle();
  await send(`mutation { detach(id: "${attach.id}") { status } }`);
  if (!timed) return;
  figures.gateway.answer.push(answer);
  figures.gateway.busyAfter.push(busyAfter);
}

const results = new Map<number, Figures>();
const folder = mkdtempSync(join(tmpdir(), 'stagegraph-attach-scale-'));
const targets: Target[] = [];
try {
  for (const rows of SIZES) {
    const file = join(folder, `table-${rows}.html`);
    writeFileSync(file, tablePageHtml(rows));
    const browser = await startDebuggableChromium(`file://${file}`);
    const probe = await idleProbe(browser.port).catch(async (error: unknown) => {
      await browser.kill();
      throw error;
    });
    targets.push({
      rows,
      browser,
      probe,
      figures: { reference: measured(), noDefaults: measured(), gateway: measured() },
    });
    await probe.idle();
  }
  // Sizes take turns within each run, so the gateway's and the machine's warming up and drifting fall on
  // every size alike (measured one size after another, whichever size came first was the slowest). One
  // untimed round first: the browsers' first DevTools clients pay for their own warm-up.
  for (let run = -1; run < RUNS; run += 1) {
    for (const target of targets) await measureOnce(target, run >= 0);
  }
  for (const target of targets) results.set(target.rows, target.figures);
} finally {
  await client.dispose();
  await gateway.stop();
  for (const target of targets) {
    await target.probe.close().catch(() => undefined);
    await target.browser.kill();
  }
  rmSync(folder, { recursive: true, force: true });
}

const fixed = (ms: number) => ms.toFixed(1);
console.log(
  `## attach to Chromium showing the table page (graphql-ws, ${RUNS} runs per size, detached in between)\n`,
);
console.log(
  '| rows | what | n | median ms | p95 ms | vs reference (median) | page busy after, median ms |\n|---|---|---|---|---|---|---|',
);
const medians: number[] = [];
for (const [rows, figures] of results) {
  const reference = summarise(figures.reference.answer);
  const line = (what: string, of: Measured, summary: Summary) =>
    console.log(
      `| ${rows} | ${what} | ${summary.n} | ${fixed(summary.median)} | ${fixed(summary.p95)} | ${
        of === figures.reference ? 'reference' : `${(summary.median / reference.median).toFixed(2)}x`
      } | ${fixed(summarise(of.busyAfter).median)} |`,
    );
  line('connectOverCDP + first page (Playwright defaults)', figures.reference, reference);
  line('connectOverCDP + first page (noDefaults)', figures.noDefaults, summarise(figures.noDefaults.answer));
  const attached = summarise(figures.gateway.answer);
  medians.push(attached.median);
  line('gateway attach { id windows { id title url } }', figures.gateway, attached);
}
console.log();
const spread = Math.max(...medians) / Math.min(...medians);
console.log(
  `Spread of the gateway's medians across sizes: ${spread.toFixed(2)}x (target <= ${SPREAD}x: ${spread <= SPREAD ? 'PASS' : 'MISS'}).`,
);
for (const [index, rows] of [...results.keys()].entries()) {
  const median = medians[index] ?? Number.NaN;
  console.log(
    `attach at ${rows} rows: median ${fixed(median)} ms (target <= ${TARGET_MS} ms: ${median <= TARGET_MS ? 'PASS' : 'MISS'}).`,
  );
}
