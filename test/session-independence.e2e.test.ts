// Operations on one session never wait on another's (issue 18): while session A's operation is held —
// a click waiting for an approver, an expect waiting for text that only appears later — session B runs a
// whole read-act loop to the end, over the same graphql-ws connection. Shown by order (A still pending
// after B's last answer, B's audit records before A's), never by how long anything took.
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLaunch } from './helpers/fixture-app.js';
import type { Loose } from './helpers/fixture-session.js';
import { type Subscription, wsRequest } from './helpers/gateway.js';
import {
  approversWatching,
  type GovernedRun,
  nextPendingApproval,
  startGovernedRun,
} from './helpers/governed-gateway.js';

/** Far beyond the test: A's operations end because the test ends them, never by timing out. */
const HELD_MS = 300_000;
/** Even, so B's checkbox ends each loop as it started. */
const LOOP_ITERATIONS = 4;

const APPROVAL_EVENTS =
  'subscription { approvalRequests { state request { id operation session { id } target { name } } } }';

let run: GovernedRun;
let approvals: Subscription<Loose>;
let a: string;
let b: string;

/** One operation over the agent's graphql-ws connection, the one both sessions' operations share. */
async function ws(query: string, variables: Record<string, unknown> = {}): Promise<Loose> {
  const result = await wsRequest(run.agent.ws, parse(query) as Loose, variables);
  return result;
}

async function data(query: string, variables: Record<string, unknown> = {}): Promise<Loose> {
  const result = await ws(query, variables);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data;
}

/** A promise's state without waiting for it. */
function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const done = () => {
    settled = true;
  };
  promise.then(done, done);
  return { promise, settled: () => settled };
}

/** The read-act loop of bench/sessions-throughput.ts on session `s`: snapshot, click, expect, fill. */
async function readActLoop(s: string, iterations: number): Promise<void> {
  let checked = false;
  for (let i = 0; i < iterations; i += 1) {
    const { session } = await data(
      'query ($s: ID) { session(id: $s) { window { snapshot(interactiveOnly: true) { nodes { ref role name } } } } }',
      { s },
    );
    const checkbox = session.window.snapshot.nodes.find(
      (node: Loose) => node.role === 'checkbox' && node.name === 'Subscribe',
    );
    expect(checkbox).toBeDefined();
    await data('mutation ($s: ID, $ref: ID!) { click(session: $s, target: { ref: $ref }) { windowId } }', {
      s,
      ref: checkbox.ref,
    });
    checked = !checked;
    await data(
      'mutation ($s: ID, $text: String!) { expect(session: $s, kind: TEXT, target: { testId: "status" }, equals: $text, timeoutMs: 30000) { actual } }',
      { s, text: `Subscribed: ${checked}` },
    );
    await data(
      'mutation ($s: ID, $value: String!) { fill(session: $s, target: { testId: "name" }, value: $value) { windowId } }',
      { s, value: `loop ${i}` },
    );
  }
}

/** Launch stops waiting for the first window at its timeout; two apps starting on a loaded machine may take longer. */
async function windowOpen(s: string): Promise<void> {
  for (;;) {
    const { session } = await data('query ($s: ID) { session(id: $s) { windows { title } } }', { s });
    if (session.windows.some((window: Loose) => window.title === 'Stagegraph Fixture')) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function auditSeqs(): Promise<Loose[]> {
  const { audit } = await data(
    '{ audit(first: 500) { edges { node { seq operation outcome session { id } target { name } } } } }',
  );
  return audit.edges.map((edge: Loose) => edge.node);
}

const slowStartLaunch = () => ({ ...fixtureLaunch(), timeoutMs: 120_000 });

beforeAll(async () => {
  run = await startGovernedRun({ approvalTimeoutMs: HELD_MS }, { launch: false });
  const launch = (input: Loose) =>
    data('mutation ($input: LaunchInput!) { launch(input: $input) { id } }', { input });
  [a, b] = await Promise.all([launch(slowStartLaunch()), launch(slowStartLaunch())]).then((launched) =>
    launched.map((answer) => answer.launch.id as string),
  );
  for (const s of [a, b]) await windowOpen(s);
  for (const s of [a, b])
    await data('mutation ($s: ID) { click(session: $s, target: { testId: "stop-ticking" }) { windowId } }', {
      s,
    });
  approvals = run.approver.watch(APPROVAL_EVENTS);
  await approversWatching(run, 1);
}, 180_000);

afterAll(async () => {
  approvals?.dispose();
  await run?.stop();
  await run?.cleanup();
});

describe('sessions do not wait on one another', () => {
  it("while A's click waits for an approver, B's snapshot, click, expect and fill all complete and are audited first", async () => {
    const held = watched(
      ws('mutation ($s: ID) { click(session: $s, target: { testId: "delete-account" }) { windowId } }', {
        s: a,
      }),
    );
    const request = await nextPendingApproval(approvals, new Set());
    expect(request).toMatchObject({
      operation: 'click',
      session: { id: a },
      target: { name: 'Delete account' },
    });

    await readActLoop(b, LOOP_ITERATIONS);

    expect(held.settled(), JSON.stringify(held.settled() && (await held.promise))).toBe(false);
    const { pendingApprovals } = await run.approver.data('{ pendingApprovals { id } }');
    expect(pendingApprovals).toEqual([{ id: request.id }]);
    // B's records are already on the chain; A's click is not, it has not happened.
    const before = await auditSeqs();
    const bRecords = before.filter((record) => record.session?.id === b && record.outcome === 'OK');
    expect(bRecords.map((record) => record.operation)).toEqual(
      expect.arrayContaining(['click', 'expect', 'fill']),
    );
    expect(bRecords.length).toBeGreaterThanOrEqual(3 * LOOP_ITERATIONS);
    const deleteClick = (record: Loose) =>
      record.session?.id === a && record.target?.name === 'Delete account';
    expect(before.some(deleteClick)).toBe(false);

    await run.approver.data(`mutation { approve(id: "${request.id}") { status } }`);
    const answer = await held.promise;
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    const after = await auditSeqs();
    const aClick = after.find(deleteClick);
    expect(aClick.seq).toBeGreaterThan(Math.max(...bRecords.map((record) => record.seq)));
    const { verifyAudit } = await data('{ verifyAudit { ok } }');
    expect(verifyAudit.ok).toBe(true);
  }, 180_000);

  it("while A's expect waits for text that is not there yet, B's loop completes; A's expect then sees the text", async () => {
    const held = watched(
      data(
        'mutation ($s: ID, $ms: Int) { expect(session: $s, kind: TEXT, target: { testId: "status" }, equals: "Subscribed: true", timeoutMs: $ms) { actual } }',
        { s: a, ms: HELD_MS },
      ),
    );
    // A's expect was sent first on the connection B's operations share: none of B's is ordered behind it.
    await readActLoop(b, LOOP_ITERATIONS);
    expect(held.settled()).toBe(false);

    await data(
      'mutation ($s: ID) { click(session: $s, target: { role: "checkbox", name: "Subscribe" }) { windowId } }',
      {
        s: a,
      },
    );
    expect((await held.promise).expect.actual).toBe('Subscribed: true');
  }, 180_000);
});
