import type { Redis } from 'ioredis';
import type { AuditCheckpoint } from '../domain/audit/verify-audit.js';
import type { AuditCheckpointStore } from '../domain/cluster/audit-checkpoints.js';
import type { ReplicaBoot } from '../domain/cluster/cluster-store.js';
import { FENCED_BOOT, replicaKeyOf } from './redis-cluster-lua.js';

/**
 * ARGV: key, replica id, seq, hash, the replica's record, its epoch. Keeps the checkpoint only when its seq
 * is above the one kept, and only while the boot is not fenced; answers 0 when refused as fenced, else 1.
 */
const RAISE_CHECKPOINT = `${FENCED_BOOT}
if fencedBoot(ARGV[5], ARGV[6]) then return 0 end
local kept = redis.call('HGET', ARGV[1], ARGV[2])
if kept and tonumber(cjson.decode(kept).seq) >= tonumber(ARGV[3]) then return 1 end
redis.call('HSET', ARGV[1], ARGV[2], cjson.encode({ seq = tonumber(ARGV[3]), hash = ARGV[4] }))
return 1
`;

/** Every replica's audit checkpoint in one hash of the cluster's keys, on the cluster store's connection. */
export class RedisAuditCheckpoints implements AuditCheckpointStore {
  readonly #redis: Redis;
  readonly #call: <T>(command: () => Promise<T>) => Promise<T>;
  readonly #key: string;
  readonly #prefix: string;

  constructor(redis: Redis, call: <T>(command: () => Promise<T>) => Promise<T>, prefix: string) {
    this.#redis = redis;
    this.#call = call;
    this.#key = `${prefix}audit-checkpoints`;
    this.#prefix = prefix;
  }

  async raise(boot: ReplicaBoot, checkpoint: AuditCheckpoint): Promise<boolean> {
    const { replicaId, epoch } = boot;
    const record = replicaKeyOf(this.#prefix, replicaId);
    const answer = await this.#call(() =>
      this.#redis.eval(
        RAISE_CHECKPOINT,
        0,
        this.#key,
        replicaId,
        checkpoint.seq,
        checkpoint.hash,
        record,
        epoch,
      ),
    );
    return answer === 1;
  }

  async read(replicaId: string): Promise<AuditCheckpoint | null> {
    const kept = await this.#call(() => this.#redis.hget(this.#key, replicaId));
    if (kept === null) return null;
    const { seq, hash } = JSON.parse(kept) as AuditCheckpoint;
    return { seq, hash };
  }
}
