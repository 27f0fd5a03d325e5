import type { Redis } from 'ioredis';
import type { ReplicaBoot } from '../domain/cluster/cluster-store.js';
import type { EventStreams, StreamedEvent, StreamReader } from '../domain/cluster/event-streams.js';
import { FENCED_BOOT, replicaKeyOf } from './redis-cluster-lua.js';
import { KEY_PREFIX } from './redis-cluster-store.js';
import { COMMAND_TIMEOUT_MS, callRedis, connectRedis, duplicateRedis } from './redis-connection.js';

/** A stream no event was appended to for this long is dropped: its session ended long ago. */
const IDLE_STREAM_TTL_MS = 24 * 60 * 60 * 1_000;
/** Events one read takes at most; the subscriber asks again for the rest. */
const READ_COUNT = 100;
/** The one field of each entry: the event's JSON. */
const FIELD = 'e';
/**
 * KEYS: the stream, the writing replica's record. ARGV: its epoch, bound, JSON, idle TTL, the number. The
 * XADD, trimmed to the newest `bound` (exact MAXLEN: the bound is what a resuming subscriber can count on),
 * and its PEXPIRE, made only while the boot is not fenced; answers 1 when written, 0 when refused.
 */
const APPEND = `${FENCED_BOOT}
if fencedBoot(KEYS[2], ARGV[1]) then return 0 end
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], ARGV[5] .. '-0', '${FIELD}', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

/**
 * KEYS and ARGV as APPEND's, without the number: numbers the event one above the stream's newest entry in
 * the same atomic step as the XADD, so replicas appending at once get dense, distinct numbers. Entries are
 * never deleted, only trimmed from the oldest end, so the newest entry is the last number given. Answers
 * the number, or 0 (no event's) when the boot is fenced.
 */
const APPEND_NEXT = `${FENCED_BOOT}
if fencedBoot(KEYS[2], ARGV[1]) then return 0 end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local number = 1
if last[1] then number = tonumber(string.match(last[1][1], '^(%d+)')) + 1 end
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], string.format('%d-0', number), '${FIELD}', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return number
`;

/**
 * The event streams over Redis Streams (ioredis): event number n is entry id `n-0`, so the ids are the
 * numbers and XREAD after a cursor is exact. Each append is one EVAL on a connection of its own, in
 * publishing order, that checks the writing boot is not fenced before it writes (APPEND); a cluster-wide
 * topic's numbers the event too (APPEND_NEXT). Loaded only with --cluster.
 */
export class RedisEventStreams implements EventStreams {
  readonly #redis: Redis;
  readonly #where: string;
  readonly #bound: number;
  readonly #prefix: string;

  private constructor(redis: Redis, where: string, bound: number, prefix: string) {
    this.#redis = redis;
    this.#where = where;
    this.#bound = bound;
    this.#prefix = prefix;
  }

  static async connect(
    url: string,
    log: (line: string) => void,
    bound: number,
    prefix = KEY_PREFIX,
  ): Promise<RedisEventStreams> {
    const { redis, where } = await connectRedis(url, log);
    return new RedisEventStreams(redis, where, bound, prefix);
  }

  async append(stream: string, number: number, json: string, boot: ReplicaBoot): Promise<boolean> {
    return (await this.#appendAs(APPEND, stream, boot, json, number)) === 1;
  }

  async appendNext(stream: string, json: string, boot: ReplicaBoot): Promise<number | null> {
    const number = Number(await this.#appendAs(APPEND_NEXT, stream, boot, json));
    return number === 0 ? null : number;
  }

  async range(stream: string, after: number, count: number): Promise<StreamedEvent[]> {
    const entries = await callRedis(this.#where, () =>
      this.#redis.xrange(this.#prefix + stream, `${after + 1}-0`, '+', 'COUNT', count),
    );
    return entries.map(eventOf);
  }

  async newest(stream: string): Promise<number> {
    const [last] = await callRedis(this.#where, () =>
      this.#redis.xrevrange(this.#prefix + stream, '+', '-', 'COUNT', 1),
    );
    return last ? numberOf(last[0]) : 0;
  }

  async openReader(): Promise<StreamReader> {
    // A read waits up to its own deadline; the connection's command timeout is that plus a round trip's margin.
    const reader = await duplicateRedis(this.#redis, this.#where, MAX_WAIT_MS + COMMAND_TIMEOUT_MS);
    return new RedisStreamReader(reader, this.#where, this.#prefix);
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  /** Runs an append script as `boot` (KEYS and ARGV as APPEND's), `more` after the common arguments. */
  #appendAs(script: string, stream: string, boot: ReplicaBoot, json: string, ...more: number[]) {
    const record = replicaKeyOf(this.#prefix, boot.replicaId);
    return callRedis(this.#where, () =>
      this.#redis.eval(
        script,
        2,
        this.#prefix + stream,
        record,
        boot.epoch,
        this.#bound,
        json,
        IDLE_STREAM_TTL_MS,
        ...more,
      ),
    );
  }
}

/** The longest wait a reader asks of Redis; a longer one is cut to it, and the subscriber simply reads again. */
const MAX_WAIT_MS = 5_000;

class RedisStreamReader implements StreamReader {
  readonly #redis: Redis;
  readonly #where: string;
  readonly #prefix: string;

  constructor(redis: Redis, where: string, prefix: string) {
    this.#redis = redis;
    this.#where = where;
    this.#prefix = prefix;
  }

  async read(stream: string, after: number, waitMs: number): Promise<StreamedEvent[]> {
    const wait = Math.max(1, Math.min(waitMs, MAX_WAIT_MS));
    const answer = await callRedis(this.#where, () =>
      this.#redis.xread('COUNT', READ_COUNT, 'BLOCK', wait, 'STREAMS', this.#prefix + stream, `${after}-0`),
    );
    const entries = answer?.[0]?.[1] ?? [];
    return entries.map(eventOf);
  }

  close(): void {
    this.#redis.disconnect();
  }
}

function eventOf([id, fields]: [string, string[]]): StreamedEvent {
  return { number: numberOf(id), json: fields[1] ?? 'null' };
}

function numberOf(id: string): number {
  return Number(id.slice(0, id.indexOf('-')));
}
