import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayedAnswer, SharedApproval } from '../domain/cluster/shared-approvals.js';
import { HAS_REDIS, type RedisServer, startRedis } from '../test/helpers/redis-server.js';
import type { RedisApprovalStore } from './redis-approval-store.js';
import { RedisClusterStore } from './redis-cluster-store.js';

const LONG_LEASE_MS = 600_000;

const entry = (id: string, replicaId: string, epoch = 1): SharedApproval => ({
  replicaId,
  epoch,
  request: {
    id,
    operation: 'click',
    client: { id: 'agent-1', role: 'agent' },
    session: { id: `${replicaId}-s1` },
    target: null,
    args: {},
    risk: 'HIGH',
    rule: { id: 'default:HIGH', index: null, description: 'high risk asks' },
    reasons: [],
    createdAt: new Date(0).toISOString(),
    expiresAt: new Date(60_000).toISOString(),
  } as unknown as SharedApproval['request'],
});

const answerBy = (id: string, relayedBy: string): RelayedAnswer => ({
  id,
  answer: { decision: 'APPROVED', scope: 'ONCE' },
  client: { id: `approver-on-${relayedBy}`, role: 'approver' },
  relayedBy,
});

describe.runIf(HAS_REDIS)('RedisApprovalStore', () => {
  let redis: RedisServer;
  let cluster: RedisClusterStore;
  let store: RedisApprovalStore;

  beforeAll(async () => {
    redis = await startRedis();
    cluster = await RedisClusterStore.connect(redis.url, () => {}, 'approvals-test:');
    store = cluster.approvals();
    await cluster.join({ id: 'b', url: 'http://127.0.0.1:1/graphql' }, LONG_LEASE_MS);
  });
  afterAll(async () => {
    await store?.close();
    await cluster?.close();
    await redis?.stop();
  });

  it('lets exactly one of many concurrent claims win; the others learn who came first', async () => {
    await store.share(entry('r1', 'b'));
    const claims = await Promise.all(
      ['a', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((replica) => store.claim(answerBy('r1', replica))),
    );
    const won = claims.filter((claim) => claim.kind === 'CLAIMED');
    expect(won).toEqual([{ kind: 'CLAIMED', owner: 'b', epoch: 1 }]);
    const firstBy = (await store.claimed('r1'))?.relayedBy;
    for (const claim of claims.filter((other) => other.kind !== 'CLAIMED'))
      expect(claim).toMatchObject({ kind: 'ANSWERED', by: { relayedBy: firstBy } });
    expect(await store.pending()).toEqual([]);
    expect(await store.confirmation('r1')).toEqual({ kind: 'WAITING' });
    await store.reply('r1', { ok: false, code: 'APPROVAL_NOT_FOUND', message: 'second' });
    await store.reply('r1', { ok: false, code: 'APPROVAL_TIMEOUT', message: 'ignored' });
    expect(await store.confirmation('r1')).toMatchObject({ kind: 'DONE', outcome: { message: 'second' } });
  });

  it('drops the requests of a replica whose boot no longer holds its lease, and answers their claims LOST', async () => {
    await store.share(entry('r2', 'b'));
    await store.share(entry('r3', 'b', 0));
    expect((await store.pending()).map(({ request }) => request.id)).toEqual(['r2']);
    expect(await store.claim(answerBy('r3', 'a'))).toEqual({ kind: 'LOST', owner: 'b' });
    await cluster.leave('b', 1);
    expect(await store.claim(answerBy('r2', 'a'))).toEqual({ kind: 'LOST', owner: 'b' });
    expect(await store.claim(answerBy('r4', 'a'))).toEqual({ kind: 'NOT_FOUND' });
  });

  it("counts the other replicas' approvers until their count expires", async () => {
    expect(await store.countApprovers('a', 2, LONG_LEASE_MS, false)).toBe(0);
    expect(await store.countApprovers('c', 1, 1, false)).toBe(2);
    // c's count held for 1 ms: expired by the time the server's clock reads again.
    await expect.poll(() => store.countApprovers('a', 2, LONG_LEASE_MS, false)).toBe(0);
  });
});
