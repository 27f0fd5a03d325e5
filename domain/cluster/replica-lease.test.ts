import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClusterStore } from './cluster-store.js';
import { ReplicaLease } from './replica-lease.js';

const TIMING = { leaseMs: 4_000, renewMs: 1_000 };

/** A store whose renewals are timed, and a holder whose tick (the directory's refresh) takes `tickMs`. */
function timedLease(tickMs: number) {
  const renewedAt: number[] = [];
  const store = {
    renew: async () => {
      renewedAt.push(performance.now());
      return 'RENEWED' as const;
    },
    reap: async () => [],
  } as unknown as ClusterStore;
  const lease = new ReplicaLease(
    store,
    TIMING,
    {
      replicaId: 'a',
      epoch: 1,
      liveSessions: () => 0,
      renewed: () => {},
      tick: () => new Promise((resolve) => setTimeout(resolve, tickMs)),
      failed: (error) => {
        throw error;
      },
    },
    performance.now(),
  );
  return { lease, renewedAt };
}

/** Stops the lease, letting a tick under way finish on the fake clock. */
async function stopped(lease: ReplicaLease): Promise<void> {
  const stopping = lease.stop();
  await vi.runAllTimersAsync();
  await stopping;
}

const gaps = (times: readonly number[]) => times.slice(1).map((time, index) => time - times[index]!);

afterEach(() => {
  vi.useRealTimers();
});

describe('a replica lease', () => {
  it('renews every renewMs from the last renewal, whatever the tick after it takes', async () => {
    vi.useFakeTimers();
    const { lease, renewedAt } = timedLease(600);
    lease.start();
    await vi.advanceTimersByTimeAsync(10_000);
    await stopped(lease);
    expect(renewedAt.length).toBeGreaterThanOrEqual(9);
    expect(new Set(gaps(renewedAt))).toEqual(new Set([TIMING.renewMs]));
  });

  it('renews at once when the last tick outlasted renewMs, and never two renewals at a time', async () => {
    vi.useFakeTimers();
    const { lease, renewedAt } = timedLease(2_500);
    lease.start();
    await vi.advanceTimersByTimeAsync(10_000);
    await stopped(lease);
    // A renewal, its 2.5 s tick, the next renewal at once (the timer's 1 ms): never a 3.5 s gap.
    expect(renewedAt.length).toBeGreaterThanOrEqual(4);
    for (const gap of gaps(renewedAt)) expect(gap).toBeGreaterThanOrEqual(2_500);
    for (const gap of gaps(renewedAt)) expect(gap).toBeLessThanOrEqual(2_501);
  });
});

describe('how long the lease surely holds', () => {
  it('from the join, then from each renewal sent, and not at all once a renewal answers FENCED', async () => {
    vi.useFakeTimers();
    let answer: 'RENEWED' | 'FENCED' = 'RENEWED';
    const store = { renew: async () => answer, reap: async () => [] } as unknown as ClusterStore;
    const holder = {
      replicaId: 'a',
      epoch: 1,
      liveSessions: () => 0,
      renewed: () => {},
      tick: async () => {},
      failed: () => {},
    };
    const joinedAt = performance.now();
    const lease = new ReplicaLease(store, TIMING, holder, joinedAt);
    expect(lease.heldUntil).toBe(joinedAt + TIMING.leaseMs);
    lease.start();
    await vi.advanceTimersByTimeAsync(TIMING.renewMs);
    expect(lease.heldUntil).toBe(joinedAt + TIMING.renewMs + TIMING.leaseMs);
    answer = 'FENCED';
    await vi.advanceTimersByTimeAsync(TIMING.renewMs);
    expect(lease.heldUntil).toBe(0);
    await stopped(lease);
  });
});
