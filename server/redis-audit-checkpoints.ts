import type { Redis } from 'ioredis';
import type { AuditCheckpoint } from '../domain/audit/verify-audit.js';
import type { AuditCheckpointStore } from '../domain/cluster/audit-checkpoints.js';

/** ARGV: key, replica id, seq, hash. Keeps the checkpoint only when its seq is above the one kept. */
const RAISE_CHECKPOINT = `
local kept = redis.call('HGET', ARGV[1], ARGV[2])
if kept and tonumber(cjson.decode(kept).seq) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', ARGV[1], ARGV[2], cjson.encode({ seq = tonumber(ARGV[3]), hash = ARGV[4] }))
return 1
`;

/** Every replica's audit checkpoint in one hash of the cluster's keys, on the cluster store's connection. */
export class RedisAuditCheckpoints implements AuditCheckpointStore {
  readonly #redis: Redis;
  readonly #call: <T>(command: () => Promise<T>) => Promise<T>;
  readonly #key: string;

  constructor(redis: Redis, call: <T>(command: () => Promise<T>) => Promise<T>, prefix: string) {
    this.#redis = redis;
    this.#call = call;
    this.#key = `${prefix}audit-checkpoints`;
  }

  async raise(replicaId: string, checkpoint: AuditCheckpoint): Promise<void> {
    await this.#call(() =>
      this.#redis.eval(RAISE_CHECKPOINT, 0, this.#key, replicaId, checkpoint.seq, checkpoint.hash),
    );
  }

  async read(replicaId: string): Promise<AuditCheckpoint | null> {
    const kept = await this.#call(() => this.#redis.hget(this.#key, replicaId));
    if (kept === null) return null;
    const { seq, hash } = JSON.parse(kept) as AuditCheckpoint;
    return { seq, hash };
  }
}
