import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  APPROVAL_TIMEOUT_MS,
  askUntilPending,
  governedReplicaArguments,
} from './helpers/cluster-approvals.js';
import { descendantsOf, endCluster, until } from './helpers/cluster-replicas.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import {
  type GatewayClient,
  gatewayClient,
  type Loose,
  type LooseResponse,
} from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { AGENT_TOKEN, APPROVER_TOKEN } from './helpers/governed-gateway.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';

/** A test that kills a replica waits for its lease to expire, on a machine that may be loaded. */
const KILL_TEST_TIMEOUT_MS = 300_000;
/** The built-in tiers: a click on "Delete Account" is asked about. */
const POLICY = 'version: 1\nrules: []\n';
const SECRET = 'cluster-approvals-secret';
const APPROVAL_EVENTS = `subscription { approvalRequests {
  state decidedBy request { id operation session { id } replica { id } }
} }`;
const clickDelete = (session: string) =>
  `mutation { click(session: "${session}", target: { testId: "delete-account" }) { target { name } } }`;
/** b's own trail: `audit` without `replica` answers the merged trail of the cluster's audit stream. */
const clickAudit = (session: string) =>
  `{ audit(replica: "b", first: 500, filter: { operations: ["click"], sessionId: "${session}" }) { edges { node { outcome approval { scope decidedBy } } } } }`;

describeWithRedis('approvals across replicas: two replicas on one Redis', () => {
  let dir: string;
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let agentOnB: GatewayClient;
  let approverOnA: GatewayClient;
  let approverOnB: GatewayClient;
  let watching: Client;
  let approvals: Subscription<Loose>;
  let session: string;
  const answered = new Set<string>();
  const orphans: number[] = [];

  const replica = (id: string, policyFile: string) =>
    serveInChild([
      '--cluster',
      redis.url,
      '--replica-id',
      id,
      ...governedReplicaArguments(SECRET, policyFile),
    ]);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  /**
   * Sends the click on b and resolves once its request is PENDING on a's stream. b learns of a's approver
   * through Redis; until it has, the click fails at once with APPROVAL_UNAVAILABLE, and is sent again.
   */
  async function askOnB(): Promise<{ click: Promise<LooseResponse>; request: Loose }> {
    const { operation, request } = await askUntilPending(
      () => agentOnB.send(clickDelete(session)),
      approvals,
      answered,
    );
    return { click: operation, request };
  }

  async function lastApprovalOnB(): Promise<Loose> {
    const { audit } = await approverOnB.data(clickAudit(session));
    return audit.edges.at(-1)?.node;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagegraph-cluster-approvals-'));
    const policyFile = join(dir, 'policy.yaml');
    await writeFile(policyFile, POLICY);
    redis = await startRedis();
    [a, b] = await Promise.all([replica('a', policyFile), replica('b', policyFile)]);
    agentOnB = gatewayClient(b.url, bearer(AGENT_TOKEN));
    approverOnA = gatewayClient(a.url, bearer(APPROVER_TOKEN));
    approverOnB = gatewayClient(b.url, bearer(APPROVER_TOKEN));
    const { launch } = await agentOnB.data(
      'mutation ($input: LaunchInput!) { launch(input: $input) { id } }',
      { input: fixtureLaunch() },
    );
    session = launch.id;
    await agentOnB.data(
      `mutation { click(session: "${session}", target: { testId: "stop-ticking" }) { windowId } }`,
    );
    watching = wsClient(a.wsUrl, bearer(APPROVER_TOKEN));
    approvals = subscribe<Loose, Record<string, unknown>>(watching, parse(APPROVAL_EVENTS));
  });
  afterAll(async () => {
    approvals?.dispose();
    await watching?.dispose();
    await endCluster([a, b], orphans, redis);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("an approver on a sees b's request, with its replica, and its answer on a releases the click waiting on b", async () => {
    const { click, request } = await askOnB();
    expect(request).toMatchObject({ operation: 'click', session: { id: session }, replica: { id: 'b' } });
    const { pendingApprovals } = await approverOnA.data('{ pendingApprovals { id replica { id } } }');
    expect(pendingApprovals).toEqual([{ id: request.id, replica: { id: 'b' } }]);
    const { approve } = await approverOnA.data(
      `mutation { approve(id: "${request.id}") { status requestId scope decidedBy } }`,
    );
    expect(approve).toMatchObject({ status: 'APPROVED', requestId: request.id, scope: 'ONCE' });
    expect((await click).errors).toBeUndefined();
    // b decided it and audited the click with the approver's answer, as a local answer would be.
    expect(await lastApprovalOnB()).toEqual({
      outcome: 'OK',
      approval: { scope: 'ONCE', decidedBy: approve.decidedBy },
    });
    await approvals.waitFor(
      (event) =>
        event.approvalRequests.request.id === request.id && event.approvalRequests.state === 'APPROVED',
    );
  });

  it("a subscriber on a that lost its connection resumes after its last cursor and gets the end of b's request", async () => {
    const RESUMABLE = parse(`subscription ($after: String) {
      approvalRequests(after: $after) { cursor droppedBefore state request { id replica { id } } }
    }`);
    const first = wsClient(a.wsUrl, bearer(APPROVER_TOKEN));
    const before = subscribe<Loose, Record<string, unknown>>(first, RESUMABLE);
    const { click, request } = await askOnB();
    const pending = await before.waitFor(
      (event) => event.approvalRequests.request.id === request.id,
      APPROVAL_TIMEOUT_MS,
    );
    expect(pending.approvalRequests).toMatchObject({ state: 'PENDING', request: { replica: { id: 'b' } } });
    expect(pending.approvalRequests.cursor).toMatch(/^\d+$/);
    before.dispose();
    await first.dispose();

    // Answered while the subscriber was away; it comes back on a with the last cursor it saw.
    await approverOnA.data(`mutation { deny(id: "${request.id}", reason: "not now") { status } }`);
    expect((await click).errors?.[0]?.extensions?.code).toBe('POLICY_DENIED');
    const again = wsClient(a.wsUrl, bearer(APPROVER_TOKEN));
    try {
      const resumed = subscribe<Loose, Record<string, unknown>>(again, RESUMABLE, {
        after: pending.approvalRequests.cursor,
      });
      const ended = await resumed.waitFor(() => true, APPROVAL_TIMEOUT_MS);
      expect(ended.approvalRequests).toMatchObject({
        state: 'DENIED',
        droppedBefore: 0,
        request: { id: request.id, replica: { id: 'b' } },
      });
      resumed.dispose();
    } finally {
      await again.dispose();
    }
  });

  it('two answers at once, on a and on b: exactly one wins, the other is told it was already answered', async () => {
    const { click, request } = await askOnB();
    const answers = await Promise.all([
      approverOnA.send(`mutation { approve(id: "${request.id}") { status } }`),
      approverOnB.send(`mutation { deny(id: "${request.id}", reason: "no") { status } }`),
    ]);
    const won = answers.filter((answer) => answer.errors === undefined);
    const lost = answers.filter((answer) => answer.errors !== undefined);
    expect(won).toHaveLength(1);
    expect(lost.map((answer) => answer.errors?.[0]?.extensions?.code)).toEqual(['APPROVAL_ALREADY_ANSWERED']);
    const clicked = await click;
    const winner = won[0]?.data?.approve ? 'APPROVED' : 'DENIED';
    expect(clicked.errors?.[0]?.extensions?.code).toBe(winner === 'APPROVED' ? undefined : 'POLICY_DENIED');
    expect(lost[0]?.errors?.[0]?.extensions?.details).toMatchObject({ state: winner });
  });

  it("a SESSION approval given on a lets b's next identical click through without asking", async () => {
    const { click, request } = await askOnB();
    await approverOnA.data(`mutation { approve(id: "${request.id}", scope: SESSION) { status } }`);
    expect((await click).errors).toBeUndefined();
    const asked = approvals.received.filter((event) => event.approvalRequests.state === 'PENDING').length;
    await agentOnB.data(clickDelete(session));
    expect(await lastApprovalOnB()).toEqual({
      outcome: 'OK',
      approval: { scope: 'SESSION', decidedBy: 'session-grant' },
    });
    expect(approvals.received.filter((event) => event.approvalRequests.state === 'PENDING').length).toBe(
      asked,
    );
  });

  it(
    'an answer for a request whose replica was killed fails with SESSION_LOST, never hangs',
    async () => {
      // A new session: the SESSION grant above would let the click through without asking.
      const { launch } = await agentOnB.data(
        'mutation ($input: LaunchInput!) { launch(input: $input) { id } }',
        { input: fixtureLaunch() },
      );
      session = launch.id;
      const { click, request } = await askOnB();
      orphans.push(...descendantsOf(b.pid));
      b.child.kill('SIGKILL');
      await b.exited;
      await click.catch(() => {});
      await until(
        () => gatewayClient(a.url, bearer(APPROVER_TOKEN)).data(`{ session(id: "${session}") { status } }`),
        (data) => data.session.status === 'LOST',
        `${session} after its replica was killed`,
      );
      expect(await approverOnA.failure(`mutation { approve(id: "${request.id}") { status } }`)).toMatchObject(
        {
          code: 'SESSION_LOST',
          details: { approvalId: request.id, replica: 'b' },
        },
      );
    },
    KILL_TEST_TIMEOUT_MS,
  );
});
