// Snapshots and actions (issue #3): a generated Electron app (bench/table-app.ts: one 1280x800 window showing
// the table page of bench/table-page.ts) is launched twice on the Electron-API stand-in — once through an
// in-process gateway that this script talks to over graphql-ws like any agent, once directly with
// Playwright's `_electron.launch` (the reference: equal page, no gateway). For 100, 1,000 and 5,000 rows it
// measures, alternating gateway and reference so both share the machine's noise:
//   1. full snapshot time and response size, `{ ref role name }` and every node field, against
//      `page.locator('body').ariaSnapshot()`;
//   2. the interactive-only listing's size against the aria snapshot's;
//   3. the size of `snapshot(since: "LAST")` after one click, and of the click's own `diff`;
//   4. how long after the DOM changes an `expect` resolves at the client;
//   5. a click through the gateway against a direct Playwright `locator.click()`;
// and profiles the full snapshot (in-page walk, transfer, reconciliation, GraphQL, wire).
// Run: `npx tsx bench/snapshot.ts`; BENCH_SNAPSHOT_RUNS, BENCH_CLICK_RUNS, BENCH_EXPECT_RUNS scale the samples.
import type { Client } from 'graphql-ws';
import type { Page } from 'playwright-core';
import type { RunningGateway } from '../test/helpers/gateway.js';
import {
  CLICK,
  CLICK_WITH_DIFF,
  type DiffData,
  EXPECT_TEXT,
  gql,
  type Node,
  READ_TEXT,
  type Reply,
  SINCE_LAST,
  SNAPSHOT_ALL,
  SNAPSHOT_INTERACTIVE,
  SNAPSHOT_INTERACTIVE_ALIASED,
  SNAPSHOT_INTERACTIVE_OUTLINE,
  SNAPSHOT_LEAN,
  type SnapshotData,
  sleep,
} from './snapshot-client.js';
import { profileSnapshot } from './snapshot-profile.js';
import { report, type SizeResult } from './snapshot-report.js';
import { summarise } from './stats.js';
import {
  DELAYED_BUTTON_NAME,
  DELAYED_BUTTON_SELECTOR,
  DELAYED_UPDATE_MS,
  rowButtonSelector,
  STAMP_NAME,
  STAMP_SELECTOR,
  STATUS_NAME,
  statusText,
} from './table-app.js';
import { measureTableSizes, statusShownInPage } from './table-app-session.js';
import { runsPerSize, SIZES, type TableSize } from './table-sizes.js';

/** Timed runs per size; the 5,000-row aria snapshot takes seconds, so the largest page gets fewer. */
const SNAPSHOT_RUNS = runsPerSize('BENCH_SNAPSHOT_RUNS', { 100: 15, 1000: 7, 5000: 4 });
const PROFILE_RUNS = runsPerSize('BENCH_PROFILE_RUNS', { 100: 5, 1000: 3, 5000: 2 });
const CLICK_RUNS = runsPerSize('BENCH_CLICK_RUNS', { 100: 40, 1000: 30, 5000: 20 });
const EXPECT_RUNS = runsPerSize('BENCH_EXPECT_RUNS', { 100: 20, 1000: 15, 5000: 10 });
const DIFF_RUNS = runsPerSize('BENCH_DIFF_RUNS', { 100: 3, 1000: 3, 5000: 2 });
/** Untimed runs first: the first snapshot of a document installs the walker and hands out every ref. */
const WARMUP = 1;
const CLICK_WARMUP = 5;
/** How long the expect is given to start waiting before the click that, 50 ms later, satisfies it. */
const ARM_MS = 150;

function one(nodes: readonly Node[], role: string, name: string): Node {
  const found = nodes.filter((node) => node.role === role && node.name === name);
  if (found.length !== 1) throw new Error(`expected one ${role} "${name}", found ${found.length}`);
  return found[0]!;
}

function counts(diff: DiffData): string {
  return `+${diff.added.length} −${diff.removed.length} ~${diff.changed.length}`;
}

async function benchSize(
  rows: TableSize,
  gateway: RunningGateway,
  client: Client,
  s: string,
  page: Page,
): Promise<SizeResult> {
  const log = (what: string) => console.error(`[${rows} rows] ${what}`);
  // The row acted on: mid-table, so the first click also scrolls (as an agent's would).
  const row = Math.ceil(rows / 2);

  // 1 + 2: full and interactive snapshots against the aria snapshot, alternating.
  log('snapshots');
  const times = {
    lean: [] as number[],
    all: [] as number[],
    interactive: [] as number[],
    aria: [] as number[],
  };
  let lean: Reply<SnapshotData> | undefined;
  let all: Reply<SnapshotData> | undefined;
  let interactive: Reply<SnapshotData> | undefined;
  let aria = '';
  for (let i = -WARMUP; i < SNAPSHOT_RUNS[rows]; i += 1) {
    lean = await gql<SnapshotData>(client, SNAPSHOT_LEAN, { s });
    all = await gql<SnapshotData>(client, SNAPSHOT_ALL, { s });
    interactive = await gql<SnapshotData>(client, SNAPSHOT_INTERACTIVE, { s });
    const started = performance.now();
    aria = await page.locator('body').ariaSnapshot({ timeout: 120_000 });
    const ariaMs = performance.now() - started;
    if (i < 0) continue;
    times.lean.push(lean.ms);
    times.all.push(all.ms);
    times.interactive.push(interactive.ms);
    times.aria.push(ariaMs);
  }
  if (!lean || !all || !interactive) throw new Error('no snapshot taken');
  const leanNodes = lean.data.session.window.snapshot.nodes;
  const interactiveNodes = interactive.data.session.window.snapshot.nodes;
  const editButtons = interactiveNodes.filter((node) => node.role === 'button' && node.name === 'Edit');
  if (editButtons.length !== rows)
    throw new Error(`expected ${rows} Edit buttons, found ${editButtons.length}`);
  const editRef = editButtons[row - 1]!.ref;
  const laterRef = one(interactiveNodes, 'button', DELAYED_BUTTON_NAME).ref;
  const statusRef = one(leanNodes, 'status', STATUS_NAME).ref;
  const stampRef = one(leanNodes, 'status', STAMP_NAME).ref;

  // Profile of the full `{ ref role name }` snapshot, inside this process (the gateway runs here).
  log('profile');
  const interactiveAliasedChars = (await gql(client, SNAPSHOT_INTERACTIVE_ALIASED, { s })).chars;
  const interactiveOutlineChars = (await gql(client, SNAPSHOT_INTERACTIVE_OUTLINE, { s })).chars;
  const profile = await profileSnapshot(gateway, client, s, PROFILE_RUNS[rows]).catch(
    (error: unknown) => `profile unavailable: ${String(error)}`,
  );

  // 3: one click, then the diff since the snapshot before it; then a click that returns its own diff.
  log('diffs');
  const sinceLastMs: number[] = [];
  const clickDiffMs: number[] = [];
  let fullChars = 0;
  let sinceLast: Reply<{ session: { window: { snapshot: { diff: DiffData } } } }> | undefined;
  let clickDiff: Reply<{ click: { diff: DiffData } }> | undefined;
  for (let i = 0; i < DIFF_RUNS[rows]; i += 1) {
    fullChars = (await gql<SnapshotData>(client, SNAPSHOT_LEAN, { s })).chars;
    await gql(client, CLICK, { s, ref: editRef });
    sinceLast = await gql(client, SINCE_LAST, { s });
    sinceLastMs.push(sinceLast.ms);
    clickDiff = await gql(client, CLICK_WITH_DIFF, { s, ref: editRef });
    clickDiffMs.push(clickDiff.ms);
  }
  if (!sinceLast || !clickDiff) throw new Error('no diff taken');

  // 4: expect latency. The expect is sent first and given ARM_MS to start waiting; then a click on the
  // delayed button makes the page, 50 ms later, write the status text and its own Date.now() (the stamp).
  // Latency = when the expect's result reached this client − the stamp (one machine clock, 1 ms grain).
  // The brief's coarse figure (result received − click sent − 50 ms) is kept beside it.
  log('expect');
  const expectLatency: number[] = [];
  const expectBrief: number[] = [];
  const referenceLatency: number[] = [];
  let excluded = 0;
  let gatewayUpdates = 0;
  let referenceUpdates = 0;
  for (let i = -1; i < EXPECT_RUNS[rows]; i += 1) {
    gatewayUpdates += 1;
    const expectation = gql<{ expect: { elapsedMs: number } }>(client, EXPECT_TEXT, {
      s,
      ref: statusRef,
      equals: statusText(gatewayUpdates),
    });
    await sleep(ARM_MS);
    const clickSentAt = Date.now();
    await gql(client, CLICK, { s, ref: laterRef });
    const resolved = await expectation;
    const stamp = Number(
      (await gql<{ expect: { actual: string } }>(client, READ_TEXT, { s, ref: stampRef, regex: '^\\d+$' }))
        .data.expect.actual,
    );
    // The reference: the least an event-driven wait costs — a MutationObserver in the page resolving a
    // Playwright evaluate.
    referenceUpdates += 1;
    const waiting = statusShownInPage(page, referenceUpdates);
    await sleep(ARM_MS);
    await page.locator(DELAYED_BUTTON_SELECTOR).click();
    const referenceAt = await waiting;
    const referenceStamp = Number(await page.locator(STAMP_SELECTOR).textContent());
    if (i < 0) continue;
    // An expect that began waiting only after the change would measure its start-up, not its wake-up.
    if (resolved.receivedAt - resolved.data.expect.elapsedMs >= stamp) excluded += 1;
    else {
      expectLatency.push(resolved.receivedAt - stamp);
      expectBrief.push(resolved.receivedAt - clickSentAt - DELAYED_UPDATE_MS);
    }
    referenceLatency.push(referenceAt - referenceStamp);
  }

  // 5: a click through the gateway against a direct Playwright click on the same button.
  log('clicks');
  const gatewayClicks: number[] = [];
  const serverClicks: number[] = [];
  const directClicks: number[] = [];
  const direct = page.locator(rowButtonSelector(row));
  for (let i = -CLICK_WARMUP; i < CLICK_RUNS[rows]; i += 1) {
    const through = await gql<{ click: { elapsedMs: number } }>(client, CLICK, { s, ref: editRef });
    const started = performance.now();
    await direct.click();
    const directMs = performance.now() - started;
    if (i < 0) continue;
    gatewayClicks.push(through.ms);
    serverClicks.push(through.data.click.elapsedMs);
    directClicks.push(directMs);
  }

  return {
    rows,
    nodes: leanNodes.length,
    interactiveNodes: interactiveNodes.length,
    lean: { summary: summarise(times.lean), chars: lean.chars },
    all: { summary: summarise(times.all), chars: all.chars },
    interactive: { summary: summarise(times.interactive), chars: interactive.chars },
    interactiveAliasedChars,
    interactiveOutlineChars,
    aria: { summary: summarise(times.aria), chars: aria.length },
    diff: {
      fullChars,
      sinceLast: { summary: summarise(sinceLastMs), chars: sinceLast.chars },
      counts: counts(sinceLast.data.session.window.snapshot.diff),
      clickDiff: { summary: summarise(clickDiffMs), chars: clickDiff.chars },
      clickCounts: counts(clickDiff.data.click.diff),
    },
    expect: {
      gateway: summarise(expectLatency),
      brief: summarise(expectBrief),
      reference: summarise(referenceLatency),
      excluded,
    },
    click: {
      gateway: summarise(gatewayClicks),
      server: summarise(serverClicks),
      direct: summarise(directClicks),
    },
    profile,
  };
}

// --- Run ------------------------------------------------------------------------------------------------

const benchStarted = performance.now();
const { results, failures } = await measureTableSizes(SIZES, (sides) =>
  benchSize(sides.rows, sides.gateway, sides.client, sides.session, sides.reference),
);

console.log(
  `## Snapshots and actions (issue #3) — node ${process.version}, ${new Date().toISOString()}\n\n` +
    `Targets apply as in issue #3 (full snapshot: 5,000 rows). Runs per size: snapshots ${SIZES.map((r) => SNAPSHOT_RUNS[r]).join('/')}, ` +
    `diffs ${SIZES.map((r) => DIFF_RUNS[r]).join('/')}, expects ${SIZES.map((r) => EXPECT_RUNS[r]).join('/')}, ` +
    `clicks ${SIZES.map((r) => CLICK_RUNS[r]).join('/')}, profile ${SIZES.map((r) => PROFILE_RUNS[r]).join('/')} (${SIZES.map((r) => r.toLocaleString('en')).join('/')} rows); ` +
    `whole run ${((performance.now() - benchStarted) / 1_000).toFixed(0)} s.\n`,
);
if (failures.length > 0) console.log(`${failures.join('\n')}\n`);
console.log(report(results));
