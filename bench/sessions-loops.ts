// The read-act loop of bench/sessions-throughput.ts, once through the gateway (one graphql-ws client per
// session) and once with direct Playwright on the app's page (the reference). One iteration is four
// operations on the fixture app's form: read the interactive elements, click the Subscribe checkbox (found
// in that read), expect the status to say its new state, fill the name field. (Not Submit: the built-in
// policy asks an approver before a click on it, and approvals are not what is measured.)
import type { Client } from 'graphql-ws';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { FIXTURE_APP_MAIN, STAND_IN } from '../test/helpers/fixture-app.js';
import { gql } from './snapshot-client.js';

export const OPERATIONS = ['snapshot', 'click', 'expect', 'fill'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** What one session did in one timed phase: each operation's latencies, in milliseconds. */
export type Latencies = Record<Operation, number[]>;

export const noLatencies = (): Latencies => ({ snapshot: [], click: [], expect: [], fill: [] });

/** One session's side of the loop: a gateway session or a reference page. */
export interface LoopDriver {
  readonly label: string;
  /** One iteration; `step` records each operation's latency as it completes. */
  iterate(step: (operation: Operation, ms: number) => void): Promise<void>;
  close(): Promise<void>;
}

const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
const WINDOWS = 'query ($s: ID) { session(id: $s) { windows { title } } }';
const STOP_TICKING =
  'mutation ($s: ID) { click(session: $s, target: { testId: "stop-ticking" }, timeoutMs: 60000) { elapsedMs } }';
const SNAPSHOT =
  'query ($s: ID) { session(id: $s) { window { snapshot(interactiveOnly: true) { nodes { ref role name } } } } }';
const CLICK =
  'mutation ($s: ID, $ref: ID!) { click(session: $s, target: { ref: $ref }, timeoutMs: 30000) { elapsedMs } }';
const EXPECT =
  'mutation ($s: ID, $text: String!) { expect(session: $s, kind: TEXT, target: { testId: "status" }, equals: $text, timeoutMs: 30000) { elapsedMs } }';
/** The status after the `n`-th click on Subscribe (from 1): the checkbox toggles. */
const subscribed = (n: number) => `Subscribed: ${n % 2 === 1}`;
const FILL =
  'mutation ($s: ID, $value: String!) { fill(session: $s, target: { testId: "name" }, value: $value, timeoutMs: 30000) { elapsedMs } }';
const STOP = 'mutation ($s: ID) { stop(id: $s) { status } }';

interface SnapshotData {
  session: { window: { snapshot: { nodes: { ref: string; role: string; name: string }[] } } };
}

async function timed<T>(
  operation: Operation,
  step: (o: Operation, ms: number) => void,
  run: () => Promise<T>,
) {
  const started = performance.now();
  const value = await run();
  step(operation, performance.now() - started);
  return value;
}

/** Launch gives up waiting for the window after its timeout; 8 apps starting at once on 2 cores take longer. */
async function windowOpen(client: Client, s: string): Promise<void> {
  const deadline = performance.now() + 180_000;
  for (;;) {
    const { data } = await gql<{ session: { windows: { title: string }[] } }>(client, WINDOWS, { s });
    if (data.session.windows.some((window) => window.title === 'Stagegraph Fixture')) return;
    if (performance.now() > deadline) throw new Error(`session ${s}: no fixture window after 180 s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Launches the fixture app through the gateway; `client` is this session's own connection. */
export async function gatewaySession(client: Client, label: string): Promise<LoopDriver> {
  const s = (
    await gql<{ launch: { id: string } }>(client, LAUNCH, {
      input: { main: FIXTURE_APP_MAIN, executablePath: STAND_IN },
    })
  ).data.launch.id;
  await windowOpen(client, s);
  await gql(client, STOP_TICKING, { s });
  let n = 0;
  const name = () => `${label}-${n}`;
  await gql(client, FILL, { s, value: name() });
  return {
    label,
    async iterate(step) {
      const read = await timed('snapshot', step, () => gql<SnapshotData>(client, SNAPSHOT, { s }));
      const checkbox = read.data.session.window.snapshot.nodes.find(
        (node) => node.role === 'checkbox' && node.name === 'Subscribe',
      );
      if (!checkbox) throw new Error(`${label}: no Subscribe checkbox in the snapshot`);
      n += 1;
      await timed('click', step, () => gql(client, CLICK, { s, ref: checkbox.ref }));
      await timed('expect', step, () => gql(client, EXPECT, { s, text: subscribed(n) }));
      await timed('fill', step, () => gql(client, FILL, { s, value: name() }));
    },
    async close() {
      await gql(client, STOP, { s });
    },
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The same app and loop without the gateway: Playwright's own launch, snapshot, click, wait and fill. */
export async function referencePage(label: string): Promise<LoopDriver> {
  const app: ElectronApplication = await _electron.launch({
    executablePath: STAND_IN,
    args: [FIXTURE_APP_MAIN],
  });
  let page: Page;
  try {
    page = await app.firstWindow();
    await page.getByTestId('stop-ticking').click();
  } catch (error) {
    await app.close();
    throw error;
  }
  let n = 0;
  const name = () => `${label}-${n}`;
  await page.getByTestId('name').fill(name());
  return {
    label,
    async iterate(step) {
      // Playwright has no interactive-only listing; its AI snapshot (what Playwright MCP reads) is nearest.
      await timed('snapshot', step, () => page.ariaSnapshot({ mode: 'ai' }));
      n += 1;
      await timed('click', step, () => page.getByRole('checkbox', { name: 'Subscribe' }).click());
      await timed('expect', step, () =>
        page
          .getByTestId('status')
          .filter({ hasText: new RegExp(`^${escapeRegExp(subscribed(n))}$`) })
          .waitFor({ timeout: 30_000 }),
      );
      await timed('fill', step, () => page.getByTestId('name').fill(name()));
    },
    close: () => app.close(),
  };
}

/** Runs every driver's loop at once until `durationMs` has passed; an iteration under way is finished. */
export async function runConcurrently(
  drivers: readonly LoopDriver[],
  durationMs: number,
): Promise<{ latencies: Latencies[]; operations: number; wallMs: number }> {
  const latencies = drivers.map(noLatencies);
  let operations = 0;
  const started = performance.now();
  const until = started + durationMs;
  await Promise.all(
    drivers.map(async (driver, index) => {
      const own = latencies[index]!;
      while (performance.now() < until)
        await driver.iterate((operation, ms) => {
          own[operation].push(ms);
          operations += 1;
        });
    }),
  );
  return { latencies, operations, wallMs: performance.now() - started };
}
