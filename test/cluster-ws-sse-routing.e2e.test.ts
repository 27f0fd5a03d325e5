// Queries and mutations over graphql-ws, and screencast/snapshotChanges over SSE, sent to a replica that
// does not own the session: answered by the owner as over HTTP (docs/cluster.md, "Routing by owner",
// "Subscriptions relayed to the owner").
import { parse } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ReplicaSet, replicaSet } from './helpers/cluster-replicas.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { wsClient, wsRequest } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import type { GatewayProcess } from './helpers/gateway-process.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';
import { type SseStream, sseStream } from './helpers/sse-frames.js';
import { connectionsTo } from './helpers/tcp-connections.js';

const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
const SCREENCAST = 'subscription { screencast(session: "b-s1", maxFps: 2) { sessionId seq mimeType data } }';
const SNAPSHOT_CHANGES =
  'subscription { snapshotChanges(session: "b-s1") { windowId diff { added { role name } } } }';
const ADD_TASK = 'mutation { click(session: "b-s1", target: { testId: "add-task" }) { __typename } }';
const CLICKS =
  '{ audit(replica: "REPLICA", first: 500, filter: { operations: ["click"] }) { edges { cursor } } }';
const SECRET = 'ws-sse-secret';
/** A generous bound for a loaded machine, not an expected time. */
const WAIT_MS = 60_000;
/** How long one cause is given to show before it is caused again. */
const ATTEMPT_MS = 5_000;

describeWithRedis('WebSocket queries and SSE subscriptions routed to the owner', () => {
  let redis: RedisServer;
  let replicas: ReplicaSet;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let onB: GatewayClient;
  let socketOnA: Client;
  let socketOnB: Client;

  const bPort = () => Number(new URL(b.url).port);
  const clicksOn = async (replica: string) =>
    (await onB.data(CLICKS.replace('REPLICA', replica))).audit.edges.length as number;

  /** Adds a task in b-s1's window until the SSE feed delivers what matches: the change the test caused. */
  async function causeUntilSeen(feed: SseStream<Loose>, matches: (result: Loose) => boolean) {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      await onB.data(ADD_TASK);
      try {
        return await feed.waitFor(matches, ATTEMPT_MS);
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
    }
  }

  beforeAll(async () => {
    redis = await startRedis();
    replicas = replicaSet(redis.url, ['--cluster-secret', SECRET]);
    [a, b] = await Promise.all([replicas.start('a'), replicas.start('b')]);
    onB = gatewayClient(b.url);
    await onB.data(LAUNCH, { input: fixtureLaunch() });
    socketOnA = wsClient(a.wsUrl);
    socketOnB = wsClient(b.wsUrl);
  });
  afterAll(async () => {
    await Promise.all([socketOnA, socketOnB].map((socket) => socket?.dispose()));
    await replicas?.stop();
    await redis?.stop();
  });

  // First: the forwarded queries below leave keep-alive connections from A to B, which these count.
  it("an SSE screencast sent to A for B's session delivers B's frames; its connection to B ends with it", async () => {
    const feed = sseStream<Loose>(a.url, SCREENCAST);
    const frame = await feed.waitFor((result) => result.data?.screencast, WAIT_MS);
    expect(frame.errors).toBeUndefined();
    expect(frame.data.screencast).toMatchObject({ sessionId: 'b-s1', mimeType: 'image/jpeg' });
    expect(Buffer.from(frame.data.screencast.data, 'base64').subarray(0, 2)).toEqual(
      Buffer.from([0xff, 0xd8]),
    );
    await expect.poll(() => connectionsTo(a.pid, bPort()), { timeout: WAIT_MS }).toBe(1);
    await feed.close();
    await expect.poll(() => connectionsTo(a.pid, bPort()), { timeout: WAIT_MS }).toBe(0);
  });

  it("an SSE snapshotChanges sent to A for B's session delivers the diff of an action on B", async () => {
    const feed = sseStream<Loose>(a.url, SNAPSHOT_CHANGES);
    const changed = await causeUntilSeen(feed, (result) =>
      result.data?.snapshotChanges?.diff.added.some((node: Loose) => node.role === 'listitem'),
    );
    expect(changed.data.snapshotChanges.windowId).toBeTruthy();
    expect(feed.results.filter((result) => result.errors)).toEqual([]);
    await feed.close();
    await expect.poll(() => connectionsTo(a.pid, bPort()), { timeout: WAIT_MS }).toBe(0);
  });

  it("a mutation over graphql-ws on A for B's session runs on B, once", async () => {
    const [onBBefore, onABefore] = [await clicksOn('b'), await clicksOn('a')];
    const result = await wsRequest(socketOnA, parse(ADD_TASK));
    expect(result).toEqual({ data: { click: { __typename: expect.any(String) } } });
    expect(await clicksOn('b')).toBe(onBBefore + 1);
    expect(await clicksOn('a')).toBe(onABefore);
  });

  it("a query over graphql-ws on A for B's session answers what B answers", async () => {
    const query = parse('{ session(id: "b-s1") { id status replica { id } windows { title url } } }');
    const [fromA, fromB] = [await wsRequest(socketOnA, query), await wsRequest(socketOnB, query)];
    expect(fromA.errors).toBeUndefined();
    expect(fromA).toEqual(fromB);
  });

  it("a failing action over graphql-ws on A for B's session fails as it does on B", async () => {
    const failing = parse('mutation { click(session: "b-s1", target: { ref: "e99999" }) { __typename } }');
    const [fromA, fromB] = [await wsRequest(socketOnA, failing), await wsRequest(socketOnB, failing)];
    expect(fromA.errors?.[0]?.extensions?.code).toBeTruthy();
    expect(fromA).toEqual(fromB);
  });

  it('verifyClusterAudit over graphql-ws asks the other replica with the credential of connection_init', async () => {
    const verify = parse('{ verifyClusterAudit { ok replicas { replica status reason } } }');
    const result = await wsRequest(socketOnA, verify);
    expect(result).toEqual({
      data: {
        verifyClusterAudit: {
          ok: true,
          replicas: [
            { replica: 'a', status: 'VERIFIED', reason: null },
            { replica: 'b', status: 'VERIFIED', reason: null },
          ],
        },
      },
    });
  });

  it('a mutation over a connection another replica opened runs where it arrives: it is never forwarded twice', async () => {
    const headers = { 'x-stagegraph-forwarded-by': 'c', 'x-stagegraph-cluster-secret': SECRET };
    class RelayingSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers });
      }
    }
    const relayed = createClient({ url: a.wsUrl, webSocketImpl: RelayingSocket, retryAttempts: 0 });
    try {
      const result = await wsRequest(relayed, parse(ADD_TASK));
      expect(result.errors?.[0]?.extensions?.code, JSON.stringify(result)).toBe('SESSION_REMOTE');
    } finally {
      await relayed.dispose();
    }
  });
});
