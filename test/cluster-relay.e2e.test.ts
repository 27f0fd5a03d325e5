// Subscriptions whose events stay on the session's owner (screencast frames, a window's diffs), sent to a
// replica that does not own the session: relayed to the owner over graphql-ws (docs/cluster.md,
// "Subscriptions relayed to the owner").
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { descendantsOf, endCluster, LOSS_DEADLINE_MS } from './helpers/cluster-replicas.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';
import { connectionsTo } from './helpers/tcp-connections.js';

const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
const SCREENCAST = parse(
  'subscription ($session: ID!) { screencast(session: $session, maxFps: 2) { sessionId seq mimeType data } }',
);
// Not quiet: the task list, changed by every test here, would be learnt as a place that changes on its own.
const SNAPSHOT_CHANGES = parse(
  'subscription ($session: ID) { snapshotChanges(session: $session) { windowId diff { added { role name } } } }',
);
const SECRET = 'cluster-test-secret';
/** A generous bound for a loaded machine, not an expected time. */
const WAIT_MS = 60_000;
/** How long one cause is given to show before it is caused again. */
const ATTEMPT_MS = 5_000;
/** The kill test waits for a lease to expire, on a machine that may be loaded. */
const KILL_TEST_TIMEOUT_MS = LOSS_DEADLINE_MS + WAIT_MS;

describeWithRedis('subscriptions relayed to the owner', () => {
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let onB: GatewayClient;
  const sockets: Client[] = [];
  const orphans: number[] = [];

  const replica = (id: string) =>
    serveInChild(['--cluster', redis.url, '--replica-id', id, '--cluster-secret', SECRET]);

  function subscribeOnA(document: typeof SCREENCAST | typeof SNAPSHOT_CHANGES): Subscription<Loose> {
    const socket = wsClient(a.wsUrl);
    sockets.push(socket);
    return subscribe<Loose, Record<string, unknown>>(socket, document, { session: 'b-s1' });
  }

  /** Adds a task in b-s1's window, sent to its owner: a repaint and a new list item there. */
  const addTask = () =>
    onB.data('mutation { click(session: "b-s1", target: { testId: "add-task" }) { __typename } }');

  /** Causes a change on B until the feed delivers what matches: the event the test caused. */
  async function causeUntilSeen(feed: Subscription<Loose>, matches: (value: Loose) => boolean) {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      expect(feed.errors).toEqual([]);
      await addTask();
      try {
        return await feed.waitFor(matches, ATTEMPT_MS);
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
    }
  }

  const bPort = () => Number(new URL(b.url).port);

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([replica('a'), replica('b')]);
    onB = gatewayClient(b.url);
    await onB.data(LAUNCH, { input: fixtureLaunch() });
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.dispose()));
    await endCluster([a, b], orphans, redis);
  });

  it("a screencast sent to A for B's session delivers the frames an action on B paints", async () => {
    const feed = subscribeOnA(SCREENCAST);
    const first = await feed.waitFor(() => true, WAIT_MS);
    expect(feed.errors).toEqual([]);
    const painted = await causeUntilSeen(feed, (value) => value.screencast.seq > first.screencast.seq);
    expect(painted.screencast).toMatchObject({ sessionId: 'b-s1', mimeType: 'image/jpeg' });
    expect(Buffer.from(painted.screencast.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    feed.dispose();
  });

  it("snapshotChanges sent to A for B's session delivers the diff of an action on B", async () => {
    const feed = subscribeOnA(SNAPSHOT_CHANGES);
    const changed = await causeUntilSeen(feed, (value) =>
      value.snapshotChanges.diff.added.some((node: Loose) => node.role === 'listitem'),
    );
    expect(changed.snapshotChanges.windowId).toBeTruthy();
    feed.dispose();
  });

  it('unsubscribing on A closes the relay to B', async () => {
    const feed = subscribeOnA(SCREENCAST);
    await feed.waitFor(() => true, WAIT_MS);
    await expect.poll(() => connectionsTo(a.pid, bPort()), { timeout: WAIT_MS }).toBe(1);
    feed.dispose();
    await expect.poll(() => connectionsTo(a.pid, bPort()), { timeout: WAIT_MS }).toBe(0);
  });

  it('a relayed connection with a wrong cluster secret is refused by the owner', async () => {
    const forged = new WebSocket(b.wsUrl, 'graphql-transport-ws', {
      headers: { 'x-stagegraph-forwarded-by': 'a', 'x-stagegraph-cluster-secret': 'not-the-secret' },
    });
    forged.once('open', () => forged.send(JSON.stringify({ type: 'connection_init' })));
    const [code, reason] = await new Promise<[number, string]>((resolve) => {
      forged.once('close', (closeCode, closeReason) => resolve([closeCode, String(closeReason)]));
      // Accepted: the answer the test refuses.
      forged.once('message', (data) => {
        resolve([0, String(data)]);
        forged.close();
      });
    });
    expect(code).toBe(4403);
    expect(reason).toMatch(/^UNAUTHENTICATED: /);
  });

  it(
    "kill -9 of B ends A's relayed subscription with SESSION_LOST",
    async () => {
      const feed = subscribeOnA(SNAPSHOT_CHANGES);
      await causeUntilSeen(feed, (value) =>
        value.snapshotChanges.diff.added.some((node: Loose) => node.role === 'listitem'),
      );
      orphans.push(...descendantsOf(b.pid));
      b.child.kill('SIGKILL');
      await b.exited;
      await expect.poll(() => feed.errors.length, { timeout: LOSS_DEADLINE_MS }).toBeGreaterThan(0);
      // graphql-ws ends the subscription with one `error` message: its errors, as the client's sink gets them.
      const [error] = (feed.errors as Loose[][])[0] ?? [];
      expect(error.extensions).toMatchObject({
        code: 'SESSION_LOST',
        details: { session: 'b-s1', replica: 'b' },
      });
    },
    KILL_TEST_TIMEOUT_MS,
  );
});
