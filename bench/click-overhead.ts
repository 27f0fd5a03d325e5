// A click through the gateway against a direct Playwright click on the same button (issue 18: <= 1.15x at
// 100 rows). The bench table app (bench/table-app.ts) is launched twice on the Electron-API stand-in: once
// through an in-process governed gateway (built-in policy, target preview, audit), driven over graphql-ws
// with the button's ref as any agent would, and once with Playwright's `_electron.launch` for the
// reference `locator.click()`. Samples alternate so the machine's load falls on both alike.
// Run: `BENCH_CLICK_RUNS=200 BENCH_ROWS=100 npx tsx bench/click-overhead.ts` (the defaults). The ratio is
// quantized by animation frames: at 60 clicks it moved by ±0.15x between runs, so the verdict is the median
// of the ratios of BENCH_CLICK_ROUNDS (default 5) rounds of consecutive clicks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron } from 'playwright-core';
import { STAND_IN } from '../test/helpers/fixture-app.js';
import { startGateway, wsClient } from '../test/helpers/gateway.js';
import {
  CLICK,
  gql,
  LAUNCH,
  SNAPSHOT_INTERACTIVE,
  type SnapshotData,
  STOP,
  WAIT_FOR_PAGE,
} from './snapshot-client.js';
import { HEADER, ratiosInRounds, row, summarise } from './stats.js';
import { rowButtonSelector, writeTableApp } from './table-app.js';

const RUNS = Number(process.env.BENCH_CLICK_RUNS ?? 200);
const ROWS = Number(process.env.BENCH_ROWS ?? 100);
const WARMUP = 10;
const ROUNDS = Number(process.env.BENCH_CLICK_ROUNDS ?? 5);
const TARGET_RATIO = 1.15;

const auditDir = mkdtempSync(join(tmpdir(), 'stagegraph-bench-click-overhead-'));
const app = await writeTableApp(ROWS);
const gateway = await startGateway({ auditDir, mutationsPerSecond: 10_000 });
const client = wsClient(gateway.wsUrl);
const reference = await _electron.launch({ executablePath: STAND_IN, args: [app.main] });
const through: number[] = [];
const server: number[] = [];
const direct: number[] = [];
let session: string | undefined;
try {
  const { data } = await gql<{ launch: { id: string } }>(client, LAUNCH, {
    input: { main: app.main, executablePath: STAND_IN },
  });
  session = data.launch.id;
  await gql(client, WAIT_FOR_PAGE, { s: session });
  const page = await reference.firstWindow();
  await page.waitForURL((url) => url.href.endsWith('/table.html'), { waitUntil: 'load', timeout: 60_000 });
  // The row acted on: mid-table, as bench/snapshot.ts's section 5.
  const target = Math.ceil(ROWS / 2);
  const listing = await gql<SnapshotData>(client, SNAPSHOT_INTERACTIVE, { s: session });
  const buttons = listing.data.session.window.snapshot.nodes.filter(
    (node) => node.role === 'button' && node.name === 'Edit',
  );
  const ref = buttons[target - 1]?.ref;
  if (!ref) throw new Error(`no button of row ${target}`);
  const locator = page.locator(rowButtonSelector(target));
  for (let i = -WARMUP; i < RUNS; i += 1) {
    const gatewayFirst = i % 2 === 0;
    const viaGateway = async () => {
      const reply = await gql<{ click: { elapsedMs: number } }>(client, CLICK, { s: session, ref });
      if (i >= 0) {
        through.push(reply.ms);
        server.push(reply.data.click.elapsedMs);
      }
    };
    const viaPlaywright = async () => {
      const started = performance.now();
      await locator.click();
      if (i >= 0) direct.push(performance.now() - started);
    };
    for (const side of gatewayFirst ? [viaGateway, viaPlaywright] : [viaPlaywright, viaGateway]) await side();
  }
} finally {
  if (session) await gql(client, STOP, { id: session }).catch(() => undefined);
  await client.dispose();
  await gateway.stop();
  await reference.close();
  await app.remove();
  rmSync(auditDir, { recursive: true, force: true });
}

const directSummary = summarise(direct);
console.log(
  `## Click on row ${Math.ceil(ROWS / 2)}'s button of ${ROWS} rows: governed gateway vs direct Playwright (node ${process.version})\n\n${HEADER}`,
);
console.log(row('direct Playwright locator.click()', directSummary));
console.log(row('gateway click(target: { ref }) over graphql-ws', summarise(through), directSummary));
console.log(row("gateway's own elapsedMs (server side)", summarise(server), directSummary));

const ratios = ratiosInRounds(through, direct, ROUNDS);
const ratio = summarise(ratios).median;
console.log(
  `\nGateway click vs direct: median ${ratio.toFixed(2)}x over ${ratios.length} rounds of ${Math.floor(RUNS / ROUNDS)} (${ratios.map((each) => `${each.toFixed(2)}x`).join(', ')}; target <= ${TARGET_RATIO}x): ${ratio <= TARGET_RATIO ? 'PASS' : 'MISS'}`,
);
