// Three replicas on one Redis, each owning one session: what two replicas cannot show — a call through a
// third party, a union of three, a stream read on one replica and resumed on another that owns neither
// the session nor the subscription. Loss, pauses and Redis outages are in cluster-three-failures.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { askUntilPending, governedReplicaArguments } from './helpers/cluster-approvals.js';
import { type ReplicaSet, replicaSet, until } from './helpers/cluster-replicas.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { AGENT_TOKEN, APPROVER_TOKEN } from './helpers/governed-gateway.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';

const IDS = ['a', 'b', 'c'] as const;
type Id = (typeof IDS)[number];
const SECRET = 'cluster-three-secret';
const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id replica { id } } }';
const CLICKED = 'fixture: button clicked';
/** Every console entry of the session, so consecutive cursors show that none was skipped. */
const CONSOLE = parse(`subscription ($session: ID!, $after: String) {
  console(session: $session, after: $after) { cursor droppedBefore entry { seq sessionId text } }
}`);
const APPROVAL_EVENTS = `subscription { approvalRequests {
  state request { id operation session { id } replica { id } }
} }`;
/** Events a's sessions keep in their streams: far fewer than one test causes. */
const TINY_BOUND = 2;
/** A generous bound for a loaded machine, not an expected time. */
const WAIT_MS = 60_000;
/** Every replica's chain at once. */
const VERIFY_CLUSTER = `{ verifyClusterAudit {
  ok replicas { replica status reason checkpoint { seq hash }
    verification { ok replica lastSeq lastHash broken { file line seq reason } } }
} }`;
/** The built-in tiers: a click on "Delete Account" is asked about. */
const POLICY = 'version: 1\nrules: []\n';

interface Delivered {
  readonly cursor: string;
  readonly droppedBefore: number;
  readonly entry: { readonly seq: number; readonly sessionId: string; readonly text: string };
}

describeWithRedis('cluster mode: three replicas on one Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stagegraph-cluster-three-'));
  const auditDir = (id: Id) => join(dir, `audit-${id}`);
  let redis: RedisServer;
  let replicas: ReplicaSet;
  const agent = {} as Record<Id, GatewayClient>;
  const approver = {} as Record<Id, GatewayClient>;
  const sockets: Client[] = [];
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  function consoleOn(id: Id, session: string, after?: string): Subscription<Loose> {
    const socket = wsClient(replicas.get(id).wsUrl, bearer(AGENT_TOKEN));
    sockets.push(socket);
    return subscribe(socket, CONSOLE, { session, ...(after === undefined ? {} : { after }) });
  }
  const delivered = (feed: Subscription<Loose>): Delivered[] =>
    feed.received.map((value) => value.console as Delivered);
  const clicks = (feed: Subscription<Loose>) =>
    delivered(feed).filter((event) => event.entry.text === CLICKED);

  /** One click of the fixture's log button, sent to `via`: one console entry on the session's owner. */
  const click = (via: Id, session: string) =>
    agent[via].data(`mutation { click(session: "${session}", target: { testId: "log" }) { __typename } }`);

  /** Clicks until the subscription has delivered one of them: then it is surely reading. */
  async function untilStreaming(feed: Subscription<Loose>, via: Id, session: string): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (clicks(feed).length === 0 && feed.errors.length === 0) {
      if (Date.now() > deadline) throw new Error(`no event on the subscription to ${session}`);
      await click(via, session);
      await feed.waitFor((value) => value.console.entry.text === CLICKED, 2_000).catch(() => undefined);
    }
    expect(feed.errors).toEqual([]);
  }

  /** The `operation` records in `id`'s own audit trail, oldest first. */
  async function audited(id: Id, operation: string): Promise<Loose[]> {
    const { audit } = await approver[id].data(
      `{ audit(first: 500, replica: "${id}", filter: { operations: ["${operation}"] }) { edges { node { seq outcome session { id } } } } }`,
    );
    return audit.edges.map((edge: { node: Loose }) => edge.node);
  }

  beforeAll(async () => {
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, POLICY);
    redis = await startRedis();
    replicas = replicaSet(redis.url, governedReplicaArguments(SECRET, policyFile));
    // One after another: three gateways starting at once on a loaded machine each miss their deadline.
    for (const id of IDS)
      await replicas.start(
        id,
        '--audit-dir',
        auditDir(id),
        ...(id === 'a' ? ['--cluster-stream-bound', String(TINY_BOUND)] : []),
      );
    for (const id of IDS) {
      agent[id] = gatewayClient(replicas.get(id).url, bearer(AGENT_TOKEN));
      approver[id] = gatewayClient(replicas.get(id).url, bearer(APPROVER_TOKEN));
    }
    const launched = await Promise.all(IDS.map((id) => agent[id].data(LAUNCH, { input: fixtureLaunch() })));
    expect(launched.map(({ launch }) => launch)).toEqual(
      IDS.map((id) => ({ id: `${id}-s1`, replica: { id } })),
    );
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.dispose()));
    await replicas?.stop();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('`sessions` on each replica lists all three replicas’ sessions, each with its replica', async () => {
    for (const id of IDS) {
      const { sessions } = await until(
        () => agent[id].data('{ sessions { id status replica { id } } }'),
        (data) => data.sessions.length === IDS.length,
        `the union of three replicas, read on ${id}`,
      );
      expect(sessions).toEqual(
        expect.arrayContaining(
          IDS.map((owner) => ({ id: `${owner}-s1`, status: 'RUNNING', replica: { id: owner } })),
        ),
      );
    }
  });

  it("a mutation sent to a for b's session runs once, on b (audited there only), and answers as b does", async () => {
    const counts = async () =>
      Object.fromEntries(await Promise.all(IDS.map(async (id) => [id, (await audited(id, 'press')).length])));
    const before = await counts();
    const press =
      'mutation { press(session: "b-s1", key: "Shift") { __typename nameAfter resolvedBy { strategy } } }';
    const throughA = await agent.a.send(press);
    expect(await counts()).toEqual({ ...before, b: before.b + 1 });
    expect((await audited('b', 'press')).at(-1)).toMatchObject({ outcome: 'OK', session: { id: 'b-s1' } });
    const onB = await agent.b.send(press);
    expect(throughA).toEqual(onB);
    expect(throughA.errors).toBeUndefined();

    // A failing step, then STEP_SKIPPED, in order; the same records on b, whichever replica was sent it.
    const steps = `mutation {
      first: press(session: "b-s1", key: "Shift") { __typename }
      second: press(session: "b-s1", key: "NoSuchKeyAnywhere") { __typename }
      third: press(session: "b-s1", key: "Shift") { __typename }
    }`;
    const beforeSteps = await counts();
    const stepsThroughA = await agent.a.send(steps);
    const forwarded = await counts();
    const stepsOnB = await agent.b.send(steps);
    const direct = await counts();
    expect(forwarded).toEqual({ ...beforeSteps, b: forwarded.b });
    expect(forwarded.b).toBeGreaterThan(beforeSteps.b);
    expect(direct.b - forwarded.b).toBe(forwarded.b - beforeSteps.b);
    expect(stepsThroughA.errors?.map(({ path, extensions }: Loose) => [path, extensions?.code])).toEqual([
      [['second'], expect.any(String)],
      [['third'], 'STEP_SKIPPED'],
    ]);
    expect(stepsThroughA.data).toEqual({ first: { __typename: 'ActionResult' }, second: null, third: null });
    expect(stepsThroughA).toEqual(stepsOnB);
  });

  it("a console subscription on a to c's session streams every entry in order; resumed on b from its last cursor, it gets exactly the missed ones", async () => {
    // The owner's own subscriber reads its hub: what every other replica's reader must deliver alike.
    const witness = consoleOn('c', 'c-s1');
    await untilStreaming(witness, 'c', 'c-s1');
    const entriesOf = (feed: Subscription<Loose>, from: number, to: number) =>
      delivered(feed)
        .map((event) => event.entry)
        .filter((entry) => entry.seq >= from && entry.seq <= to);
    const feed = consoleOn('a', 'c-s1');
    await untilStreaming(feed, 'c', 'c-s1');
    const before = clicks(witness).length;
    // Sent to b: c's own log button, clicked through a replica that neither owns the session nor streams it.
    for (let i = 0; i < 4; i += 1) await click('b', 'c-s1');
    await expect.poll(() => clicks(witness).length, { timeout: WAIT_MS }).toBeGreaterThanOrEqual(before + 4);
    const upTo = (delivered(witness).at(-1) as Delivered).entry.seq;
    await expect
      .poll(() => delivered(feed).at(-1)?.entry.seq, { timeout: WAIT_MS })
      .toBeGreaterThanOrEqual(upTo);
    const events = delivered(feed);
    expect(feed.errors).toEqual([]);
    const from = (events[0] as Delivered).entry.seq;
    expect(entriesOf(feed, from, upTo)).toEqual(entriesOf(witness, from, upTo));
    expect(events.every((event) => event.entry.sessionId === 'c-s1' && event.droppedBefore === 0)).toBe(true);
    const cursors = events.map((event) => Number(event.cursor));
    expect(cursors).toEqual(cursors.map((_, i) => (cursors[0] as number) + i));

    const last = events.at(-1) as Delivered;
    feed.dispose();
    for (let i = 0; i < 3; i += 1) await click('a', 'c-s1');
    const resumed = consoleOn('b', 'c-s1', last.cursor);
    await expect.poll(() => clicks(resumed).length, { timeout: WAIT_MS }).toBe(3);
    const resumedTo = (delivered(resumed).at(-1) as Delivered).entry.seq;
    await expect
      .poll(() => delivered(witness).at(-1)?.entry.seq, { timeout: WAIT_MS })
      .toBeGreaterThanOrEqual(resumedTo);
    expect(resumed.errors).toEqual([]);
    expect(delivered(resumed).map((event) => event.entry)).toEqual(
      entriesOf(witness, last.entry.seq + 1, resumedTo),
    );
    expect(delivered(resumed).every((event) => event.droppedBefore === 0)).toBe(true);
    expect(Number(delivered(resumed)[0]?.cursor)).toBe(Number(last.cursor) + 1);
    resumed.dispose();
    witness.dispose();
  });

  it("resumed on b after a's stream (bound 2) trimmed what it missed, a subscriber from c is told how many", async () => {
    const first = consoleOn('c', 'a-s1');
    await untilStreaming(first, 'a', 'a-s1');
    const last = delivered(first).at(-1) as Delivered;
    first.dispose();
    for (let i = 0; i < TINY_BOUND + 3; i += 1) await click('c', 'a-s1');
    const resumed = consoleOn('b', 'a-s1', last.cursor);
    const gap = await resumed.waitFor(() => true, WAIT_MS);
    expect(gap.console.droppedBefore).toBeGreaterThanOrEqual(3);
    expect(Number(gap.console.cursor)).toBe(Number(last.cursor) + 1 + gap.console.droppedBefore);
    expect(resumed.errors).toEqual([]);
    resumed.dispose();
  });

  it("an approval answered on a releases b's click; two answers at once, on a and on c: exactly one wins", async () => {
    await agent.b.data(
      'mutation { click(session: "b-s1", target: { testId: "stop-ticking" }) { windowId } }',
    );
    const watching = wsClient(replicas.get('a').wsUrl, bearer(APPROVER_TOKEN));
    sockets.push(watching);
    const approvals = subscribe<Loose, Record<string, unknown>>(watching, parse(APPROVAL_EVENTS));
    const answered = new Set<string>();
    const clickDelete = () =>
      agent.b.send(
        'mutation { click(session: "b-s1", target: { testId: "delete-account" }) { target { name } } }',
      );

    const asked = await askUntilPending(clickDelete, approvals, answered);
    expect(asked.request).toMatchObject({
      operation: 'click',
      session: { id: 'b-s1' },
      replica: { id: 'b' },
    });
    await approver.a.data(`mutation { approve(id: "${asked.request.id}") { status } }`);
    expect((await asked.operation).errors).toBeUndefined();
    expect((await audited('b', 'click')).at(-1)).toMatchObject({ outcome: 'OK', session: { id: 'b-s1' } });

    const raced = await askUntilPending(clickDelete, approvals, answered);
    const answers = await Promise.all([
      approver.a.send(`mutation { approve(id: "${raced.request.id}") { status } }`),
      approver.c.send(`mutation { deny(id: "${raced.request.id}", reason: "no") { status } }`),
    ]);
    const won = answers.filter((answer) => answer.errors === undefined);
    const lost = answers.filter((answer) => answer.errors !== undefined);
    expect(won).toHaveLength(1);
    expect(lost.map((answer) => answer.errors?.[0]?.extensions?.code)).toEqual(['APPROVAL_ALREADY_ANSWERED']);
    const approved = won[0]?.data?.approve !== undefined;
    expect(lost[0]?.errors?.[0]?.extensions?.details).toMatchObject({
      state: approved ? 'APPROVED' : 'DENIED',
    });
    expect((await raced.operation).errors?.[0]?.extensions?.code).toBe(
      approved ? undefined : 'POLICY_DENIED',
    );
    approvals.dispose();
  });

  it("`verifyAudit` of every replica, and `verifyClusterAudit` of all three, pass from any replica; one record edited on b's disk is named with b and its line", async () => {
    for (const via of IDS) {
      const { verifyClusterAudit } = await approver[via].data(VERIFY_CLUSTER);
      expect(verifyClusterAudit.ok).toBe(true);
      expect(verifyClusterAudit.replicas.map((entry: Loose) => entry.replica)).toEqual([
        via,
        ...IDS.filter((id) => id !== via),
      ]);
      for (const entry of verifyClusterAudit.replicas)
        expect(entry).toMatchObject({
          status: 'VERIFIED',
          reason: null,
          verification: { ok: true, replica: entry.replica, broken: null },
          checkpoint: { seq: entry.verification.lastSeq, hash: entry.verification.lastHash },
        });
    }
    for (const via of IDS)
      for (const id of IDS)
        expect(
          (await approver[via].data(`{ verifyAudit(replica: "${id}") { ok replica broken { line } } }`))
            .verifyAudit,
        ).toEqual({
          ok: true,
          replica: id,
          broken: null,
        });
    const file = join(
      auditDir('b'),
      readdirSync(auditDir('b')).find((name) => name.endsWith('.jsonl')) as string,
    );
    const lines = readFileSync(file, 'utf8').split('\n');
    const index = lines.findIndex((line) => line.includes('"operation":"press"'));
    const { seq } = JSON.parse(lines[index] as string);
    lines[index] = (lines[index] as string).replace('"operation":"press"', '"operation":"prest"');
    writeFileSync(file, lines.join('\n'));
    for (const via of IDS)
      expect(
        (
          await approver[via].data(
            '{ verifyAudit(replica: "b") { ok replica broken { file line seq reason } } }',
          )
        ).verifyAudit,
      ).toMatchObject({
        ok: false,
        replica: 'b',
        broken: { line: index + 1, seq, reason: expect.stringMatching(/does not match its hash/) },
      });
    for (const id of ['a', 'c'] as const)
      expect((await approver.b.data(`{ verifyAudit(replica: "${id}") { ok } }`)).verifyAudit.ok).toBe(true);
    for (const via of IDS) {
      const { verifyClusterAudit } = await approver[via].data(VERIFY_CLUSTER);
      expect(verifyClusterAudit.ok).toBe(false);
      const entries = new Map(verifyClusterAudit.replicas.map((entry: Loose) => [entry.replica, entry]));
      expect(entries.get('b')).toMatchObject({
        status: 'VERIFIED',
        verification: { ok: false, replica: 'b', broken: { line: index + 1, seq } },
      });
      for (const id of ['a', 'c']) expect(entries.get(id)).toMatchObject({ verification: { ok: true } });
    }
  });
});
