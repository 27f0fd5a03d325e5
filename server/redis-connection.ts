import { Redis, type RedisOptions } from 'ioredis';
import { StagegraphError } from '../errors/stagegraph-error.js';

/**
 * How long one Redis command may take before the operation that needs it answers CLUSTER_UNAVAILABLE:
 * far above a loopback or LAN round trip, far below any client's patience.
 */
export const COMMAND_TIMEOUT_MS = 1_500;
/** How long the first connection may take before the gateway refuses to start. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Reconnection attempts back off to this, so a Redis that comes back is found within a lease. */
const RECONNECT_MAX_MS = 1_000;

/**
 * A connection to the cluster's Redis that never queues a command while disconnected: each fails at once,
 * or after COMMAND_TIMEOUT_MS. Throws CLUSTER_UNAVAILABLE naming the Redis (without its password).
 */
export async function connectRedis(
  url: string,
  log: (line: string) => void,
): Promise<{ readonly redis: Redis; readonly where: string }> {
  const where = withoutPassword(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_MAX_MS),
  });
  let lastError = '';
  // Without a listener ioredis prints every failed reconnection; one line per distinct failure is enough.
  redis.on('error', (error: Error) => {
    if (error.message !== lastError) log(`cluster: Redis at ${where}: ${error.message}`);
    lastError = error.message;
  });
  redis.on('ready', () => {
    lastError = '';
  });
  await openOrThrow(redis, where);
  return { redis, where };
}

/**
 * A second connection like `redis`, for one blocking reader: never reconnected (a reader that lost its
 * connection ends, and its subscriber resumes elsewhere), its commands bounded by `timeoutMs`.
 */
export async function duplicateRedis(redis: Redis, where: string, timeoutMs: number): Promise<Redis> {
  const options: Partial<RedisOptions> = {
    lazyConnect: true,
    commandTimeout: timeoutMs,
    retryStrategy: () => null,
  };
  const duplicate = redis.duplicate(options);
  // Its failures reach the reader as rejected commands; the event would only be printed.
  duplicate.on('error', () => {});
  await openOrThrow(duplicate, where);
  return duplicate;
}

async function openOrThrow(redis: Redis, where: string): Promise<void> {
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw unavailable(where, error);
  }
}

/** Runs one Redis command; any failure is CLUSTER_UNAVAILABLE naming the Redis. */
export async function callRedis<T>(where: string, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    throw unavailable(where, error);
  }
}

export function unavailable(where: string, error: unknown): StagegraphError {
  const reason = error instanceof Error ? error.message : String(error);
  return new StagegraphError(
    'CLUSTER_UNAVAILABLE',
    `The cluster's Redis at ${where} did not answer: ${reason}`,
    {
      details: { redis: where },
    },
  );
}

/** The URL as logs and errors may show it. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return 'the configured Redis';
  }
}
