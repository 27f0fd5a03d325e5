import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Loose } from './helpers/fixture-session.js';
import { type Subscription, startGateway } from './helpers/gateway.js';
import {
  AGENT_TOKEN,
  approversWatching,
  type GovernedRun,
  nextPendingApproval,
  startGovernedRun,
  tokenClient,
} from './helpers/governed-gateway.js';

const STAGEGRAPH_BIN = fileURLToPath(new URL('../bin/stagegraph.js', import.meta.url));
/**
 * Long enough for the approver client to answer on a loaded machine (load 15 on two cores), short enough
 * for the timeout test, which waits it out once.
 */
const APPROVAL_TIMEOUT_MS = 10_000;

const POLICY_DENYING_LOG = `
version: 1
rules:
  - id: no-console-logging
    description: the console button is off limits in this run
    target: { role: button, name: Log to console }
    decision: DENY
`;
const POLICY_ALLOWING_LOG = POLICY_DENYING_LOG.replace('decision: DENY', 'decision: ALLOW');

const APPROVAL_EVENTS = `subscription { approvalRequests { state decidedBy
  request { id operation risk rule { id } client { id role } session { id windowTitle }
            target { role name bbox { x y width height } } screenshot { mimeType base64 sha256 }
            requestedAt expiresAt } } }`;
const CLICK_DELETE = 'mutation { click(target: { testId: "delete-account" }) { target { name } } }';
const statusIs = (run: GovernedRun, text: string) =>
  run.agent.data(
    `mutation { expect(kind: TEXT, target: { testId: "status" }, equals: ${JSON.stringify(text)}) { actual } }`,
  );

let dir: string;
let policyFile: string;
let run: GovernedRun;
let approvals: Subscription<Loose>;
const answered = new Set<string>();

/** The next PENDING request the approver has not dealt with yet. */
const nextPending = () => nextPendingApproval(approvals, answered);
/** How the approver's stream saw a request settled; undefined while it is pending. */
const settledState = (id: string): string | undefined =>
  approvals.received.find(
    (event) => event.approvalRequests.request.id === id && event.approvalRequests.state !== 'PENDING',
  )?.approvalRequests.state;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-governance-e2e-'));
  policyFile = join(dir, 'policy.yaml');
  await writeFile(policyFile, POLICY_DENYING_LOG);
  run = await startGovernedRun({ policyFile, approvalTimeoutMs: APPROVAL_TIMEOUT_MS });
  approvals = run.approver.watch(APPROVAL_EVENTS);
  await approversWatching(run, 1);
});
afterAll(async () => {
  approvals?.dispose();
  await run?.stop();
  await run?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('approvals: a human in the loop', () => {
  it('a destructive-named click asks; the approver sees role, name and box, approves once; the click happens', async () => {
    const click = run.agent.send(CLICK_DELETE);
    const request = await nextPending();
    expect(request).toMatchObject({
      operation: 'click',
      risk: 'HIGH',
      rule: { id: 'default:HIGH' },
      client: { role: 'AGENT' },
      session: { id: run.sessionId, windowTitle: 'Stagegraph Fixture' },
      target: { role: 'button', name: 'Delete account', bbox: { width: expect.any(Number) } },
      screenshot: { mimeType: 'image/png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(Date.parse(request.expiresAt) - Date.parse(request.requestedAt)).toBe(APPROVAL_TIMEOUT_MS);
    const pending = await run.approver.data('{ pendingApprovals { id operation } }');
    expect(pending.pendingApprovals).toEqual([{ id: request.id, operation: 'click' }]);
    const approved = await run.approver.data(
      `mutation { approve(id: "${request.id}") { status scope decidedBy } }`,
    );
    expect(approved.approve).toMatchObject({ status: 'APPROVED', scope: 'ONCE' });
    const response = await click;
    expect(response.errors).toBeUndefined();
    expect(response.data.click.target.name).toBe('Delete account');
    await statusIs(run, 'Account deleted');
    // The screenshot is kept in the session's artifacts under the hash its audit record names.
    const { session } = await run.agent.data(
      `{ session(id: "${run.sessionId}") { artifacts { files { path size } } } }`,
    );
    expect(session.artifacts.files).toContainEqual({
      path: `evidence/${request.screenshot.sha256}.png`,
      size: Buffer.from(request.screenshot.base64, 'base64').length,
    });
  });

  it('a deny fails the operation with POLICY_DENIED carrying the reason', async () => {
    const click = run.agent.send(CLICK_DELETE);
    const request = await nextPending();
    await run.approver.data(`mutation { deny(id: "${request.id}", reason: "not today") { status } }`);
    const error = (await click).errors?.[0];
    expect(error?.extensions?.code).toBe('POLICY_DENIED');
    expect(error?.message).toMatch(/not today.*default:HIGH/);
  });

  it('an unanswered ask fails with APPROVAL_TIMEOUT once its timeout passes', async () => {
    const started = Date.now();
    const click = run.agent.send(CLICK_DELETE);
    await nextPending();
    const error = (await click).errors?.[0];
    expect(error?.extensions?.code).toBe('APPROVAL_TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(APPROVAL_TIMEOUT_MS - 100);
  });

  it('an agent that disconnects while its click waits withdraws the request: CANCELLED, never performed, audited', async () => {
    const failedClicks = async () =>
      (
        await run.agent.data(
          '{ audit(filter: { outcomes: [FAILED], operations: ["click"] }) { edges { node { seq errorCode } } } }',
        )
      ).audit.edges.length;
    const failedBefore = await failedClicks();
    // Over graphql-ws: the socket closes.
    const leaving = tokenClient(run.gateway, AGENT_TOKEN);
    void leaving.ws.subscribe(
      { query: CLICK_DELETE },
      { next: () => {}, error: () => {}, complete: () => {} },
    );
    const overWs = await nextPending();
    await leaving.ws.dispose();
    await expect.poll(() => settledState(overWs.id)).toBe('CANCELLED');
    // Over HTTP: the request is cut off.
    const cutOff = new AbortController();
    const overHttp = fetch(run.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${AGENT_TOKEN}` },
      body: JSON.stringify({ query: CLICK_DELETE }),
      signal: cutOff.signal,
    }).catch((error: unknown) => error);
    const viaHttp = await nextPending();
    cutOff.abort();
    await overHttp;
    await expect.poll(() => settledState(viaHttp.id)).toBe('CANCELLED');
    expect((await run.approver.data('{ pendingApprovals { id } }')).pendingApprovals).toEqual([]);
    // Withdrawn, not waiting: an approver's late answer finds nothing to approve.
    expect((await run.approver.failure(`mutation { approve(id: "${viaHttp.id}") { status } }`)).code).toBe(
      'APPROVAL_NOT_FOUND',
    );
    await expect.poll(failedClicks).toBe(failedBefore + 2);
  });

  it('with no approver watching, an ask fails with APPROVAL_UNAVAILABLE without waiting', async () => {
    approvals.dispose();
    await approversWatching(run, 0);
    // Had it waited for an approver, it would have ended in APPROVAL_TIMEOUT instead.
    expect((await run.agent.failure(CLICK_DELETE)).code).toBe('APPROVAL_UNAVAILABLE');
  });

  it('SESSION scope lets the next identical request through at once', async () => {
    approvals = run.approver.watch(APPROVAL_EVENTS);
    await approversWatching(run, 1);
    const first = run.agent.send(CLICK_DELETE);
    const request = await nextPending();
    await run.approver.data(`mutation { approve(id: "${request.id}", scope: SESSION) { status } }`);
    expect((await first).errors).toBeUndefined();
    await run.agent.data('mutation { click(target: { testId: "far-button" }) { windowId } }');
    // Asked again, nobody would answer and the click would fail with APPROVAL_TIMEOUT.
    await run.agent.data(CLICK_DELETE);
    await statusIs(run, 'Account deleted');
    // Only the first click was asked about.
    expect(approvals.received.filter((event) => event.approvalRequests.state === 'PENDING')).toHaveLength(1);
  });

  it("the agent's token can neither approve, list nor watch approvals", async () => {
    expect((await run.agent.failure('mutation { approve(id: "any") { status } }')).code).toBe(
      'APPROVAL_FORBIDDEN',
    );
    expect((await run.agent.failure('{ pendingApprovals { id } }')).code).toBe('APPROVAL_FORBIDDEN');
    const watching = run.agent.watch(APPROVAL_EVENTS);
    await expect.poll(() => watching.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(watching.errors)).toContain('APPROVAL_FORBIDDEN');
    watching.dispose();
  });

  it("the approver's token cannot act, so it can never approve its own request: ROLE_FORBIDDEN, audited", async () => {
    const refused = await run.approver.failure(CLICK_DELETE);
    expect(refused.code).toBe('ROLE_FORBIDDEN');
    expect(
      approvals.received.filter((event) => event.approvalRequests.request.client.role === 'APPROVER'),
    ).toEqual([]);
    const denied = await run.agent.data(
      '{ audit(filter: { outcomes: [DENIED] }) { edges { node { operation client { role } rule { id } errorCode } } } }',
    );
    expect(denied.audit.edges.map((edge: Loose) => edge.node)).toContainEqual({
      operation: 'click',
      client: { role: 'APPROVER' },
      rule: { id: 'built-in:approvers-do-not-act' },
      errorCode: 'ROLE_FORBIDDEN',
    });
    // Reading stays open to it.
    expect((await run.approver.data('{ sessions { id } }')).sessions.length).toBeGreaterThan(0);
  });
});

describe('policy', () => {
  it('denies coordinate clicks by default, and eval by name', async () => {
    const denied = await run.agent.failure(
      'mutation { click(target: { testId: "far-button" }, position: { x: 2, y: 2 }) { windowId } }',
    );
    expect(denied.code).toBe('POLICY_DENIED');
    expect(denied.message).toContain('default:CRITICAL');
    const evaluation = await run.agent.data(
      '{ explainPolicy(operation: "eval", args: "{\\"code\\": \\"1 + 1\\"}") { decision risk reasons } }',
    );
    expect(evaluation.explainPolicy).toMatchObject({ decision: 'DENY', risk: 'CRITICAL' });
    expect(evaluation.explainPolicy.reasons[0]).toMatch(/arbitrary code/);
  });

  it('a file rule denies by target name, naming the rule; Query.policy shows it with its hits', async () => {
    const denied = await run.agent.failure('mutation { click(target: { testId: "log" }) { windowId } }');
    expect(denied.code).toBe('POLICY_DENIED');
    expect(denied.message).toContain('no-console-logging');
    expect(denied.details.rule).toMatchObject({ id: 'no-console-logging', index: 0 });
    const { policy } = await run.agent.data(
      '{ policy { origin { path sha256 } rules { id decision hits } defaults { risk decision } } }',
    );
    expect(policy.origin.path).toBe(policyFile);
    expect(policy.rules).toEqual([{ id: 'no-console-logging', decision: 'DENY', hits: 1 }]);
    expect(policy.defaults).toContainEqual({ risk: 'HIGH', decision: 'ASK' });
  });

  it('explainPolicy answers without acting: the page does not change and nothing is audited', async () => {
    await run.agent.data('mutation { click(target: { testId: "far-button" }) { windowId } }');
    const before = await run.agent.data('{ audit(first: 500) { edges { cursor } } }');
    const { explainPolicy } = await run.agent.data(
      `{ explainPolicy(operation: "click", target: { testId: "delete-account" }) {
           decision risk rule { id } reasons skipped target { role name bbox { width } } session { id } } }`,
    );
    expect(explainPolicy).toMatchObject({
      decision: 'ASK',
      risk: 'HIGH',
      rule: { id: 'default:HIGH' },
      target: { role: 'button', name: 'Delete account' },
      session: { id: run.sessionId },
    });
    expect(explainPolicy.skipped[0]).toMatch(/no-console-logging/);
    await statusIs(run, 'Far button clicked');
    const after = await run.agent.data('{ audit(first: 500) { edges { cursor } } }');
    // The only record added is the status expectation's.
    expect(after.audit.edges.length).toBe(before.audit.edges.length + 1);
  });

  it('reloads the file on change without a restart, and keeps the last good policy on a bad save', async () => {
    const decision = async () =>
      (await run.agent.data('{ explainPolicy(operation: "click", target: { testId: "log" }) { decision } }'))
        .explainPolicy.decision;
    await writeFile(policyFile, POLICY_ALLOWING_LOG);
    await expect.poll(decision, { timeout: 5_000 }).toBe('ALLOW');
    await run.agent.data('mutation { click(target: { testId: "log" }) { windowId } }');
    const good = (await run.agent.data('{ policy { origin { sha256 } } }')).policy.origin.sha256;
    await writeFile(policyFile, 'rules:\n  - id: broken\n    decision: MAYBE\n');
    await run.gateway.gateway.governance?.reloadPolicy();
    expect((await run.agent.data('{ policy { origin { sha256 } } }')).policy.origin.sha256).toBe(good);
    expect(await decision()).toBe('ALLOW');
  });

  it('a rule on session.main matches the app the session was launched from, and only that app', async () => {
    const explain = async () =>
      (
        await run.agent.data(
          '{ explainPolicy(operation: "click", target: { testId: "log" }) { decision rule { id } } }',
        )
      ).explainPolicy;
    const onMain = (glob: string) =>
      POLICY_DENYING_LOG.replace('    target:', `    session: { main: "${glob}" }\n    target:`);
    await writeFile(policyFile, onMain('**/fixtures/app'));
    await expect
      .poll(explain, { timeout: 5_000 })
      .toEqual({ decision: 'DENY', rule: { id: 'no-console-logging' } });
    await writeFile(policyFile, onMain('**/some-other-app/**'));
    await expect.poll(async () => (await explain()).decision, { timeout: 5_000 }).toBe('ALLOW');
  });
});

describe('limits', () => {
  it('refuses an over-deep document with QUERY_TOO_COMPLEX over HTTP and graphql-ws', async () => {
    const deep = `{ session { window { snapshot { nodes { ${'parent { '.repeat(12)}ref${' }'.repeat(12)} } } } } }`;
    const refused = await run.agent.failure(deep);
    expect(refused.code).toBe('QUERY_TOO_COMPLEX');
    expect(refused.message).toMatch(/depth limit of 12/);
    const overWs = run.agent.watch(deep);
    await expect.poll(() => overWs.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(overWs.errors)).toContain('QUERY_TOO_COMPLEX');
    overWs.dispose();
  });

  it('rate-limits a client that floods mutations with RATE_LIMITED', async () => {
    const limited = await startGovernedRun({ mutationsPerSecond: 2 }, { launch: false });
    try {
      const flood = await Promise.all(
        Array.from({ length: 12 }, () => limited.agent.send('mutation { stop(id: "s404") { id } }')),
      );
      const codes = flood.map((response) => response.errors?.[0]?.extensions?.code);
      expect(codes).toContain('SESSION_NOT_FOUND');
      expect(codes).toContain('RATE_LIMITED');
      const refused = flood.find((response) => response.errors?.[0]?.extensions?.code === 'RATE_LIMITED');
      expect(refused?.errors?.[0]?.extensions?.details).toMatchObject({ retryAfterMs: expect.any(Number) });
      // Reads are not rate-limited.
      expect((await limited.agent.data('{ transports { id } }')).transports).toHaveLength(4);
    } finally {
      await limited.stop();
      await limited.cleanup();
    }
  });
});

describe('authentication', () => {
  it('refuses a missing or wrong token with 401 over HTTP and a closed WebSocket with a reason', async () => {
    const anonymous = await fetch(run.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ transports { id } }' }),
    });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await run.approver.send('{ transports { id } }')).status).toBe(200);
    const impostor = tokenClient(run.gateway, `${AGENT_TOKEN}-not`);
    expect((await impostor.send('{ transports { id } }')).status).toBe(401);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      impostor.ws.on('closed', (event) => resolve(event as { code: number; reason: string })),
    );
    expect(await closed).toMatchObject({ code: 4403, reason: expect.stringContaining('UNAUTHENTICATED') });
    await impostor.ws.dispose();
  });
});

describe('start-up', () => {
  it('a bad policy file is a clear start-up error, from the gateway and from the command line', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'rules:\n  - id: typo\n    decison: DENY\n');
    await expect(startGateway({ policyFile: bad })).rejects.toMatchObject({
      code: 'POLICY_INVALID',
      details: { file: bad, ruleIndex: 0, field: 'rules[0].decison' },
    });
    const child = spawn(process.execPath, [STAGEGRAPH_BIN, 'serve', '--port', '0', '--policy', bad], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /Cannot start: POLICY_INVALID: .*bad\.yaml: rule 0, rules\[0\]\.decison: unknown field/,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
