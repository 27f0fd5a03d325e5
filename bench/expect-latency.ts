// Expect latency (issue 18, deliverable 3): how long after the DOM changes an `expect(kind: TEXT, equals)`
// resolves at the client, on the generated table app of bench/snapshot.ts (100, 1,000 and 5,000 rows, on the
// Electron-API stand-in). Section 4 of bench/snapshot.ts measured this before the expectation moved into the
// page; this script measures it alone, in one process, for three waits, alternating so all share the noise:
//   - the gateway's expect on a ref (the in-page wait: one evaluation that resolves when the text holds);
//   - the gateway's own wait, forced by the same element named in Playwright selector syntax (`css=#…`),
//     which the page cannot resolve itself: the path every expectation took before;
//   - the reference: a page MutationObserver resolving a direct Playwright evaluate (no gateway).
// Each run arms the wait, lets it settle ARM_MS, then clicks a button that 50 ms later writes the status text
// and the page's own Date.now() (the stamp). Latency = result received at this client − stamp (one clock).
// Run: `npx tsx bench/expect-latency.ts`; BENCH_SIZES=100,5000 and BENCH_EXPECT_RUNS=n scale it.
import type { Client } from 'graphql-ws';
import type { Page } from 'playwright-core';
import {
  CLICK,
  gql,
  type Node,
  READ_TEXT,
  SNAPSHOT_LEAN,
  type SnapshotData,
  sleep,
} from './snapshot-client.js';
import { type Summary, summarise } from './stats.js';
import {
  DELAYED_BUTTON_NAME,
  DELAYED_BUTTON_SELECTOR,
  STAMP_NAME,
  STAMP_SELECTOR,
  STATUS_NAME,
  STATUS_SELECTOR,
  statusText,
} from './table-app.js';
import { measureTableSizes, statusShownInPage } from './table-app-session.js';
import { SIZES } from './table-sizes.js';

const RUNS = Number(process.env.BENCH_EXPECT_RUNS ?? 15);
/** How long a wait is given to arm before the click that, 50 ms later, satisfies it. */
const ARM_MS = 150;
const TARGET_MS = 20;

const EXPECT_BY_SELECTOR =
  'mutation ($s: ID, $selector: String!, $equals: String!) { expect(session: $s, kind: TEXT, target: { selector: $selector }, equals: $equals, timeoutMs: 30000) { elapsedMs actual } }';
const EXPECT_BY_REF =
  'mutation ($s: ID, $ref: ID!, $equals: String!) { expect(session: $s, kind: TEXT, target: { ref: $ref }, equals: $equals, timeoutMs: 30000) { elapsedMs actual } }';

function one(nodes: readonly Node[], role: string, name: string): string {
  const found = nodes.filter((node) => node.role === role && node.name === name);
  if (found.length !== 1) throw new Error(`expected one ${role} "${name}", found ${found.length}`);
  return (found[0] as Node).ref;
}

interface SizeResult {
  readonly rows: number;
  readonly inPage: Summary;
  readonly gatewayWait: Summary;
  readonly reference: Summary;
  readonly excluded: number;
  readonly failedRounds: number;
}

async function benchSize(rows: number, client: Client, s: string, page: Page): Promise<SizeResult> {
  const nodes = (await gql<SnapshotData>(client, SNAPSHOT_LEAN, { s })).data.session.window.snapshot.nodes;
  const laterRef = one(nodes, 'button', DELAYED_BUTTON_NAME);
  const statusRef = one(nodes, 'status', STATUS_NAME);
  const stampRef = one(nodes, 'status', STAMP_NAME);
  let updates = 0;
  let referenceUpdates = 0;
  let excluded = 0;
  let failedRounds = 0;
  const samples = { inPage: [] as number[], gatewayWait: [] as number[], reference: [] as number[] };

  /** One gateway expect: armed, then the click; the latency from the page's stamp, or null if it armed late. */
  const throughGateway = async (
    query: string,
    variables: Record<string, unknown>,
  ): Promise<number | null> => {
    updates += 1;
    const expectation = gql<{ expect: { elapsedMs: number } }>(client, query, {
      s,
      ...variables,
      equals: statusText(updates),
    });
    // Seen at once, so a wait that fails while the click is still on its way is a failed round, not a crash.
    expectation.catch(() => undefined);
    await sleep(ARM_MS);
    await gql(client, CLICK, { s, ref: laterRef });
    const resolved = await expectation;
    const stamp = Number(
      (await gql<{ expect: { actual: string } }>(client, READ_TEXT, { s, ref: stampRef, regex: '^\\d+$' }))
        .data.expect.actual,
    );
    // A wait that began only after the change would measure its start-up, not its wake-up.
    if (resolved.receivedAt - resolved.data.expect.elapsedMs >= stamp) return null;
    return resolved.receivedAt - stamp;
  };

  const reference = async (): Promise<number> => {
    referenceUpdates += 1;
    const waiting = statusShownInPage(page, referenceUpdates);
    await sleep(ARM_MS);
    await page.locator(DELAYED_BUTTON_SELECTOR).click();
    const at = await waiting;
    return at - Number(await page.locator(STAMP_SELECTOR).textContent());
  };

  for (let i = -1; i < RUNS; i += 1) {
    let inPage: number | null;
    let gatewayWait: number | null;
    let direct: number;
    try {
      inPage = await throughGateway(EXPECT_BY_REF, { ref: statusRef });
      gatewayWait = await throughGateway(EXPECT_BY_SELECTOR, { selector: `css=${STATUS_SELECTOR}` });
      direct = await reference();
    } catch (error) {
      // A swamped machine can leave a click unconfirmed: that round is reported as failed, not fatal.
      failedRounds += 1;
      console.error(String(error).split('\n')[0]);
      continue;
    }
    if (i < 0) continue;
    if (inPage === null || gatewayWait === null) excluded += 1;
    if (inPage !== null) samples.inPage.push(inPage);
    if (gatewayWait !== null) samples.gatewayWait.push(gatewayWait);
    samples.reference.push(direct);
  }
  return {
    rows,
    inPage: summarise(samples.inPage),
    gatewayWait: summarise(samples.gatewayWait),
    reference: summarise(samples.reference),
    excluded,
    failedRounds,
  };
}

const started = performance.now();
const { results, failures } = await measureTableSizes(SIZES, (sides) =>
  benchSize(sides.rows, sides.client, sides.session, sides.reference),
);

const cell = (summary: Summary) => `${summary.n} | ${summary.median.toFixed(1)} | ${summary.p95.toFixed(1)}`;
const lines = [
  `Expect latency — node ${process.version}, ${new Date().toISOString()}, ${RUNS} runs a size, whole run ${((performance.now() - started) / 1_000).toFixed(0)} s.`,
  '',
  '| rows | what | n | median ms | p95 ms | target | |',
  '|---|---|---|---|---|---|---|',
];
for (const result of results) {
  const rows = result.rows.toLocaleString('en');
  const verdict = result.inPage.median <= TARGET_MS ? '**PASS**' : '**MISS**';
  lines.push(
    `| ${rows} | expect on a ref (in-page wait) | ${cell(result.inPage)} | <= ${TARGET_MS} ms | ${verdict} |`,
  );
  lines.push(
    `| ${rows} | same element as \`css=\` selector (the gateway's own wait) | ${cell(result.gatewayWait)} | | |`,
  );
  lines.push(
    `| ${rows} | reference: page MutationObserver resolving a Playwright evaluate | ${cell(result.reference)} | | |`,
  );
  if (result.failedRounds > 0)
    lines.push(
      `| ${rows} | rounds failed (a click unconfirmed on the loaded machine) | ${result.failedRounds} | | | | |`,
    );
  if (result.excluded > 0)
    lines.push(
      `| ${rows} | runs with a wait armed after the change (left out) | ${result.excluded} | | | | |`,
    );
}
if (failures.length > 0) lines.push('', ...failures);
console.log(lines.join('\n'));
