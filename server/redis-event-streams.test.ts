import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_REDIS, type RedisServer, startRedis } from '../test/helpers/redis-server.js';
import { RedisClusterStore } from './redis-cluster-store.js';
import { RedisEventStreams } from './redis-event-streams.js';

/** A boot of a replica the store holds no record of: nothing fences it. */
const BOOT = { replicaId: 'a', epoch: 1 };

if (!HAS_REDIS)
  describe.skip('session streams over Redis (redis-server is not installed: apt-get install redis-server)', () => {
    it('appends, trims and reads', () => {});
  });

describe.runIf(HAS_REDIS)('session streams over Redis', () => {
  let redis: RedisServer;
  let streams: RedisEventStreams;
  const log: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    streams = await RedisEventStreams.connect(redis.url, (line) => log.push(line), 3, 'test:');
  });
  afterAll(async () => {
    await streams?.close();
    await redis?.stop();
  });

  it('keeps the newest `bound` events under their numbers, and reads after a number in order', async () => {
    for (let n = 1; n <= 5; n += 1) await streams.append('events:a-s1:console', n, `{"n":${n}}`, BOOT);
    expect(await streams.newest('events:a-s1:console')).toBe(5);
    expect(await streams.newest('events:nobody:console')).toBe(0);
    const reader = await streams.openReader();
    expect(await reader.read('events:a-s1:console', 0, 10)).toEqual([
      { number: 3, json: '{"n":3}' },
      { number: 4, json: '{"n":4}' },
      { number: 5, json: '{"n":5}' },
    ]);
    expect(await reader.read('events:a-s1:console', 5, 10)).toEqual([]);
    reader.close();
  });

  it('numbers the appends of a stream every replica writes densely, whoever appends, within the bound', async () => {
    const other = await RedisEventStreams.connect(redis.url, (line) => log.push(line), 3, 'test:');
    const numbers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        (n % 2 ? streams : other).appendNext('events:cluster:audit', `{"n":${n}}`, BOOT),
      ),
    );
    await other.close();
    expect([...numbers].sort()).toEqual([1, 2, 3, 4, 5]);
    const reader = await streams.openReader();
    expect((await reader.read('events:cluster:audit', 0, 10)).map((event) => event.number)).toEqual([
      3, 4, 5,
    ]);
    reader.close();
    expect(await streams.appendNext('events:cluster:audit', '{}', BOOT)).toBe(6);
    expect((await streams.range('events:cluster:audit', 3, 2)).map((event) => event.number)).toEqual([4, 5]);
    expect(await streams.range('events:cluster:audit', 6, 2)).toEqual([]);
  });

  it('wakes a waiting read with the next append; a closed reader ends the read under way', async () => {
    const reader = await streams.openReader();
    const waiting = reader.read('events:a-s2:console', 0, 5_000);
    await streams.append('events:a-s2:console', 1, '{}', BOOT);
    expect(await waiting).toEqual([{ number: 1, json: '{}' }]);
    const cut = reader.read('events:a-s2:console', 1, 5_000);
    reader.close();
    await expect(cut).rejects.toMatchObject({ code: 'CLUSTER_UNAVAILABLE' });
  });

  it('refuses, in the append itself, a boot that a later boot of its id replaced or a reaper marked DOWN', async () => {
    const store = await RedisClusterStore.connect(redis.url, (line) => log.push(line), 'test:');
    try {
      const url = 'http://127.0.0.1:1/graphql';
      const first = { replicaId: 'c', epoch: (await store.join({ id: 'c', url }, 60_000)).epoch };
      expect(await streams.append('events:c-s1:console', 1, '{}', first)).toBe(true);
      const second = { replicaId: 'c', epoch: (await store.join({ id: 'c', url }, 60_000)).epoch };
      expect(await streams.append('events:c-s1:console', 2, '{}', first)).toBe(false);
      expect(await streams.appendNext('events:cluster:audit', '{"from":"c1"}', first)).toBeNull();
      expect(await streams.newest('events:c-s1:console')).toBe(1);
      // Its own clean shutdown does not fence it: its last events may still be on their way.
      await store.leave('c', second.epoch);
      expect(await streams.append('events:c-s2:console', 1, '{}', second)).toBe(true);

      const paused = { replicaId: 'd', epoch: (await store.join({ id: 'd', url }, 1)).epoch };
      while (!(await store.reap()).includes('d'));
      expect(await streams.append('events:d-s1:console', 1, '{}', paused)).toBe(false);
      expect(await streams.appendNext('events:cluster:audit', '{"from":"d"}', paused)).toBeNull();
      expect(await streams.newest('events:d-s1:console')).toBe(0);
    } finally {
      await store.close();
    }
  });
});
