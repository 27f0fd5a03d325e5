// Subscriptions to a session another replica owns: its events travel through one Redis stream per session
// and topic, so they can be resumed from a cursor on any replica (docs/cluster.md, "Events across replicas").
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { endCluster } from './helpers/cluster-replicas.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';

const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
const CLICKED = 'fixture: button clicked';
const CONSOLE = parse(`subscription ($session: ID!, $after: String) {
  console(session: $session, textContains: "${CLICKED}", after: $after) { cursor droppedBefore entry { seq sessionId text } }
}`);
const SECRET = 'cluster-test-secret';
/** Events a's sessions keep in their streams: far fewer than one test causes. */
const TINY_BOUND = 2;
/** A generous bound for a loaded machine, not an expected time. */
const WAIT_MS = 60_000;

interface Delivered {
  readonly cursor: string;
  readonly droppedBefore: number;
  readonly entry: { readonly seq: number; readonly sessionId: string; readonly text: string };
}

describeWithRedis('events across replicas', () => {
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let onA: GatewayClient;
  let onB: GatewayClient;
  const sockets: Client[] = [];

  const replica = (id: string, ...extra: string[]) =>
    serveInChild(['--cluster', redis.url, '--replica-id', id, '--cluster-secret', SECRET, ...extra]);

  function consoleOn(gateway: GatewayProcess, session: string, after?: string): Subscription<Loose> {
    const socket = wsClient(gateway.wsUrl);
    sockets.push(socket);
    return subscribe(socket, CONSOLE, { session, ...(after === undefined ? {} : { after }) });
  }

  const delivered = (feed: Subscription<Loose>): Delivered[] =>
    feed.received.map((value) => value.console as Delivered);

  /** One click of the fixture's log button, sent to `via`: one console entry on the session's owner. */
  const click = (via: GatewayClient, session: string) =>
    via.data(`mutation { click(session: "${session}", target: { testId: "log" }) { __typename } }`);

  /** Clicks until the subscription has delivered one entry: then it is surely reading. */
  async function untilStreaming(feed: Subscription<Loose>, via: GatewayClient, session: string) {
    const deadline = Date.now() + WAIT_MS;
    while (feed.received.length === 0 && feed.errors.length === 0) {
      if (Date.now() > deadline) throw new Error(`no event on the subscription to ${session}`);
      await click(via, session);
      await feed.waitFor(() => true, 2_000).catch(() => undefined);
    }
    expect(feed.errors).toEqual([]);
  }

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([replica('a', '--cluster-stream-bound', String(TINY_BOUND)), replica('b')]);
    onA = gatewayClient(a.url);
    onB = gatewayClient(b.url);
    await Promise.all([
      onA.data(LAUNCH, { input: fixtureLaunch() }),
      onB.data(LAUNCH, { input: fixtureLaunch() }),
    ]);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.dispose()));
    await endCluster([a, b], [], redis);
  });

  it("a console subscription on one replica streams another's session in order, with no gaps", async () => {
    const feed = consoleOn(a, 'b-s1');
    await untilStreaming(feed, onB, 'b-s1');
    for (let i = 0; i < 5; i += 1) await click(onA, 'b-s1');
    await expect.poll(() => feed.received.length, { timeout: WAIT_MS }).toBeGreaterThanOrEqual(6);
    const events = delivered(feed);
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
    const first = consoleOn(a, 'b-s1');
    await untilStreaming(first, onB, 'b-s1');
    const last = delivered(first).at(-1) as Delivered;
    first.dispose();
    for (let i = 0; i < 3; i += 1) await click(onB, 'b-s1');
    const seen: number[][] = [];
    for (const gateway of [a, b]) {
      const resumed = consoleOn(gateway, 'b-s1', last.cursor);
      await expect.poll(() => resumed.received.length, { timeout: WAIT_MS }).toBe(3);
      const events = delivered(resumed);
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
    const first = consoleOn(b, 'a-s1');
    await untilStreaming(first, onA, 'a-s1');
    const last = delivered(first).at(-1) as Delivered;
    first.dispose();
    for (let i = 0; i < TINY_BOUND + 3; i += 1) await click(onA, 'a-s1');
    const resumed = consoleOn(b, 'a-s1', last.cursor);
    const gap = await resumed.waitFor(() => true, WAIT_MS);
    expect(gap.console.droppedBefore).toBeGreaterThanOrEqual(3);
    expect(resumed.errors).toEqual([]);
    resumed.dispose();
  });

  it('sessionEvents on one replica follows the life of a session another owns', async () => {
    const socket = wsClient(a.wsUrl);
    sockets.push(socket);
    // From the stream's start: the stop cannot slip in before the subscription reads.
    const feed = subscribe<Loose, Record<string, never>>(
      socket,
      parse('subscription { sessionEvents(session: "b-s1", after: "0") { type sessionId status cursor } }'),
    );
    await onA.data('mutation { stop(id: "b-s1") { status } }');
    const stopped = await feed.waitFor((value) => value.sessionEvents.type === 'STOPPED', WAIT_MS);
    expect(stopped.sessionEvents).toMatchObject({ sessionId: 'b-s1', status: 'STOPPED' });
    const types = feed.received.map((value) => value.sessionEvents.type);
    expect(types[0]).toBe('STARTED');
    expect(feed.errors).toEqual([]);
  });

  it("with Redis gone, a subscription to another replica's session ends with CLUSTER_UNAVAILABLE", async () => {
    const feed = consoleOn(b, 'a-s1');
    await untilStreaming(feed, onA, 'a-s1');
    await redis.stop();
    await expect.poll(() => feed.errors.length, { timeout: WAIT_MS }).toBeGreaterThan(0);
    // graphql-ws ends the subscription with one `error` message: its errors, as the client's sink gets them.
    const [error] = (feed.errors as Loose[][])[0] ?? [];
    expect(error.extensions).toMatchObject({ code: 'CLUSTER_UNAVAILABLE', retryable: true });
  });
});
