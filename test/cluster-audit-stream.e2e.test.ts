// Every replica's audit records on one cluster-wide Redis stream: the `audit` subscription and the merged
// `audit` query on any replica show them all, each with its replica (docs/cluster.md, "Audit across replicas").
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { endCluster } from './helpers/cluster-replicas.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';

const SECRET = 'cluster-audit-stream-secret';
/** A generous bound for a loaded machine, not an expected time. */
const WAIT_MS = 60_000;
const AUDIT_EVENTS = parse(`subscription ($after: String) {
  audit(after: $after, filter: { operations: ["stop"] }) { cursor droppedBefore record { seq operation replica } }
}`);
const MERGED = `query ($first: Int, $after: String) {
  audit(first: $first, after: $after, filter: { operations: ["stop"] }) {
    edges { cursor node { seq replica arguments } } pageInfo { hasNextPage endCursor }
  }
}`;
/** Mutations are audited whatever they do: a refused stop leaves one record on the replica it was sent to. */
const stop = (via: GatewayClient, id: string) => via.send(`mutation { stop(id: "${id}") { id } }`);

interface AuditEvent {
  readonly cursor: string;
  readonly droppedBefore: number;
  readonly record: { readonly seq: number; readonly operation: string; readonly replica: string };
}

describeWithRedis('the audit stream of a cluster', () => {
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let onA: GatewayClient;
  let onB: GatewayClient;
  const sockets: Client[] = [];

  const replica = (id: string) =>
    serveInChild(['--cluster', redis.url, '--replica-id', id, '--cluster-secret', SECRET]);
  function auditOn(gateway: GatewayProcess, after: string): Subscription<Loose> {
    const socket = wsClient(gateway.wsUrl);
    sockets.push(socket);
    return subscribe(socket, AUDIT_EVENTS, { after });
  }
  const delivered = (feed: Subscription<Loose>): AuditEvent[] =>
    feed.received.map((value) => value.audit as AuditEvent);
  const recordOf = (event: AuditEvent) => ({ replica: event.record.replica, seq: event.record.seq });

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([replica('a'), replica('b')]);
    onA = gatewayClient(a.url);
    onB = gatewayClient(b.url);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.dispose()));
    await endCluster([a, b], [], redis);
  });

  it("streams b's records to a subscriber on a, with replica b, and resumes after a cursor on b", async () => {
    // From the stream's start, so nothing sent before the subscription is reading can be missed.
    const onAFeed = auditOn(a, '0');
    await stop(onB, 'no-such-session-b1');
    await onAFeed.waitFor((event) => event.audit.record.replica === 'b', WAIT_MS);
    await stop(onA, 'no-such-session-a1');
    await onAFeed.waitFor((event) => event.audit.record.replica === 'a', WAIT_MS);
    expect(onAFeed.errors).toEqual([]);
    expect(delivered(onAFeed).map(recordOf)).toEqual([
      { replica: 'b', seq: 1 },
      { replica: 'a', seq: 1 },
    ]);
    expect(delivered(onAFeed).map((event) => event.droppedBefore)).toEqual([0, 0]);
    const [first] = delivered(onAFeed);
    onAFeed.dispose();

    // Dropped, and resumed on the other replica from the last event it saw: exactly what followed.
    await stop(onB, 'no-such-session-b2');
    const onBFeed = auditOn(b, first?.cursor ?? '');
    await onBFeed.waitFor((event) => event.audit.record.seq === 2, WAIT_MS);
    expect(delivered(onBFeed).map(recordOf)).toEqual([
      { replica: 'a', seq: 1 },
      { replica: 'b', seq: 2 },
    ]);
    expect(delivered(onBFeed).map((event) => event.droppedBefore)).toEqual([0, 0]);
    onBFeed.dispose();
  });

  it("lists every replica's records through `audit` on a, merged and paged, each with its replica", async () => {
    const all = (await onA.data(MERGED, { first: 10 })).audit;
    expect(all.edges.map(({ node }: Loose) => ({ replica: node.replica, seq: node.seq }))).toEqual([
      { replica: 'b', seq: 1 },
      { replica: 'a', seq: 1 },
      { replica: 'b', seq: 2 },
    ]);
    expect(all.edges[0].node.arguments).toBe('{"id":"no-such-session-b1"}');
    expect(all.pageInfo).toEqual({ hasNextPage: false, endCursor: all.edges[2].cursor });

    const firstPage = (await onA.data(MERGED, { first: 2 })).audit;
    expect(firstPage.pageInfo).toEqual({ hasNextPage: true, endCursor: all.edges[1].cursor });
    const nextPage = (await onA.data(MERGED, { first: 2, after: firstPage.pageInfo.endCursor })).audit;
    expect(nextPage.edges.map(({ node }: Loose) => node.replica)).toEqual(['b']);

    // Naming a replica reads that replica's own trail, its records under its name.
    const ownTrail = (await onA.data('{ audit(replica: "a") { edges { cursor node { seq replica } } } }'))
      .audit;
    expect(ownTrail.edges).toEqual([{ cursor: '1', node: { seq: 1, replica: 'a' } }]);
  });
});
