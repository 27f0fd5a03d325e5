// Two replicas on one Redis; b is paused past its lease, then woken: what it still does for the cluster
// (nothing: REPLICA_FENCED), what it still answers about itself, what a accepts from it, and what of its
// own session's life still reaches the cluster's streams (nothing).
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOSS_DEADLINE_MS, type ReplicaSet, replicaSet, until } from './helpers/cluster-replicas.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';

const SECRET = 'cluster-fence-secret';
/** The default lease, renewed each second: a pause is seen within seconds, a loaded machine is not reaped. */
const QUICK_RENEWAL = ['--cluster-lease', '6000', '--cluster-renew', '1000'];
const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
const CLICK_A = 'mutation { click(session: "a-s1", target: { testId: "log" }) { __typename } }';
const A_CLICKS = '{ audit(replica: "a", first: 100) { edges { node { operation } } } }';
/** Each test waits for a lease to expire, on a machine that may be loaded. */
const TEST_TIMEOUT_MS = 300_000;

describeWithRedis('cluster mode: a replica paused past its lease does no cluster work once woken', () => {
  let redis: RedisServer;
  let replicas: ReplicaSet;
  let onA: GatewayClient;
  let onB: GatewayClient;
  const sockets: Client[] = [];
  /** b's boot before its pause, as a's directory listed it. */
  let epochOfB: number;
  /** The app of b's session b-s1, which b drives on after it was fenced. */
  let appOfB: number;

  const refusedOn = async (id: string, document: string): Promise<Loose> => {
    const socket = wsClient(replicas.get(id).wsUrl);
    sockets.push(socket);
    const feed: Subscription<Loose> = subscribe(socket, parse(document));
    await until(
      async () => feed.errors.length,
      (count) => count > 0,
      `the refusal of ${document}`,
    );
    const [error] = feed.errors as Loose[];
    return (Array.isArray(error) ? error[0] : error)?.extensions;
  };

  beforeAll(async () => {
    redis = await startRedis();
    replicas = replicaSet(redis.url, ['--cluster-secret', SECRET, ...QUICK_RENEWAL]);
    onA = gatewayClient((await replicas.start('a')).url);
    onB = gatewayClient((await replicas.start('b')).url);
    expect((await onA.data(LAUNCH, { input: fixtureLaunch() })).launch.id).toBe('a-s1');
    expect((await onB.data(LAUNCH, { input: fixtureLaunch() })).launch.id).toBe('b-s1');
    appOfB = (await onB.data('{ session(id: "b-s1") { pid } }')).session.pid;
    const { replicas: seen } = await onA.data('{ replicas { id epoch } }');
    epochOfB = seen.find((replica: Loose) => replica.id === 'b').epoch;
    const b = replicas.get('b');
    b.child.kill('SIGSTOP');
    try {
      await until(
        () => onA.data('{ replicas { id status } }'),
        (data) => data.replicas.some((replica: Loose) => replica.id === 'b' && replica.status === 'DOWN'),
        'b on a while b is paused',
      );
    } finally {
      b.child.kill('SIGCONT');
    }
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.dispose()));
    await replicas?.stop();
    await redis?.stop();
  });

  it(
    "a click on a's session sent through woken b answers REPLICA_FENCED and never runs on a",
    async () => {
      // Sent at once, maybe before b's own renewal told it: the read that routes the click tells it.
      expect(await onB.failure(CLICK_A)).toMatchObject({
        code: 'REPLICA_FENCED',
        retryable: false,
        hint: expect.stringMatching(/live replica.*restart this one/s),
        details: { replica: 'b' },
      });
      const { audit } = await onA.data(A_CLICKS);
      expect(audit.edges.filter((edge: Loose) => edge.node.operation === 'click')).toEqual([]);
      // Nor what a reads for the cluster through b: another's session, its streams, the merged trail.
      expect(await onB.failure('{ session(id: "a-s1") { status } }')).toMatchObject({
        code: 'REPLICA_FENCED',
      });
      expect(await onB.failure('{ audit(first: 5) { edges { cursor } } }')).toMatchObject({
        code: 'REPLICA_FENCED',
      });
      expect(await onB.failure('{ audit(replica: "a", first: 5) { edges { cursor } } }')).toMatchObject({
        code: 'REPLICA_FENCED',
      });
    },
    LOSS_DEADLINE_MS,
  );

  it('b relays no subscription and serves no stream of the cluster', async () => {
    expect(await refusedOn('b', 'subscription { console(session: "a-s1") { cursor } }')).toMatchObject({
      code: 'REPLICA_FENCED',
    });
    expect(
      await refusedOn('b', 'subscription { screencast(session: "a-s1", maxFps: 1) { seq } }'),
    ).toMatchObject({ code: 'REPLICA_FENCED' });
    expect(await refusedOn('b', 'subscription { audit { cursor } }')).toMatchObject({
      code: 'REPLICA_FENCED',
    });
  });

  it('b still answers about itself: the replicas (itself DOWN), the sessions listed, its own trail', async () => {
    const { replicas: seen } = await onB.data('{ replicas { id status self } }');
    expect(seen).toContainEqual({ id: 'b', status: 'DOWN', self: true });
    const { sessions } = await onB.data('{ sessions { id } }');
    expect(sessions.map((session: Loose) => session.id)).toContain('a-s1');
    const { verifyAudit } = await onB.data('{ verifyAudit(replica: "b") { ok replica } }');
    expect(verifyAudit).toEqual({ ok: true, replica: 'b' });
  });

  it("a refuses a call forwarded by b's fenced boot, whatever secret it carries", async () => {
    const forwardedByB = gatewayClient(replicas.get('a').url, {
      'x-stagegraph-forwarded-by': 'b',
      'x-stagegraph-forwarded-epoch': String(epochOfB),
      'x-stagegraph-cluster-secret': SECRET,
    });
    expect(await forwardedByB.failure(CLICK_A)).toMatchObject({
      code: 'REPLICA_FENCED',
      details: { replica: 'b' },
    });
    const { audit } = await onA.data(A_CLICKS);
    expect(audit.edges.filter((edge: Loose) => edge.node.operation === 'click')).toEqual([]);
  });

  it(
    "b's own session ending after the fence stays on b: its stream, read from a, ends LOST without it",
    async () => {
      process.kill(appOfB, 'SIGKILL');
      // b still drives its session: it saw the app end, and published that to its own hub.
      await until(
        () => onB.data('{ sessions { id status } }'),
        (data) =>
          data.sessions.some(
            (session: Loose) => session.id === 'b-s1' && ['EXITED', 'CRASHED'].includes(session.status),
          ),
        'b-s1 on b once its app was killed',
      );
      // Read from a after that, the stream holds what b wrote before its reap, then the loss a saw.
      const socket = wsClient(replicas.get('a').wsUrl);
      sockets.push(socket);
      const fromA: Subscription<Loose> = subscribe(
        socket,
        parse('subscription { sessionEvents(session: "b-s1", after: "0") { type cursor } }'),
      );
      await fromA.waitFor((event) => event.sessionEvents.type === 'LOST', LOSS_DEADLINE_MS);
      const types = fromA.received.map((event: Loose) => event.sessionEvents.type);
      expect(types).not.toContain('EXITED');
      expect(types).not.toContain('CRASHED');
      expect(types.at(-1)).toBe('LOST');
    },
    TEST_TIMEOUT_MS,
  );
});
