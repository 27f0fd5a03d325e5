import { afterAll, beforeAll, expect, it } from 'vitest';
import { descendantsOf, endCluster, LOSS_DEADLINE_MS, until } from './helpers/cluster-replicas.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import {
  type GatewayClient,
  gatewayClient,
  type Loose,
  type LooseResponse,
} from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild, whenPrinted } from './helpers/gateway-process.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';

/**
 * Tests that kill, pause or restart replicas: each restart starts a gateway and its apps again, which at
 * load 27 on two cores took over a minute; the suite's 120 s safety net is one quiet restart's margin.
 */
const RESTARTS_TEST_TIMEOUT_MS = 300_000;
const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id status replica { id } } }';
const LISTING = '{ sessions { id status replica { id } } }';
/** One replica's own trail: `audit` without `replica` merges every replica's. */
const auditOf = (replica: string) =>
  `{ audit(replica: "${replica}", first: 500) { edges { node { operation session { id } } } } }`;
/** Every replica of the suite shares it, as a deployment's replicas would. */
const SECRET = 'cluster-test-secret';

describeWithRedis('cluster mode: two replicas on one Redis', () => {
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let onA: GatewayClient;
  let onB: GatewayClient;
  const orphans: number[] = [];

  const replica = (id: string, ...extra: string[]) =>
    serveInChild(['--cluster', redis.url, '--replica-id', id, '--cluster-secret', SECRET, ...extra]);

  /** kill -9, as a crash or the OOM killer would; the apps it started are reaped by the test. */
  async function killHard(gateway: GatewayProcess): Promise<void> {
    orphans.push(...descendantsOf(gateway.pid));
    gateway.child.kill('SIGKILL');
    await gateway.exited;
  }

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([replica('a'), replica('b')]);
    onA = gatewayClient(a.url);
    onB = gatewayClient(b.url);
  });
  afterAll(async () => {
    await endCluster([a, b], orphans, redis);
  });

  it('each replica holds a lease: `replicas` lists both, UP, with their URLs', async () => {
    const { replicas } = await onA.data('{ replicas { id url status epoch lastSeen self } }');
    expect(replicas).toEqual([
      expect.objectContaining({ id: 'a', url: a.url, status: 'UP', epoch: 1, self: true }),
      expect.objectContaining({ id: 'b', url: b.url, status: 'UP', epoch: 1, self: false }),
    ]);
    expect(a.stderr()).toMatch(/cluster: replica a joined with epoch 1/);
  });

  it('ids are unique across replicas, and `sessions` on either lists both with their owner', async () => {
    const [{ launch: onOwnA }, { launch: onOwnB }] = await Promise.all([
      onA.data(LAUNCH, { input: fixtureLaunch() }),
      onB.data(LAUNCH, { input: fixtureLaunch() }),
    ]);
    expect(onOwnA).toEqual({ id: 'a-s1', status: 'RUNNING', replica: { id: 'a' } });
    expect(onOwnB).toEqual({ id: 'b-s1', status: 'RUNNING', replica: { id: 'b' } });
    for (const client of [onA, onB]) {
      const { sessions } = await until(
        () => client.data(LISTING),
        (data) => data.sessions.length === 2,
        'the union of both replicas',
      );
      expect(sessions).toEqual(
        expect.arrayContaining([
          { id: 'a-s1', status: 'RUNNING', replica: { id: 'a' } },
          { id: 'b-s1', status: 'RUNNING', replica: { id: 'b' } },
        ]),
      );
    }
  });

  it('`session(id)` answers from any replica; what only the owner knows is read on the owner', async () => {
    const { session } = await onA.data('{ session(id: "b-s1") { id status transport replica { id url } } }');
    expect(session).toEqual({
      id: 'b-s1',
      status: 'RUNNING',
      transport: 'playwright-electron',
      replica: { id: 'b', url: b.url },
    });
    const windows = '{ session(id: "b-s1") { id windows { id title } } }';
    const throughA = await onA.data(windows);
    expect(throughA.session.windows.length).toBeGreaterThan(0);
    expect(throughA).toEqual(await onB.data(windows));
  });

  it("a mutation sent to a replica for another's session runs once, on the owner, audited there, and answers as the owner does", async () => {
    const audited = async (client: GatewayClient, replica: string) =>
      (await client.data(auditOf(replica))).audit.edges
        .map(({ node }: { node: { operation: string; session: { id: string } | null } }) => node)
        .filter((node: { operation: string }) => node.operation === 'press');
    expect(await onA.data('mutation { press(session: "b-s1", key: "Shift") { __typename } }')).toEqual({
      press: { __typename: 'ActionResult' },
    });
    expect(await audited(onB, 'b')).toEqual([{ operation: 'press', session: { id: 'b-s1' } }]);
    expect(await audited(onA, 'a')).toEqual([]);
    // Steps keep their semantics: the owner's failure, then STEP_SKIPPED, in order, as the owner answers them.
    const steps = `mutation {
      first: press(session: "b-s1", key: "NoSuchKeyAnywhere") { __typename }
      second: press(session: "b-s1", key: "Shift") { __typename }
    }`;
    const throughA = await onA.send(steps);
    expect(throughA.errors?.map((error) => error.extensions?.code)).toEqual([
      expect.any(String),
      'STEP_SKIPPED',
    ]);
    const { status: _status, ...answer } = throughA;
    const { status: _ownerStatus, ...ownerAnswer } = await onB.send(steps);
    expect(answer).toEqual(ownerAnswer);
  });

  it('`launch` takes the replica the app runs on; a forged forwarded call or an unknown replica is refused', async () => {
    const { launch } = await onA.data(
      'mutation ($input: LaunchInput!) { launch(input: $input, replica: "b") { id status replica { id } } }',
      { input: fixtureLaunch() },
    );
    expect(launch).toEqual({ id: 'b-s2', status: 'RUNNING', replica: { id: 'b' } });
    expect((await onA.data('mutation { stop(id: "b-s2") { id status } }')).stop).toEqual({
      id: 'b-s2',
      status: 'STOPPED',
    });
    expect(
      await onA.failure('mutation ($input: LaunchInput!) { launch(input: $input, replica: "zz") { id } }', {
        input: fixtureLaunch(),
      }),
    ).toMatchObject({ code: 'BAD_INPUT', details: { replica: 'zz' } });
    const forged = gatewayClient(a.url, {
      'x-stagegraph-forwarded-by': 'b',
      'x-stagegraph-cluster-secret': 'not-the-secret',
    });
    expect(await forged.failure('{ session(id: "b-s1") { id } }')).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it(
    'kill -9 of a replica: once its lease expires its sessions read LOST elsewhere, and answer SESSION_LOST',
    async () => {
      await killHard(b);
      await until(
        () => onA.data('{ session(id: "b-s1") { status } }'),
        (data) => data.session.status === 'LOST',
        'b-s1 after its replica was killed',
      );
      const { replicas } = await onA.data('{ replicas { id status } }');
      expect(replicas).toEqual([
        { id: 'a', status: 'UP' },
        { id: 'b', status: 'DOWN' },
      ]);
      // The refusal reads the directory as of a's last lease tick.
      const stop = await until(
        () => onA.failure('mutation { stop(id: "b-s1") { id } }'),
        (error) => error.code === 'SESSION_LOST',
        'stop of a LOST session',
      );
      expect(stop).toMatchObject({ retryable: false, details: { replica: 'b' } });
      // a's own session is untouched.
      expect((await onA.data('{ session(id: "a-s1") { status } }')).session.status).toBe('RUNNING');
    },
    RESTARTS_TEST_TIMEOUT_MS,
  );

  it(
    "a replica restarting with the same id marks its earlier boot's live sessions LOST at once, and never reuses an id",
    async () => {
      // A lease long enough that no reaper can be what marks b-s3: only b's own restart does.
      const longLease = ['--cluster-lease', '600000'];
      b = await replica('b', ...longLease);
      onB = gatewayClient(b.url);
      expect(b.stderr()).toMatch(/cluster: replica b joined with epoch 2\n/);
      const { launch } = await onB.data(LAUNCH, { input: fixtureLaunch() });
      expect(launch.id).toBe('b-s3');
      await killHard(b);
      b = await replica('b', ...longLease);
      onB = gatewayClient(b.url);
      await whenPrinted(
        b,
        /cluster: replica b joined with epoch 3; 1 live session\(s\) of its earlier boot marked LOST/,
        10_000,
      );
      expect((await onA.data('{ session(id: "b-s3") { status replica { id } } }')).session).toEqual({
        status: 'LOST',
        replica: { id: 'b' },
      });
      const { sessions } = await onB.data(LISTING);
      expect(sessions).toEqual(
        expect.arrayContaining([
          { id: 'b-s1', status: 'LOST', replica: { id: 'b' } },
          { id: 'b-s3', status: 'LOST', replica: { id: 'b' } },
        ]),
      );
    },
    RESTARTS_TEST_TIMEOUT_MS,
  );
  it(
    'a replica paused past its lease is fenced when it wakes: no new session, and its own stay LOST',
    async () => {
      b.child.kill('SIGTERM');
      await b.exited;
      b = await replica('b');
      onB = gatewayClient(b.url);
      const { launch } = await onB.data(LAUNCH, { input: fixtureLaunch() });
      expect(launch.id).toBe('b-s4');
      b.child.kill('SIGSTOP');
      try {
        await until(
          () => onA.data('{ session(id: "b-s4") { status } }'),
          (data) => data.session.status === 'LOST',
          'b-s4 while its replica is paused',
        );
      } finally {
        b.child.kill('SIGCONT');
      }
      await whenPrinted(b, /cluster: replica b lost its lease \(epoch 4\); fenced/, LOSS_DEADLINE_MS);
      expect(await onB.failure(LAUNCH, { input: fixtureLaunch() })).toMatchObject({ code: 'REPLICA_FENCED' });
      expect(await onB.failure('mutation { stop(id: "b-s4") { id } }')).toMatchObject({
        code: 'SESSION_LOST',
      });
      // What b still holds is never written back over the directory's LOST.
      expect((await onA.data('{ session(id: "b-s4") { status } }')).session.status).toBe('LOST');
    },
    RESTARTS_TEST_TIMEOUT_MS,
  );
  it('Redis stopped: cluster reads answer CLUSTER_UNAVAILABLE and own sessions keep working; restarted empty, it is refilled', async () => {
    await redis.stop();
    const outage = await until(
      () => onA.send('{ replicas { id } }'),
      (response) => response.errors?.[0]?.extensions?.code === 'CLUSTER_UNAVAILABLE',
      'replicas while Redis is stopped',
    );
    expect(outage.errors?.[0]?.extensions?.retryable).toBe(true);
    const local = await onA.data('{ session(id: "a-s1") { status windows { id } } }');
    expect(local.session.status).toBe('RUNNING');
    expect(local.session.windows.length).toBeGreaterThan(0);
    redis = await startRedis(redis.port);
    await whenPrinted(
      a,
      /cluster: the store had forgotten replica a; its sessions are written again/,
      LOSS_DEADLINE_MS,
    );
    // b is fenced and renews nothing, nor forwards a read of a's session (REPLICA_FENCED); what it lists
    // of a's session comes from the refilled directory.
    const aS1 = (response: LooseResponse) =>
      response.data?.sessions?.find((session: Loose) => session.id === 'a-s1') as Loose;
    const refilled = await until(
      () => onB.send('{ sessions { id status replica { id status } } }'),
      (response) => aS1(response) != null,
      'a-s1 in the refilled directory',
    );
    expect(aS1(refilled)).toEqual({ id: 'a-s1', status: 'RUNNING', replica: { id: 'a', status: 'UP' } });
    expect(await onB.failure('{ session(id: "a-s1") { status } }')).toMatchObject({ code: 'REPLICA_FENCED' });
  });
});
