// Subscriptions besides console to a session another replica owns (notifications here; network, dialogs,
// nativeDialogs, ipc and contextMenus read their streams the same way), and what a subscriber on another
// replica is told when the owner dies (docs/cluster.md, "Events across replicas").
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { descendantsOf, endCluster, LOSS_DEADLINE_MS } from './helpers/cluster-replicas.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';

const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
const NOTIFICATIONS = parse(`subscription ($session: ID!, $after: String) {
  notifications(session: $session, after: $after) { cursor droppedBefore notification { seq sessionId title } }
}`);
const SECRET = 'cluster-test-secret';
/** A generous bound for a loaded machine, not an expected time. */
const WAIT_MS = 60_000;

interface Delivered {
  readonly cursor: string;
  readonly droppedBefore: number;
  readonly notification: { readonly seq: number; readonly sessionId: string; readonly title: string };
}

describeWithRedis('subscriptions across replicas', () => {
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let onA: GatewayClient;
  let onB: GatewayClient;
  const sockets: Client[] = [];
  const orphans: number[] = [];

  const replica = (id: string) =>
    serveInChild(['--cluster', redis.url, '--replica-id', id, '--cluster-secret', SECRET]);

  function on<T = Loose>(
    gateway: GatewayProcess,
    document: string | ReturnType<typeof parse>,
    variables = {},
  ) {
    const socket = wsClient(gateway.wsUrl);
    sockets.push(socket);
    const parsed = typeof document === 'string' ? parse(document) : document;
    return subscribe<T, Record<string, unknown>>(socket, parsed, variables);
  }

  const delivered = (feed: Subscription<Loose>): Delivered[] =>
    feed.received.map((value) => value.notifications as Delivered);

  /** One click of the fixture's notify button, sent to `via`: one notification "Hello" on b-s1. */
  const notifyOnce = (via: GatewayClient) =>
    via.data('mutation { click(session: "b-s1", target: { testId: "notify" }) { __typename } }');

  /** Notifies until the subscription has delivered one: then it is surely reading. */
  async function untilStreaming(feed: Subscription<Loose>) {
    const deadline = Date.now() + WAIT_MS;
    while (feed.received.length === 0 && feed.errors.length === 0) {
      if (Date.now() > deadline) throw new Error('no notification on the subscription to b-s1');
      await notifyOnce(onB);
      await feed.waitFor(() => true, 2_000).catch(() => undefined);
    }
    expect(feed.errors).toEqual([]);
  }

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([replica('a'), replica('b')]);
    onA = gatewayClient(a.url);
    onB = gatewayClient(b.url);
    await onB.data(LAUNCH, { input: fixtureLaunch() });
    await onB.data('mutation { armNotifications(session: "b-s1", titleContains: "Hello") { armed } }');
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.dispose()));
    await endCluster([a, b], orphans, redis);
  });

  it("a notifications subscription on one replica streams another's session, and resumes there from its cursor", async () => {
    const first = on(a, NOTIFICATIONS, { session: 'b-s1' });
    await untilStreaming(first);
    const last = delivered(first).at(-1) as Delivered;
    expect(last.notification).toMatchObject({ sessionId: 'b-s1', title: 'Hello' });
    expect(last.cursor).toMatch(/^\d+$/);
    first.dispose();
    for (let i = 0; i < 2; i += 1) await notifyOnce(onA);
    const resumed = on(a, NOTIFICATIONS, { session: 'b-s1', after: last.cursor });
    await expect.poll(() => resumed.received.length, { timeout: WAIT_MS }).toBeGreaterThanOrEqual(2);
    const events = delivered(resumed);
    expect(resumed.errors).toEqual([]);
    expect(events.every((event) => event.droppedBefore === 0 && event.notification.title === 'Hello')).toBe(
      true,
    );
    expect(events.every((event) => event.notification.seq > last.notification.seq)).toBe(true);
    const cursors = events.map((event) => Number(event.cursor));
    expect(cursors[0]).toBeGreaterThan(Number(last.cursor));
    expect(cursors).toEqual([...cursors].sort((x, y) => x - y));
    resumed.dispose();
  });

  it('kill -9 of the owner ends the subscription with SESSION_LOST, and sessionEvents reports LOST', async () => {
    const notifications = on(a, NOTIFICATIONS, { session: 'b-s1' });
    await untilStreaming(notifications);
    // From the stream's start: it is surely reading before the owner dies.
    const lifecycle = on(
      a,
      'subscription { sessionEvents(session: "b-s1", after: "0") { type status cursor } }',
    );
    await lifecycle.waitFor((value) => value.sessionEvents.type === 'STARTED', WAIT_MS);
    orphans.push(...descendantsOf(b.pid));
    b.child.kill('SIGKILL');
    await b.exited;
    const lost = await lifecycle.waitFor((value) => value.sessionEvents.type === 'LOST', LOSS_DEADLINE_MS);
    expect(lost.sessionEvents).toEqual({ type: 'LOST', status: 'LOST', cursor: null });
    expect(lifecycle.errors).toEqual([]);
    await expect.poll(() => notifications.errors.length, { timeout: LOSS_DEADLINE_MS }).toBeGreaterThan(0);
    const [error] = (notifications.errors as Loose[][])[0] ?? [];
    expect(error.extensions).toMatchObject({ code: 'SESSION_LOST' });
    expect(error.message).toMatch(/b-s1 is LOST: its replica b lost its lease/);
  });
});
