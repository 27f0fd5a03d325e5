// What a forwarded call asks of Redis: the session's owner (on the replica forwarding) and the sender's
// boot (on the owner) are read once, then relied on while the leases they rest on surely hold. Replicas
// with a lease of ten minutes, renewed every five: nothing else reads Redis while the calls run.
import { connect, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPLICAS_NAMED, SESSION_WITH_OWNER } from '../server/redis-cluster-lua.js';
import { LAUNCH, startTwoReplicas, type TwoReplicas } from './helpers/cluster-streams.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { describeWithRedis } from './helpers/redis-suite.js';

const LONG_LEASE = ['--cluster-lease', '600000', '--cluster-renew', '300000'];
const STATUS = 'query ($s: ID) { session(id: $s) { status replica { id } } }';
const CALLS = 10;

/** An argument as MONITOR quotes it: newlines, quotes and backslashes escaped. */
const unescaped = (quoted = '') =>
  quoted.replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));

describeWithRedis('a forwarded call reads Redis only when a lease may have lapsed', () => {
  let cluster: TwoReplicas;
  let monitor: Socket;
  let client: Redis;
  /** The commands Redis ran, as MONITOR reports them, each as its name and arguments. */
  const ran: string[][] = [];

  beforeAll(async () => {
    cluster = await startTwoReplicas(LONG_LEASE, LONG_LEASE);
    client = new Redis(cluster.redis.url);
    // MONITOR over a socket of its own: each line it sends is one command another connection ran.
    monitor = connect(cluster.redis.port, '127.0.0.1');
    let pending = '';
    monitor.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\r\n');
      pending = lines.pop() ?? '';
      for (const line of lines)
        if (line.startsWith('+') && line !== '+OK')
          ran.push([...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] ?? ''));
    });
    monitor.write('MONITOR\r\n');
  });
  afterAll(async () => {
    monitor?.destroy();
    client?.disconnect();
    await cluster?.end();
  });

  /** The commands run since the last mark: a mark is an ECHO, seen by MONITOR after all sent before it. */
  async function commandsSince(mark: string): Promise<string[][]> {
    const end = `${mark}-end`;
    await client.echo(end);
    await expect.poll(() => ran.some((args) => args[1] === end)).toBe(true);
    const from = ran.findIndex((args) => args[1] === mark);
    const to = ran.findIndex((args) => args[1] === end);
    return ran.slice(from + 1, to);
  }

  it("reads b's session's owner and a's boot once, for any number of calls a forwards to b", async () => {
    await client.echo('monitoring');
    await expect.poll(() => ran.some((args) => args[1] === 'monitoring')).toBe(true);
    const s: string = (await cluster.onB.data(LAUNCH, { input: fixtureLaunch() })).launch.id;
    await client.echo('first');
    expect((await cluster.onA.data(STATUS, { s })).session.replica.id).toBe('b');
    // Each read routing makes is one EVAL (MONITOR shows the commands a script runs after it).
    // Routing's reads are two scripts; the session's events are appended by another.
    const routing = new Set([SESSION_WITH_OWNER, REPLICAS_NAMED]);
    const evals = (commands: string[][]) =>
      commands.filter(([name, script]) => name?.toLowerCase() === 'eval' && routing.has(unescaped(script)));
    expect(evals(await commandsSince('first')).length).toBeGreaterThanOrEqual(2);
    await client.echo('burst');
    for (let call = 0; call < CALLS; call += 1)
      expect((await cluster.onA.data(STATUS, { s })).session.replica.id).toBe('b');
    expect(evals(await commandsSince('burst'))).toEqual([]);
  });
});
