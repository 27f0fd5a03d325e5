import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DirectoryEntry } from '../domain/cluster/cluster-store.js';
import { type RedisServer, startRedis } from '../test/helpers/redis-server.js';
import { describeWithRedis } from '../test/helpers/redis-suite.js';
import { RedisClusterStore } from './redis-cluster-store.js';

const LONG_LEASE_MS = 600_000;

const running = (id: string, replicaId: string, epoch: number): DirectoryEntry => ({
  id,
  replicaId,
  epoch,
  status: 'RUNNING',
  transportId: 'playwright-electron',
  startedAt: new Date('2026-01-01T00:00:00Z'),
  endedAt: null,
});

describeWithRedis('RedisClusterStore: a session with its owner', () => {
  let redis: RedisServer;
  let store: RedisClusterStore;

  beforeAll(async () => {
    redis = await startRedis();
    store = await RedisClusterStore.connect(redis.url, () => {}, 'owner-test:');
  });
  afterAll(async () => {
    await store?.close();
    await redis?.stop();
  });

  it('answers the entry with its owner’s record and the asker’s as they are now', async () => {
    const { epoch } = await store.join({ id: 'b', url: 'http://127.0.0.1:4701/graphql' }, LONG_LEASE_MS);
    const asker = await store.join({ id: 'a', url: 'http://127.0.0.1:4700/graphql' }, LONG_LEASE_MS);
    await store.putSession(running('b-s1', 'b', epoch), 1);
    expect(await store.sessionWithOwner('b-s1', 'a')).toEqual({
      entry: running('b-s1', 'b', epoch),
      owner: expect.objectContaining({ id: 'b', url: 'http://127.0.0.1:4701/graphql', epoch, status: 'UP' }),
      self: expect.objectContaining({ id: 'a', epoch: asker.epoch, status: 'UP' }),
    });
    // What the owner's lease has left, by the store's count down: routing relies on it for as long.
    const leaseLeft = (await store.sessionWithOwner('b-s1', 'a'))?.owner?.leaseLeftMs;
    expect(leaseLeft).toBeGreaterThan(0);
    expect(leaseLeft).toBeLessThanOrEqual(LONG_LEASE_MS);
    await store.leave('b', epoch);
    const left = (await store.sessionWithOwner('b-s1', 'a'))?.owner;
    expect(left).toMatchObject({ id: 'b', status: 'LEFT' });
    expect(left?.leaseLeftMs).toBeUndefined();
    expect((await store.sessionWithOwner('b-s1', 'z'))?.self).toBeNull();
  });

  it('answers the records of the replicas named, in order, null for one it does not hold', async () => {
    const { epoch } = await store.join({ id: 'c', url: 'http://127.0.0.1:4702/graphql' }, LONG_LEASE_MS);
    expect(await store.replicasNamed(['y', 'c'])).toEqual([
      null,
      expect.objectContaining({ id: 'c', url: 'http://127.0.0.1:4702/graphql', epoch, status: 'UP' }),
    ]);
    expect((await store.replicasNamed(['c']))[0]?.leaseLeftMs).toBeGreaterThan(0);
  });

  it('answers null for an id the directory does not hold', async () => {
    expect(await store.sessionWithOwner('z-s1', 'a')).toBeNull();
  });

  it('raises an audit checkpoint only for the boot that holds its replica, never lowers it', async () => {
    const checkpoints = store.auditCheckpoints();
    const url = 'http://127.0.0.1:4703/graphql';
    const first = { replicaId: 'd', epoch: (await store.join({ id: 'd', url }, LONG_LEASE_MS)).epoch };
    expect(await checkpoints.raise(first, { seq: 5, hash: 'h5' })).toBe(true);
    expect(await checkpoints.raise(first, { seq: 4, hash: 'h4' })).toBe(true);
    expect(await checkpoints.read('d')).toEqual({ seq: 5, hash: 'h5' });
    const second = { replicaId: 'd', epoch: (await store.join({ id: 'd', url }, LONG_LEASE_MS)).epoch };
    expect(await checkpoints.raise(second, { seq: 6, hash: 'later boot' })).toBe(true);
    // The earlier boot, woken after the later one joined, would overwrite the later one's declaration.
    expect(await checkpoints.raise(first, { seq: 9, hash: 'fenced boot' })).toBe(false);
    expect(await checkpoints.read('d')).toEqual({ seq: 6, hash: 'later boot' });
  });
});
