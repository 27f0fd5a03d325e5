// Subscriptions to a session another replica owns: its events travel through one Redis stream per session
// and topic, so they can be resumed from a cursor on any replica (docs/cluster.md, "Events across replicas").
import { parse } from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  delivered,
  LAUNCH,
  mergedAuditOnceStreamed,
  STREAM_WAIT_MS,
  type Streamed,
  startTwoReplicas,
  type TwoReplicas,
  untilStreaming,
} from './helpers/cluster-streams.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import type { Subscription } from './helpers/gateway.js';
import type { GatewayClient, Loose } from './helpers/gateway-client.js';
import type { GatewayProcess } from './helpers/gateway-process.js';
import { describeWithRedis } from './helpers/redis-suite.js';

const CLICKED = 'fixture: button clicked';
const CONSOLE = parse(`subscription ($session: ID!, $after: String) {
  console(session: $session, textContains: "${CLICKED}", after: $after) { cursor droppedBefore entry { seq sessionId text } }
}`);
/** Events a's sessions keep in their streams: far fewer than one test causes. */
const TINY_BOUND = 2;

type Delivered = Streamed<
  'entry',
  { readonly seq: number; readonly sessionId: string; readonly text: string }
>;

describeWithRedis('events across replicas', () => {
  let cluster: TwoReplicas;

  function consoleOn(gateway: GatewayProcess, session: string, after?: string): Subscription<Loose> {
    return cluster.subscribe(gateway, CONSOLE, { session, ...(after === undefined ? {} : { after }) });
  }

  const entries = (feed: Subscription<Loose>) => delivered<Delivered>(feed, 'console');

  /** One click of the fixture's log button, sent to `via`: one console entry on the session's owner. */
  const click = (via: GatewayClient, session: string) =>
    via.data(`mutation { click(session: "${session}", target: { testId: "log" }) { __typename } }`);

  /** Clicks until the subscription has delivered one entry: then it is surely reading. */
  const clickUntilStreaming = (feed: Subscription<Loose>, via: GatewayClient, session: string) =>
    untilStreaming(feed, () => click(via, session), session);

  beforeAll(async () => {
    cluster = await startTwoReplicas(['--cluster-stream-bound', String(TINY_BOUND)]);
    await Promise.all([
      cluster.onA.data(LAUNCH, { input: fixtureLaunch() }),
      cluster.onB.data(LAUNCH, { input: fixtureLaunch() }),
    ]);
  });
  afterAll(() => cluster?.end());

  it("a console subscription on one replica streams another's session in order, with no gaps", async () => {
    const feed = consoleOn(cluster.a, 'b-s1');
    await clickUntilStreaming(feed, cluster.onB, 'b-s1');
    for (let i = 0; i < 5; i += 1) await click(cluster.onA, 'b-s1');
    await expect.poll(() => feed.received.length, { timeout: STREAM_WAIT_MS }).toBeGreaterThanOrEqual(6);
    const events = entries(feed);
    expect(events.every((event) => event.entry.sessionId === 'b-s1' && event.entry.text === CLICKED)).toBe(
      true,
    );
    expect(events.every((event) => event.droppedBefore === 0)).toBe(true);
    const seqs = events.map((event) => event.entry.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    const cursors = events.map((event) => Number(event.cursor));
    expect(cursors).toEqual([...new Set(cursors)].sort((x, y) => x - y));
    feed.dispose();
  });

  it('dropped and resumed from its last cursor, on this replica or the owner, it gets exactly the missed events', async () => {
    const first = consoleOn(cluster.a, 'b-s1');
    await clickUntilStreaming(first, cluster.onB, 'b-s1');
    const last = entries(first).at(-1) as Delivered;
    first.dispose();
    for (let i = 0; i < 3; i += 1) await click(cluster.onB, 'b-s1');
    const seen: number[][] = [];
    for (const gateway of [cluster.a, cluster.b]) {
      const resumed = consoleOn(gateway, 'b-s1', last.cursor);
      await expect.poll(() => resumed.received.length, { timeout: STREAM_WAIT_MS }).toBe(3);
      const events = entries(resumed);
      expect(resumed.errors).toEqual([]);
      expect(events.every((event) => event.droppedBefore === 0 && event.entry.text === CLICKED)).toBe(true);
      // Ticks log between the clicks, so the clicks' seqs are not consecutive: each comes after the last seen.
      expect(events.every((event) => event.entry.seq > last.entry.seq)).toBe(true);
      seen.push(events.map((event) => event.entry.seq));
      resumed.dispose();
    }
    expect(seen[1]).toEqual(seen[0]);
  });

  it('resumed after its events were trimmed from the stream, it is told how many it missed', async () => {
    const first = consoleOn(cluster.b, 'a-s1');
    await clickUntilStreaming(first, cluster.onA, 'a-s1');
    const last = entries(first).at(-1) as Delivered;
    first.dispose();
    for (let i = 0; i < TINY_BOUND + 3; i += 1) await click(cluster.onA, 'a-s1');
    const resumed = consoleOn(cluster.b, 'a-s1', last.cursor);
    const gap = await resumed.waitFor(() => true, STREAM_WAIT_MS);
    expect(gap.console.droppedBefore).toBeGreaterThanOrEqual(3);
    expect(resumed.errors).toEqual([]);
    resumed.dispose();
  });

  it('sessionEvents on one replica follows the life of a session another owns', async () => {
    // From the stream's start: the stop cannot slip in before the subscription reads.
    const feed = cluster.subscribe(
      cluster.a,
      'subscription { sessionEvents(session: "b-s1", after: "0") { type sessionId status cursor } }',
    );
    await cluster.onA.data('mutation { stop(id: "b-s1") { status } }');
    const stopped = await feed.waitFor((value) => value.sessionEvents.type === 'STOPPED', STREAM_WAIT_MS);
    expect(stopped.sessionEvents).toMatchObject({ sessionId: 'b-s1', status: 'STOPPED' });
    const types = feed.received.map((value) => value.sessionEvents.type);
    expect(types[0]).toBe('STARTED');
    expect(feed.errors).toEqual([]);
  });

  it("the merged audit trail counts what the stream trimmed before its page, records still in each replica's trail", async () => {
    // Refused stops are audited on a, whose appends trim the audit stream to the tiny bound.
    for (let i = 0; i <= TINY_BOUND; i += 1)
      await cluster.onA.send('mutation { stop(id: "no-such-session") { id } }');
    const merged = await mergedAuditOnceStreamed(cluster.onB, ['a', 'b']);
    expect(merged.edges).toHaveLength(TINY_BOUND);
    expect(merged.pageInfo.trimmedBefore).toBe(Number(merged.edges[0].cursor) - 1);
    expect(merged.pageInfo.trimmedBefore).toBeGreaterThan(0);
    const replicaTrail = await cluster.onB.data(
      '{ audit(replica: "a", first: 1) { pageInfo { trimmedBefore } } }',
    );
    expect(replicaTrail.audit.pageInfo.trimmedBefore).toBe(0);
  });

  it("with Redis gone, a subscription to another replica's session ends with CLUSTER_UNAVAILABLE", async () => {
    const feed = consoleOn(cluster.b, 'a-s1');
    await clickUntilStreaming(feed, cluster.onA, 'a-s1');
    await cluster.redis.stop();
    await expect.poll(() => feed.errors.length, { timeout: STREAM_WAIT_MS }).toBeGreaterThan(0);
    // graphql-ws ends the subscription with one `error` message: its errors, as the client's sink gets them.
    const [error] = (feed.errors as Loose[][])[0] ?? [];
    expect(error.extensions).toMatchObject({ code: 'CLUSTER_UNAVAILABLE', retryable: true });
  });
});
