import type { Redis } from 'ioredis';
import type {
  ClusterStore,
  DirectoryEntry,
  JoinAnswer,
  RenewAnswer,
  ReplicaRecord,
  ReplicaStatus,
  SessionWithOwner,
} from '../domain/cluster/cluster-store.js';
import { RedisApprovalStore } from './redis-approval-store.js';
import { RedisAuditCheckpoints } from './redis-audit-checkpoints.js';
import {
  JOIN,
  LEAVE,
  PUT_SESSION,
  REAP,
  RENEW,
  REPLICAS_NAMED,
  RESERVE_SEQUENCE,
  replicaKeyOf,
  SESSION_WITH_OWNER,
} from './redis-cluster-lua.js';
import { callRedis, connectRedis, unavailable } from './redis-connection.js';

/** Every key of one cluster starts with this. */
export const KEY_PREFIX = 'stagegraph:';

type Stored = Omit<DirectoryEntry, 'startedAt' | 'endedAt'> & { startedAt: string; endedAt: string | null };

/**
 * The cluster store over Redis (ioredis): one EVAL per atomic step (server/redis-cluster-lua.ts). Loaded
 * only with --cluster. Commands are never queued while disconnected: each fails at once, or after
 * COMMAND_TIMEOUT_MS, as CLUSTER_UNAVAILABLE.
 */
export class RedisClusterStore implements ClusterStore {
  readonly #redis: Redis;
  readonly #where: string;
  readonly #prefix: string;
  #url = '';

  private constructor(redis: Redis, where: string, prefix: string) {
    this.#redis = redis;
    this.#where = where;
    this.#prefix = prefix;
  }

  /** Connects, or throws CLUSTER_UNAVAILABLE naming the Redis (without its password). */
  static async connect(
    url: string,
    log: (line: string) => void,
    prefix = KEY_PREFIX,
  ): Promise<RedisClusterStore> {
    const { redis, where } = await connectRedis(url, log);
    return new RedisClusterStore(redis, where, prefix);
  }

  async join(replica: { id: string; url: string }, leaseMs: number): Promise<JoinAnswer> {
    this.#url = replica.url;
    const [epoch, lost, lastSequence] = (await this.#eval(JOIN, replica.id, replica.url, leaseMs, now())) as [
      number,
      number,
      number,
    ];
    return { epoch, lost, lastSequence };
  }

  async renew(replicaId: string, epoch: number, leaseMs: number, liveSessions: number): Promise<RenewAnswer> {
    return (await this.#eval(
      RENEW,
      replicaId,
      epoch,
      leaseMs,
      now(),
      liveSessions,
      this.#url,
    )) as RenewAnswer;
  }

  async reap(): Promise<string[]> {
    return (await this.#eval(REAP, now())) as string[];
  }

  async putSession(entry: DirectoryEntry, sequence: number): Promise<boolean> {
    const stored: Stored = {
      ...entry,
      startedAt: entry.startedAt.toISOString(),
      endedAt: entry.endedAt?.toISOString() ?? null,
    };
    const written = await this.#eval(
      PUT_SESSION,
      JSON.stringify(stored),
      entry.replicaId,
      entry.epoch,
      entry.id,
      sequence,
    );
    return written === 1;
  }

  async forgetSessions(ids: readonly string[]): Promise<void> {
    await this.#call(() => this.#redis.hdel(this.#key('sessions'), ...ids));
  }

  async reserveSequence(replicaId: string, sequence: number): Promise<void> {
    await this.#eval(RESERVE_SEQUENCE, replicaId, sequence);
  }

  async sessions(): Promise<DirectoryEntry[]> {
    const all = await this.#call(() => this.#redis.hgetall(this.#key('sessions')));
    return Object.values(all).map(parseEntry);
  }

  async sessionWithOwner(id: string, selfId: string): Promise<SessionWithOwner | null> {
    const found = (await this.#eval(SESSION_WITH_OWNER, id, selfId)) as
      | [string, string[], string[], number]
      | null;
    if (!found) return null;
    const [raw, owner, self, ownerLease] = found;
    return { entry: parseEntry(raw), owner: replicaFrom(owner, ownerLease), self: replicaFrom(self) };
  }

  async replicas(): Promise<ReplicaRecord[]> {
    const ids = await this.#call(() => this.#redis.smembers(this.#key('replicas')));
    const records = await Promise.all(
      ids.map((id) => this.#call(() => this.#redis.hgetall(replicaKeyOf(this.#prefix, id)))),
    );
    return records.filter((record) => record.id !== undefined).map(parseReplica);
  }

  async replicasNamed(ids: readonly string[]): Promise<(ReplicaRecord | null)[]> {
    const named = (await this.#eval(REPLICAS_NAMED, ...ids)) as [string[], number][];
    return named.map(([fields, lease]) => replicaFrom(fields, lease));
  }

  async leave(replicaId: string, epoch: number): Promise<void> {
    await this.#eval(LEAVE, replicaId, epoch);
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  // --- Approvals across replicas (server/redis-approval-store.ts) ---

  /** The cluster's shared approvals, on this connection (and one of its own to listen); closed before it. */
  approvals(): RedisApprovalStore {
    return new RedisApprovalStore(this.#redis, (error) => unavailable(this.#where, error), this.#prefix);
  }

  // --- Audit checkpoints (server/redis-audit-checkpoints.ts) ---

  /** Each replica's last audit record, declared on this connection, for verifyAudit to check against. */
  auditCheckpoints(): RedisAuditCheckpoints {
    return new RedisAuditCheckpoints(this.#redis, (command) => this.#call(command), this.#prefix);
  }

  #key(name: string): string {
    return `${this.#prefix}${name}`;
  }

  #eval(script: string, ...args: (string | number)[]): Promise<unknown> {
    return this.#call(() => this.#redis.eval(script, 0, this.#prefix, ...args));
  }

  #call<T>(command: () => Promise<T>): Promise<T> {
    return callRedis(this.#where, command);
  }
}

function parseEntry(raw: string): DirectoryEntry {
  const stored = JSON.parse(raw) as Stored;
  return {
    ...stored,
    startedAt: new Date(stored.startedAt),
    endedAt: stored.endedAt === null ? null : new Date(stored.endedAt),
  };
}

/** A replica's hash as HGETALL answers it, `id` present. */
function parseReplica(record: Record<string, string>): ReplicaRecord {
  return {
    id: record.id as string,
    url: record.url ?? '',
    epoch: Number(record.epoch),
    status: record.status as ReplicaStatus,
    sessions: Number(record.sessions ?? 0),
    lastSeen: new Date(record.lastSeen ?? 0),
  };
}

function now(): string {
  return new Date().toISOString();
}

/**
 * A replica's record from HGETALL's flat field/value list, with its lease's PTTL when read with it (-2:
 * no lease, -1: no expiry, which the cluster never sets); null when the key does not exist.
 */
function replicaFrom(fields: readonly string[], leasePttl?: number): ReplicaRecord | null {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) record[fields[i] as string] = fields[i + 1] as string;
  if (record.id === undefined) return null;
  const parsed = parseReplica(record);
  return leasePttl !== undefined && leasePttl > 0 ? { ...parsed, leaseLeftMs: leasePttl } : parsed;
}
