// Every replica's audit records on one cluster-wide Redis stream: the `audit` subscription and the merged
// `audit` query on any replica show them all, each with its replica (docs/cluster.md, "Audit across replicas").
import { parse } from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  delivered,
  STREAM_WAIT_MS,
  type Streamed,
  startTwoReplicas,
  type TwoReplicas,
} from './helpers/cluster-streams.js';
import type { Subscription } from './helpers/gateway.js';
import type { GatewayClient, Loose } from './helpers/gateway-client.js';
import type { GatewayProcess } from './helpers/gateway-process.js';
import { describeWithRedis } from './helpers/redis-suite.js';

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

type AuditEvent = Streamed<
  'record',
  { readonly seq: number; readonly operation: string; readonly replica: string }
>;

describeWithRedis('the audit stream of a cluster', () => {
  let cluster: TwoReplicas;

  const auditOn = (gateway: GatewayProcess, after: string) =>
    cluster.subscribe(gateway, AUDIT_EVENTS, { after });
  const records = (feed: Subscription<Loose>) => delivered<AuditEvent>(feed, 'audit');
  const recordOf = (event: AuditEvent) => ({ replica: event.record.replica, seq: event.record.seq });

  beforeAll(async () => {
    cluster = await startTwoReplicas();
  });
  afterAll(() => cluster?.end());

  it("streams b's records to a subscriber on a, with replica b, and resumes after a cursor on b", async () => {
    // From the stream's start, so nothing sent before the subscription is reading can be missed.
    const onAFeed = auditOn(cluster.a, '0');
    await stop(cluster.onB, 'no-such-session-b1');
    await onAFeed.waitFor((event) => event.audit.record.replica === 'b', STREAM_WAIT_MS);
    await stop(cluster.onA, 'no-such-session-a1');
    await onAFeed.waitFor((event) => event.audit.record.replica === 'a', STREAM_WAIT_MS);
    expect(onAFeed.errors).toEqual([]);
    expect(records(onAFeed).map(recordOf)).toEqual([
      { replica: 'b', seq: 1 },
      { replica: 'a', seq: 1 },
    ]);
    expect(records(onAFeed).map((event) => event.droppedBefore)).toEqual([0, 0]);
    const [first] = records(onAFeed);
    onAFeed.dispose();

    // Dropped, and resumed on the other replica from the last event it saw: exactly what followed.
    await stop(cluster.onB, 'no-such-session-b2');
    const onBFeed = auditOn(cluster.b, first?.cursor ?? '');
    await onBFeed.waitFor((event) => event.audit.record.seq === 2, STREAM_WAIT_MS);
    expect(records(onBFeed).map(recordOf)).toEqual([
      { replica: 'a', seq: 1 },
      { replica: 'b', seq: 2 },
    ]);
    expect(records(onBFeed).map((event) => event.droppedBefore)).toEqual([0, 0]);
    onBFeed.dispose();
  });

  it("lists every replica's records through `audit` on a, merged and paged, each with its replica", async () => {
    const all = (await cluster.onA.data(MERGED, { first: 10 })).audit;
    expect(all.edges.map(({ node }: Loose) => ({ replica: node.replica, seq: node.seq }))).toEqual([
      { replica: 'b', seq: 1 },
      { replica: 'a', seq: 1 },
      { replica: 'b', seq: 2 },
    ]);
    expect(all.edges[0].node.arguments).toBe('{"id":"no-such-session-b1"}');
    expect(all.pageInfo).toEqual({ hasNextPage: false, endCursor: all.edges[2].cursor });

    const firstPage = (await cluster.onA.data(MERGED, { first: 2 })).audit;
    expect(firstPage.pageInfo).toEqual({ hasNextPage: true, endCursor: all.edges[1].cursor });
    const nextPage = (await cluster.onA.data(MERGED, { first: 2, after: firstPage.pageInfo.endCursor }))
      .audit;
    expect(nextPage.edges.map(({ node }: Loose) => node.replica)).toEqual(['b']);

    // Naming a replica reads that replica's own trail, its records under its name.
    const ownTrail = (
      await cluster.onA.data('{ audit(replica: "a") { edges { cursor node { seq replica } } } }')
    ).audit;
    expect(ownTrail.edges).toEqual([{ cursor: '1', node: { seq: 1, replica: 'a' } }]);
  });
});
