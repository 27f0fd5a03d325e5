// What a console event costs to reach a subscriber on another replica (issue 36: within 5 ms median):
// one Redis, two replicas on this machine, the fixture app on b; one subscriber on b (the owner, reading
// its hub) and one on a (reading b's session stream in Redis), both in this process, so both arrival times
// are read on one clock. Each click of the fixture's log button logs one line; its extra latency is its
// arrival on a minus its arrival on b. BENCH_CLICKS (default 200) clicks, sent one after another.
import { parse } from 'graphql';
import { fixtureLaunch } from '../test/helpers/fixture-app.js';
import { subscribe, wsClient } from '../test/helpers/gateway.js';
import { gatewayClient, type Loose } from '../test/helpers/gateway-client.js';
import { serveInChild } from '../test/helpers/gateway-process.js';
import { HAS_REDIS, startRedis } from '../test/helpers/redis-server.js';
import { summarise } from './stats.js';

const CLICKS = Number(process.env.BENCH_CLICKS ?? 200);
const FEED = parse(
  'subscription { console(session: "b-s1", textContains: "button clicked") { cursor entry { seq } } }',
);
const CLICK = 'mutation { click(session: "b-s1", target: { testId: "log" }) { __typename } }';

async function main(): Promise<void> {
  if (!HAS_REDIS) {
    console.log('## Events across replicas\n\nskipped: redis-server is not installed');
    return;
  }
  const redis = await startRedis();
  const replicas = await Promise.all(
    ['a', 'b'].map((id) => serveInChild(['--cluster', redis.url, '--replica-id', id])),
  );
  const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
  const sockets = [wsClient(a.wsUrl), wsClient(b.wsUrl)];
  try {
    const onB = gatewayClient(b.url);
    await onB.data('mutation ($input: LaunchInput!) { launch(input: $input) { id } }', {
      input: fixtureLaunch(),
    });
    const arrivals = sockets.map(() => new Map<number, number>());
    const feeds = sockets.map((socket, index) => {
      const feed = subscribe<Loose, Record<string, never>>(socket, FEED);
      const arrived = arrivals[index] as Map<number, number>;
      const received = feed.received;
      // Arrival is stamped as each event comes in: the helper pushes, then wakes waiters.
      const push = received.push.bind(received);
      received.push = (...values: Loose[]) => {
        for (const value of values) arrived.set(value.console.entry.seq, performance.now());
        return push(...values);
      };
      return feed;
    });
    // Until both subscribers read: a click both saw.
    for (;;) {
      await onB.data(CLICK);
      const seen = await Promise.all(
        feeds.map((feed) =>
          feed
            .waitFor(() => true, 2_000)
            .then(
              () => true,
              () => false,
            ),
        ),
      );
      if (seen.every(Boolean)) break;
    }
    const [remote, owner] = arrivals as [Map<number, number>, Map<number, number>];
    const warm = new Set(remote.keys());
    for (let i = 0; i < CLICKS; i += 1) await onB.data(CLICK);
    await Promise.all(
      feeds.map((feed) => feed.waitFor(() => feed.received.length >= warm.size + CLICKS, 60_000)),
    );
    const extra = [...owner.entries()]
      .filter(([seq]) => !warm.has(seq))
      .map(([seq, at]) => (remote.get(seq) as number) - at);
    const summary = summarise(extra);
    console.log('## Events across replicas (console, owner b → subscriber on a through Redis Streams)\n');
    console.log('| events | extra latency median | p95 | mean |');
    console.log('| ---: | ---: | ---: | ---: |');
    console.log(
      `| ${summary.n} | ${summary.median.toFixed(2)} ms | ${summary.p95.toFixed(2)} ms | ${summary.mean.toFixed(2)} ms |`,
    );
    for (const feed of feeds) feed.dispose();
  } finally {
    await Promise.all(sockets.map((socket) => socket.dispose()));
    for (const replica of replicas) {
      replica.child.kill('SIGTERM');
      await replica.exited;
    }
    await redis.stop();
  }
}

await main();
