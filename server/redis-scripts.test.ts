import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../test/helpers/redis-server.js';
import { describeWithRedis } from '../test/helpers/redis-suite.js';
import { runScript } from './redis-scripts.js';

const ECHO_SUM = 'return tonumber(ARGV[1]) + tonumber(ARGV[2])';

describeWithRedis('a script run by its digest', () => {
  let redis: RedisServer;
  let client: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('is sent once, then run by digest, and sent again once the server forgot its scripts', async () => {
    const before = await client.info('commandstats');
    expect(await runScript(client, ECHO_SUM, 0, 1, 2)).toBe(3);
    expect(await runScript(client, ECHO_SUM, 0, 3, 4)).toBe(7);
    await client.script('FLUSH');
    expect(await runScript(client, ECHO_SUM, 0, 5, 6)).toBe(11);
    const calls = (stats: string, command: string) =>
      Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
    const after = await client.info('commandstats');
    expect(calls(after, 'eval') - calls(before, 'eval')).toBe(2);
    expect(calls(after, 'evalsha') - calls(before, 'evalsha')).toBe(3);
  });
});
