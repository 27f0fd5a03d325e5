import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Each script's SHA-1, computed once: the cluster's scripts are constants, a few dozen at most. */
const digests = new Map<string, string>();

/**
 * Runs a Lua script by its digest (EVALSHA), sending its text only when the server does not hold it yet
 * (NOSCRIPT: first use, or a Redis restarted since): the scripts run on every forwarded call and every
 * event, and their text is most of what such a command would send.
 */
export async function runScript(
  redis: Redis,
  script: string,
  numberOfKeys: number,
  ...args: (string | number)[]
): Promise<unknown> {
  let digest = digests.get(script);
  if (digest === undefined) {
    digest = createHash('sha1').update(script).digest('hex');
    digests.set(script, digest);
  }
  try {
    return await redis.evalsha(digest, numberOfKeys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return await redis.eval(script, numberOfKeys, ...args);
  }
}
