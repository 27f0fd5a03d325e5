import { describe, expect, it } from 'vitest';
import type { AuditCheckpoint } from '../audit/verify-audit.js';
import {
  type ClusterAuditPorts,
  type ReplicaChainVerification,
  verifyClusterAudit,
} from './cluster-audit-verification.js';
import type { ReplicaRecord, ReplicaStatus } from './cluster-store.js';
import type { ForwardedAnswer, ForwardedRequest, ForwardToReplica } from './replica-forwarding.js';

const LAST_SEEN = new Date('2026-12-07T20:00:00Z');

function replica(id: string, status: ReplicaStatus = 'UP'): ReplicaRecord {
  return { id, url: `http://127.0.0.1/${id}/graphql`, epoch: 1, status, sessions: 0, lastSeen: LAST_SEEN };
}

function chain(replicaId: string | null, ok = true): ReplicaChainVerification {
  return {
    replica: replicaId,
    ok,
    files: 1,
    records: 3,
    lastSeq: 3,
    lastHash: 'h3',
    broken: ok
      ? null
      : { file: 'audit-000001.jsonl', line: 2, seq: 2, reason: 'content does not match its hash' },
    torn: [],
  };
}

const checkpoints: Record<string, AuditCheckpoint> = {
  a: { seq: 3, hash: 'ha' },
  b: { seq: 7, hash: 'hb' },
  c: { seq: 5, hash: 'hc' },
};

/** The cluster as replica a sees it, whose other replicas answer as `answers` says. */
function ports(
  records: ReplicaRecord[],
  answers: Record<string, (request: ForwardedRequest, signal: AbortSignal) => Promise<ForwardedAnswer>>,
): ClusterAuditPorts & { asked: string[] } {
  const asked: string[] = [];
  const forward: ForwardToReplica = (to, request, signal) => {
    asked.push(to.id);
    const answer = answers[to.id];
    return answer ? answer(request, signal) : Promise.reject(new Error(`no fake for ${to.id}`));
  };
  return {
    replicaId: 'a',
    replicas: async () => records,
    checkpoint: async (id) => checkpoints[id] ?? null,
    forward,
    asked,
  };
}

const answering =
  (verification: ReplicaChainVerification) =>
  async (request: ForwardedRequest): Promise<ForwardedAnswer> => {
    expect(request.variables).toEqual({ replica: verification.replica });
    expect(request.query).toMatch(/verifyAudit\(replica: \$replica\)/);
    return { data: { verifyAudit: verification } };
  };

/** Never answers, whatever the signal says: the deadline must hold without the port's help. */
const hung = () => new Promise<ForwardedAnswer>(() => {});

describe('verifyClusterAudit', () => {
  it('is ok with every replica VERIFIED and holding, this one first, each with its checkpoint', async () => {
    const cluster = ports([replica('a'), replica('b'), replica('c')], {
      b: answering(chain('b')),
      c: answering(chain('c')),
    });
    const result = await verifyClusterAudit(async () => chain('a'), cluster);
    expect(result.ok).toBe(true);
    expect(result.replicas.map(({ replica, status, reason }) => ({ replica, status, reason }))).toEqual(
      ['a', 'b', 'c'].map((id) => ({ replica: id, status: 'VERIFIED', reason: null })),
    );
    expect(result.replicas.map((entry) => entry.checkpoint)).toEqual([
      checkpoints.a,
      checkpoints.b,
      checkpoints.c,
    ]);
    expect(cluster.asked.sort()).toEqual(['b', 'c']);
  });

  it("one replica's broken chain makes ok false and is named with its replica; the others stay ok", async () => {
    const cluster = ports([replica('a'), replica('b'), replica('c')], {
      b: answering(chain('b', false)),
      c: answering(chain('c')),
    });
    const result = await verifyClusterAudit(async () => chain('a'), cluster);
    expect(result.ok).toBe(false);
    const [a, b, c] = result.replicas;
    expect(b).toMatchObject({
      replica: 'b',
      status: 'VERIFIED',
      verification: { ok: false, broken: { line: 2 } },
    });
    expect([a?.verification?.ok, c?.verification?.ok]).toEqual([true, true]);
  });

  it('lists a DOWN and a LEFT replica with why and their checkpoints, without asking them, and is not ok', async () => {
    const cluster = ports([replica('a'), replica('b', 'DOWN'), replica('c', 'LEFT')], {});
    const result = await verifyClusterAudit(async () => chain('a'), cluster);
    expect(result.ok).toBe(false);
    expect(result.replicas.slice(1)).toEqual([
      {
        replica: 'b',
        status: 'DOWN',
        reason: expect.stringMatching(/lease lapsed \(last renewed 2026-12-07T20:00:00.000Z\).*LOST/),
        verification: null,
        checkpoint: checkpoints.b,
      },
      {
        replica: 'c',
        status: 'LEFT',
        reason: expect.stringMatching(/shut down cleanly/),
        verification: null,
        checkpoint: checkpoints.c,
      },
    ]);
    expect(cluster.asked).toEqual([]);
  });

  it('a hung replica reads UNREACHABLE once its deadline passes, while the others answer', async () => {
    const cluster = ports([replica('a'), replica('b'), replica('c')], {
      b: hung,
      c: answering(chain('c')),
    });
    const result = await verifyClusterAudit(async () => chain('a'), cluster, { timeoutMs: 100 });
    expect(result.ok).toBe(false);
    expect(result.replicas[1]).toEqual({
      replica: 'b',
      status: 'UNREACHABLE',
      reason: 'no answer within 100 ms',
      verification: null,
      checkpoint: checkpoints.b,
    });
    expect(result.replicas[2]).toMatchObject({ replica: 'c', status: 'VERIFIED' });
  });

  it("gives the port the deadline's signal, and the caller's going away ends the wait", async () => {
    const gone = new AbortController();
    let given: AbortSignal | undefined;
    const cluster = ports([replica('a'), replica('b')], {
      b: (_request, signal) => {
        given = signal;
        gone.abort();
        return hung();
      },
    });
    const result = await verifyClusterAudit(async () => chain('a'), cluster, { abandoned: gone.signal });
    expect(given?.aborted).toBe(true);
    expect(result.replicas[1]).toMatchObject({ status: 'UNREACHABLE', reason: /caller went away/ });
  });

  it('a refused connection, an error answered and a missing forwarder each read UNREACHABLE with the reason', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:4702'),
    });
    const cluster = ports([replica('a'), replica('b'), replica('c')], {
      b: () => Promise.reject(refused),
      c: async () => ({
        errors: [
          {
            message: 'A forwarded call carried a wrong cluster secret.',
            extensions: { code: 'UNAUTHENTICATED' },
          },
        ],
      }),
    });
    const result = await verifyClusterAudit(async () => chain('a'), cluster);
    expect(result.replicas.slice(1).map(({ status, reason }) => ({ status, reason }))).toEqual([
      { status: 'UNREACHABLE', reason: 'fetch failed: connect ECONNREFUSED 127.0.0.1:4702' },
      {
        status: 'UNREACHABLE',
        reason: 'it answered UNAUTHENTICATED: A forwarded call carried a wrong cluster secret.',
      },
    ]);
  });

  it('verifies this replica even when Redis no longer lists it', async () => {
    const result = await verifyClusterAudit(async () => chain('a'), ports([], {}));
    expect(result).toMatchObject({
      ok: true,
      replicas: [{ replica: 'a', status: 'VERIFIED', checkpoint: checkpoints.a }],
    });
  });

  it("without a cluster answers this gateway's chain alone", async () => {
    expect(await verifyClusterAudit(async () => chain(null, false), null)).toEqual({
      ok: false,
      replicas: [
        {
          replica: null,
          status: 'VERIFIED',
          reason: null,
          verification: chain(null, false),
          checkpoint: null,
        },
      ],
    });
  });
});
