import type { Redis } from 'ioredis';
import type {
  AnswerOutcome,
  ApprovalMessage,
  Claim,
  Confirmation,
  RelayedAnswer,
  SharedApproval,
  SharedApprovalStore,
} from '../domain/cluster/shared-approvals.js';
import { MAX_APPROVAL_TIMEOUT_MS } from '../domain/governance/approvals/approval-broker.js';
import type { StagegraphError } from '../errors/stagegraph-error.js';
import { CLAIM, CONFIRMATION, COUNT_APPROVERS, PENDING } from './redis-approval-lua.js';

/**
 * How long a claimed answer (and its outcome) is kept: past the longest an approval may wait, so a late
 * second answer still learns who came first.
 */
const ANSWER_KEPT_MS = MAX_APPROVAL_TIMEOUT_MS + 60_000;

/**
 * The shared approvals over Redis: one EVAL per atomic step (server/redis-approval-lua.ts) on the cluster
 * store's connection, and one more connection that only listens to the approvals channel (Redis pub/sub,
 * at most once, for answers and approver counts; what a reconnection missed, the replicas' ticks read back
 * from the keys). The requests' events travel on the cluster's approval stream instead.
 */
export class RedisApprovalStore implements SharedApprovalStore {
  readonly #redis: Redis;
  /** CLUSTER_UNAVAILABLE naming the Redis, as the cluster store words it. */
  readonly #unavailable: (error: unknown) => StagegraphError;
  readonly #prefix: string;
  #listener: Redis | undefined;

  constructor(redis: Redis, unavailable: (error: unknown) => StagegraphError, prefix: string) {
    this.#redis = redis;
    this.#unavailable = unavailable;
    this.#prefix = prefix;
  }

  async share(entry: SharedApproval): Promise<void> {
    await this.#call(() => this.#redis.hset(this.#key('approvals'), entry.request.id, JSON.stringify(entry)));
  }

  async withdraw(id: string): Promise<void> {
    await this.#call(() => this.#redis.hdel(this.#key('approvals'), id));
  }

  async pending(): Promise<SharedApproval[]> {
    const listed = (await this.#eval(PENDING, ANSWER_KEPT_MS)) as string[];
    return listed.map((raw) => JSON.parse(raw) as SharedApproval);
  }

  async claim(answer: RelayedAnswer): Promise<Claim> {
    const [kind, first, epoch] = (await this.#eval(
      CLAIM,
      answer.id,
      JSON.stringify(answer),
      answer.relayedBy,
      ANSWER_KEPT_MS,
    )) as [string, string?, number?];
    if (kind === 'CLAIMED') return { kind, owner: first as string, epoch: Number(epoch) };
    if (kind === 'ANSWERED') return { kind, by: JSON.parse(first as string) as RelayedAnswer };
    if (kind === 'LOST') return { kind, owner: first as string };
    return { kind: 'NOT_FOUND' };
  }

  async claimed(id: string): Promise<RelayedAnswer | null> {
    const raw = await this.#call(() => this.#redis.hget(this.#key(`approval:${id}`), 'answer'));
    return raw ? (JSON.parse(raw) as RelayedAnswer) : null;
  }

  async reply(id: string, outcome: AnswerOutcome): Promise<void> {
    const key = this.#key(`approval-outcome:${id}`);
    await this.#call(() => this.#redis.set(key, JSON.stringify(outcome), 'PX', ANSWER_KEPT_MS, 'NX'));
  }

  async confirmation(id: string): Promise<Confirmation> {
    const [kind, value] = (await this.#eval(CONFIRMATION, id)) as [string, string?];
    if (kind === 'DONE') return { kind, outcome: JSON.parse(value as string) as AnswerOutcome };
    if (kind === 'LOST') return { kind, owner: value ?? '' };
    return { kind: 'WAITING' };
  }

  async countApprovers(replicaId: string, count: number, ttlMs: number, announce: boolean): Promise<number> {
    return Number(await this.#eval(COUNT_APPROVERS, replicaId, count, ttlMs, announce ? '1' : '0'));
  }

  async listen(listener: (message: ApprovalMessage) => void): Promise<void> {
    const channel = this.#key('approvals');
    const connection = this.#redis.duplicate();
    this.#listener = connection;
    // The command connection already logs the Redis's failures; this one would only repeat them.
    connection.on('error', () => {});
    connection.on('message', (from: string, text: string) => {
      if (from === channel) listener(JSON.parse(text) as ApprovalMessage);
    });
    await this.#call(async () => {
      await connection.connect();
      await connection.subscribe(channel);
    });
  }

  async close(): Promise<void> {
    await this.#listener?.quit().catch(() => this.#listener?.disconnect());
  }

  #key(name: string): string {
    return `${this.#prefix}${name}`;
  }

  #eval(script: string, ...args: (string | number)[]): Promise<unknown> {
    return this.#call(() => this.#redis.eval(script, 0, this.#prefix, ...args));
  }

  async #call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw this.#unavailable(error);
    }
  }
}
