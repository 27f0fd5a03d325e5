import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { SessionRegistry } from '../sessions/session-registry.js';
import { Cluster } from './cluster.js';
import type { ClusterStore, DirectoryEntry, RenewAnswer, ReplicaRecord } from './cluster-store.js';

const STARTED = new Date('2026-01-01T00:00:00Z');

/** The store as the replica sees it: fixed answers, and a renewal answer the test turns. */
function fakeStore(entries: DirectoryEntry[], replicas: ReplicaRecord[]) {
  const store: ClusterStore & { renewal: RenewAnswer; reserved: number[] } = {
    renewal: 'RENEWED',
    reserved: [],
    join: async () => ({ epoch: 3, lost: 0, lastSequence: 7 }),
    renew: async () => store.renewal,
    reap: async () => [],
    putSession: async () => true,
    forgetSessions: async () => {},
    reserveSequence: async (_replica: string, sequence: number) => {
      store.reserved.push(sequence);
    },
    sessions: async () => entries,
    sessionWithOwner: async (id: string, selfId: string) => {
      const found = entries.find((entry) => entry.id === id);
      const record = (replicaId: string) => replicas.find((candidate) => candidate.id === replicaId) ?? null;
      return found ? { entry: found, owner: record(found.replicaId), self: record(selfId) } : null;
    },
    replicas: async () => replicas,
    replicasNamed: async (ids: readonly string[]) =>
      ids.map((id) => replicas.find((record) => record.id === id) ?? null),
    leave: async () => {},
    close: async () => {},
  };
  return store;
}

const entry = (id: string, replicaId: string, status: DirectoryEntry['status']): DirectoryEntry => ({
  id,
  replicaId,
  epoch: 1,
  status,
  transportId: 'playwright-electron',
  startedAt: STARTED,
  endedAt: null,
});

const replica = (id: string): ReplicaRecord => ({
  id,
  url: `http://${id}:4700/graphql`,
  epoch: 1,
  status: 'UP',
  sessions: 1,
  lastSeen: STARTED,
});

function joined(store: ClusterStore, renewMs = 10, log: (line: string) => void = () => {}) {
  const registry = new SessionRegistry([], new EventHub<SessionTopics>());
  const cluster = new Cluster(
    store,
    { replicaId: 'a', advertiseUrl: null, leaseMs: Math.max(1_000, 3 * renewMs), renewMs },
    registry,
    new EventHub<SessionTopics>(),
    log,
  );
  return { registry, cluster };
}

describe('a replica in the cluster', () => {
  it('refuses new sessions until it has joined, then numbers them after every earlier boot’s', async () => {
    const store = fakeStore([], [replica('a')]);
    const { cluster } = joined(store);
    expect(() => cluster.assertAccepting()).toThrow(expect.objectContaining({ code: 'CLUSTER_UNAVAILABLE' }));
    await cluster.join('http://127.0.0.1:4700/graphql');
    expect(() => cluster.assertAccepting()).not.toThrow();
    expect(cluster.idFor(1)).toBe('a-s8');
    expect(store.reserved).toEqual([8]);
    await cluster.leave();
  });

  it('answers for an id another replica holds: SESSION_REMOTE with its URL while it lives, SESSION_LOST after', async () => {
    const store = fakeStore(
      [entry('b-s1', 'b', 'RUNNING'), entry('c-s1', 'c', 'LOST')],
      [replica('a'), replica('b'), replica('c')],
    );
    const { registry, cluster } = joined(store);
    await cluster.join('http://127.0.0.1:4700/graphql');
    expect(() => registry.get('b-s1')).toThrow(
      expect.objectContaining({
        code: 'SESSION_REMOTE',
        details: expect.objectContaining({ url: 'http://b:4700/graphql' }),
      }),
    );
    expect(() => registry.get('c-s1')).toThrow(expect.objectContaining({ code: 'SESSION_LOST' }));
    expect(() => registry.get('z-s1')).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }));
    const remote = await cluster.session('b-s1');
    expect(remote).toMatchObject({ id: 'b-s1', replicaId: 'b', status: 'RUNNING' });
    await cluster.leave();
  });

  it('fences itself when a renewal finds it reaped, and stops renewing', async () => {
    const store = fakeStore([], [replica('a')]);
    const { cluster } = joined(store);
    await cluster.join('http://127.0.0.1:4700/graphql');
    store.renewal = 'FENCED';
    await expect.poll(() => cluster.fenced, { timeout: 30_000 }).toBe(true);
    expect(() => cluster.assertAccepting()).toThrow(expect.objectContaining({ code: 'REPLICA_FENCED' }));
    await cluster.leave();
  });

  it('tells its loss listeners of each session a lease tick finds newly LOST, once, whoever reaped its owner', async () => {
    const entries = [entry('b-s1', 'b', 'RUNNING'), entry('c-s1', 'c', 'LOST')];
    const store = fakeStore(entries, [replica('a'), replica('b'), replica('c')]);
    const { cluster } = joined(store);
    await cluster.join('http://127.0.0.1:4700/graphql');
    const told: string[] = [];
    const toldOnce = new Promise<void>((resolve) =>
      cluster.onLost((lost) => {
        told.push(lost.id);
        resolve();
      }),
    );
    entries[0] = entry('b-s1', 'b', 'LOST');
    await toldOnce;
    // Two later ticks read the same LOST entries (the first of them compared them in full) and tell nobody.
    let reads = 0;
    const replicas = store.replicas;
    store.replicas = () => {
      reads += 1;
      return replicas();
    };
    await expect.poll(() => reads, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(told).toEqual(['b-s1']);
    await cluster.leave();
  });

  it('answers SESSION_LOST, not SESSION_REMOTE, for a session routing just read LOST, before its lease tick', async () => {
    const entries = [entry('b-s1', 'b', 'RUNNING')];
    const store = fakeStore(entries, [replica('a'), replica('b')]);
    // No tick comes during the test: what the cache knows is only what the join read and routing learnt.
    const { cluster } = joined(store, 600_000);
    await cluster.join('http://127.0.0.1:4700/graphql');
    const told: string[] = [];
    cluster.onLost((lost) => told.push(lost.id));
    expect(() => cluster.assertServes('b-s1', false)).toThrow(
      expect.objectContaining({ code: 'SESSION_REMOTE' }),
    );
    entries[0] = entry('b-s1', 'b', 'LOST');
    expect(await cluster.ownerElsewhere('b-s1')).toBeNull();
    expect(() => cluster.assertServes('b-s1', false)).toThrow(
      expect.objectContaining({ code: 'SESSION_LOST' }),
    );
    await cluster.session('b-s1');
    expect(told).toEqual(['b-s1']);
    await cluster.leave();
  });

  it("finds the owner of another replica's session with one read of the store, and only while the owner is UP", async () => {
    const entries = [
      entry('b-s1', 'b', 'RUNNING'),
      entry('c-s1', 'c', 'RUNNING'),
      entry('b-s2', 'b', 'LOST'),
    ];
    const store = fakeStore(entries, [replica('a'), replica('b'), { ...replica('c'), status: 'DOWN' }]);
    const { cluster } = joined(store, 600_000);
    await cluster.join('http://127.0.0.1:4700/graphql');
    // Every operation forwarded to an owner waits for this read: each read of the store is a round trip.
    let reads = 0;
    for (const method of ['sessions', 'replicas', 'sessionWithOwner'] as const) {
      const read = store[method] as (...args: unknown[]) => Promise<unknown>;
      Object.assign(store, {
        [method]: (...args: unknown[]) => {
          reads += 1;
          return read(...args);
        },
      });
    }
    expect(await cluster.ownerElsewhere('b-s1')).toMatchObject({ id: 'b', url: 'http://b:4700/graphql' });
    expect(reads).toBe(1);
    expect(await cluster.ownerElsewhere('c-s1')).toBeNull();
    expect(await cluster.ownerElsewhere('b-s2')).toBeNull();
    expect(await cluster.ownerElsewhere('z-s1')).toBeNull();
    expect(reads).toBe(4);
    await cluster.leave();
  });
});

describe('a fenced replica', () => {
  /** This replica's own record, as the store shows it: joined with epoch 3 (fakeStore's join). */
  const self = (status: ReplicaRecord['status'], epoch = 3): ReplicaRecord => ({
    ...replica('a'),
    epoch,
    status,
  });

  it('forwards nothing once a read shows it reaped, before its renewal says so', async () => {
    const replicas = [self('UP'), replica('b')];
    const store = fakeStore([entry('b-s1', 'b', 'RUNNING')], replicas);
    // No renewal comes during the test: only the routing read can tell it.
    const { cluster } = joined(store, 600_000);
    await cluster.join('http://127.0.0.1:4700/graphql');
    expect(await cluster.ownerElsewhere('b-s1')).toMatchObject({ id: 'b' });
    replicas[0] = self('DOWN');
    await expect(cluster.ownerElsewhere('b-s1')).rejects.toMatchObject({ code: 'REPLICA_FENCED' });
    expect(cluster.fenced).toBe(true);
    await expect(cluster.replicaElsewhere('b')).rejects.toMatchObject({ code: 'REPLICA_FENCED' });
    // Its own trail and its own view of the cluster stay readable, for diagnosis.
    expect(await cluster.replicaElsewhere('a')).toBeNull();
    expect(await cluster.replicas()).toContainEqual(self('DOWN'));
    await cluster.leave();
  });

  it("watches a forward's owner with one read of two records, and learns from it when it was reaped itself", async () => {
    const replicas = [self('UP'), { ...replica('b'), epoch: 2 }];
    const store = fakeStore([], replicas);
    let reads = 0;
    const named = store.replicasNamed;
    store.replicasNamed = (ids) => {
      reads += 1;
      return named(ids);
    };
    const { cluster } = joined(store, 600_000);
    await cluster.join('http://127.0.0.1:4700/graphql');
    reads = 0;
    store.replicas = () => Promise.reject(new Error('stillUp reads only the two records it needs'));
    expect(await cluster.stillUp(replicas[1] as ReplicaRecord)).toBe(true);
    expect(await cluster.stillUp({ ...replica('b'), epoch: 1 })).toBe(false);
    replicas[0] = self('DOWN');
    expect(await cluster.stillUp(replicas[1] as ReplicaRecord)).toBe(true);
    expect(cluster.fenced).toBe(true);
    expect(reads).toBe(3);
    store.replicasNamed = () => Promise.reject(new Error('Redis did not answer'));
    expect(await cluster.stillUp({ ...replica('b'), status: 'DOWN' })).toBe(true);
    await cluster.leave();
  });

  it('is fenced by a later boot of its own id as well', async () => {
    const store = fakeStore([], [self('UP', 4), replica('b')]);
    const { cluster } = joined(store, 600_000);
    await cluster.join('http://127.0.0.1:4700/graphql');
    await cluster.replicas();
    expect(cluster.fenced).toBe(true);
    await cluster.leave();
  });

  it('is fenced by a write the store refused, before any renewal or read, and says once that it stops writing', async () => {
    const lines: string[] = [];
    const { cluster } = joined(fakeStore([], [self('UP'), replica('b')]), 600_000, (line) =>
      lines.push(line),
    );
    cluster.refusedByStore();
    expect(cluster.fenced).toBe(false);
    await cluster.join('http://127.0.0.1:4700/graphql');
    cluster.refusedByStore();
    cluster.refusedByStore();
    expect(cluster.fenced).toBe(true);
    expect(() => cluster.assertServing()).toThrow(expect.objectContaining({ code: 'REPLICA_FENCED' }));
    expect(lines.filter((line) => line.includes('fenced'))).toEqual([
      expect.stringMatching(/replica a lost its lease \(epoch 3\); fenced: .*writes no more events/),
    ]);
    await cluster.leave();
  });

  it('serves no forwarded call; a live one refuses calls from a boot the store no longer holds UP', async () => {
    const replicas = [
      self('UP'),
      { ...replica('b'), epoch: 2 },
      { ...replica('c'), status: 'DOWN' as const },
    ];
    const store = fakeStore([], replicas);
    const { cluster } = joined(store, 600_000);
    await cluster.join('http://127.0.0.1:4700/graphql');
    await expect(cluster.assertForwardedBy('b', 2)).resolves.toBeUndefined();
    await expect(cluster.assertForwardedBy('b', null)).resolves.toBeUndefined();
    for (const [sender, epoch] of [
      ['b', 1],
      ['c', 1],
      ['c', null],
    ] as const)
      await expect(cluster.assertForwardedBy(sender, epoch)).rejects.toMatchObject({
        code: 'REPLICA_FENCED',
        details: expect.objectContaining({ replica: sender }),
      });
    replicas[0] = self('DOWN');
    await expect(cluster.assertForwardedBy('b', 2)).rejects.toMatchObject({
      code: 'REPLICA_FENCED',
      details: expect.objectContaining({ replica: 'a' }),
    });
    await cluster.leave();
  });

  it('serves a forwarded call while the store cannot say who is fenced: an outage fences nobody', async () => {
    const store = fakeStore([], [self('UP'), replica('b')]);
    const { cluster } = joined(store, 600_000);
    await cluster.join('http://127.0.0.1:4700/graphql');
    store.replicasNamed = () => Promise.reject(new Error('Redis did not answer'));
    await expect(cluster.assertForwardedBy('b', 1)).resolves.toBeUndefined();
    await cluster.leave();
  });
});

describe('routing reads the store again only when a lease may have lapsed', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Counts the store's reads of one method. */
  function counted<M extends 'sessionWithOwner' | 'replicasNamed'>(store: ClusterStore, method: M) {
    const reads = { count: 0 };
    const read = store[method] as (...args: unknown[]) => Promise<unknown>;
    Object.assign(store, {
      [method]: (...args: unknown[]) => {
        reads.count += 1;
        return read(...args);
      },
    });
    return reads;
  }

  const leased = (id: string, leaseLeftMs: number, epoch = 1): ReplicaRecord => ({
    ...replica(id),
    epoch,
    leaseLeftMs,
  });

  it("remembers a session's owner while the owner's lease surely holds, and forgets it when the owner does not answer", async () => {
    vi.useFakeTimers();
    const store = fakeStore([entry('b-s1', 'b', 'RUNNING')], [replica('a'), leased('b', 5_000)]);
    const reads = counted(store, 'sessionWithOwner');
    const { cluster } = joined(store, 600_000);
    await cluster.join('http://127.0.0.1:4700/graphql');
    expect(await cluster.ownerElsewhere('b-s1')).toMatchObject({ id: 'b' });
    expect(await cluster.ownerElsewhere('b-s1')).toMatchObject({ id: 'b' });
    expect(reads.count).toBe(1);
    vi.advanceTimersByTime(5_000);
    expect(await cluster.ownerElsewhere('b-s1')).toMatchObject({ id: 'b' });
    expect(reads.count).toBe(2);
    cluster.unanswered(replica('b'));
    await cluster.ownerElsewhere('b-s1');
    expect(reads.count).toBe(3);
    await cluster.leave();
  });

  it("reads again once this replica's own lease may have lapsed (a renewal unanswered), however long the owner's holds", async () => {
    vi.useFakeTimers();
    const store = fakeStore([entry('b-s1', 'b', 'RUNNING')], [replica('a'), leased('b', 600_000)]);
    store.renew = () => new Promise(() => {});
    const reads = counted(store, 'sessionWithOwner');
    const { cluster } = joined(store, 10);
    await cluster.join('http://127.0.0.1:4700/graphql');
    await cluster.ownerElsewhere('b-s1');
    await cluster.ownerElsewhere('b-s1');
    expect(reads.count).toBe(1);
    vi.advanceTimersByTime(cluster.settings.leaseMs);
    await cluster.ownerElsewhere('b-s1');
    expect(reads.count).toBe(2);
  });

  it('remembers a sender of forwarded calls as UP in its boot while its lease surely holds; another boot is read', async () => {
    vi.useFakeTimers();
    const replicas = [replica('a'), leased('b', 5_000, 2)];
    const store = fakeStore([], replicas);
    const reads = counted(store, 'replicasNamed');
    const { cluster } = joined(store, 600_000);
    await cluster.join('http://127.0.0.1:4700/graphql');
    await cluster.assertForwardedBy('b', 2);
    await cluster.assertForwardedBy('b', 2);
    expect(reads.count).toBe(1);
    await expect(cluster.assertForwardedBy('b', 1)).rejects.toMatchObject({ code: 'REPLICA_FENCED' });
    expect(reads.count).toBe(2);
    replicas[1] = { ...replica('b'), epoch: 2, status: 'DOWN' };
    vi.advanceTimersByTime(5_000);
    await expect(cluster.assertForwardedBy('b', 2)).rejects.toMatchObject({ code: 'REPLICA_FENCED' });
    await cluster.leave();
  });
});
