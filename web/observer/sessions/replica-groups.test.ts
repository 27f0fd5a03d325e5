import { describe, expect, it } from 'vitest';
import { groupByReplica, replicaLabel } from './replica-groups.js';
import { NO_CAPABILITIES, type ReplicaSummary, type SessionSummary } from './session-summary.js';

const replica = (id: string, self = false): ReplicaSummary => ({
  id,
  url: `http://127.0.0.1:4700/${id}`,
  status: 'UP',
  sessions: 0,
  lastSeen: '2026-12-07T18:00:00.000Z',
  self,
});
const session = (id: string, owner: string | null, status = 'RUNNING'): SessionSummary => ({
  id,
  status,
  transport: 'playwright-electron',
  app: { name: null, standIn: false },
  capabilities: NO_CAPABILITIES,
  windows: [],
  replica: owner,
});

describe('groupByReplica', () => {
  it('puts each session under its replica, in the order the replicas are listed', () => {
    const groups = groupByReplica({
      replicas: [replica('a', true), replica('b')],
      sessions: [session('b-s1', 'b'), session('a-s1', 'a'), session('b-s2', 'b', 'LOST')],
    });
    expect(groups.map((group) => [group.id, group.sessions.map(({ id }) => id)])).toEqual([
      ['a', ['a-s1']],
      ['b', ['b-s1', 'b-s2']],
    ]);
    expect(groups[1]?.replica).toEqual(replica('b'));
  });

  it('leaves out replicas without sessions, and keeps sessions of an owner no longer listed, last', () => {
    const groups = groupByReplica({
      replicas: [replica('a', true), replica('b')],
      sessions: [session('c-s1', 'c'), session('a-s1', 'a')],
    });
    expect(groups.map((group) => [group.id, group.replica?.id ?? null])).toEqual([
      ['a', 'a'],
      ['c', null],
    ]);
  });
});

describe('replicaLabel', () => {
  it('says which replica serves the page, and which owner is no longer listed', () => {
    expect(replicaLabel({ id: 'a', replica: replica('a', true) })).toBe('Replica a (this replica)');
    expect(replicaLabel({ id: 'b', replica: replica('b') })).toBe('Replica b');
    expect(replicaLabel({ id: 'c', replica: null })).toBe('Replica c (no longer listed)');
  });
});
