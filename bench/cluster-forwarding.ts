// What routing by owner costs (issue 36: a forwarded operation at most 2 ms median more than on the owner),
// and a read-act loop's throughput with its sessions spread over 1, 2 and 3 replicas. One Redis and three
// replicas (a, b, c), all processes on this machine, every call over HTTP on loopback (operations sent
// over the WebSocket are not forwarded).
// (a) The same operation on b's session, sent to b (the owner) and to a (which forwards it to b), in
//     alternating pairs whose order alternates too; the extra latency is each pair's difference.
//     BENCH_PAIRS (default 1000: a median of 200 differences moved by half a millisecond between quiet runs) pairs per operation: an interactive snapshot, and a click.
// (b) Three clients at once, each looping on its own session: an interactive snapshot, then a click on
//     the Subscribe checkbox by the ref it read. The three sessions on a; then two on a and one on b;
//     then one on each of a, b and c. Each phase runs BENCH_PHASE_MS (default 10000) sending to each session's owner, then as long
//     sending everything to a (one endpoint for the cluster, forwarding the rest).
import os from 'node:os';
import { fixtureLaunch } from '../test/helpers/fixture-app.js';
import { type GatewayClient, gatewayClient } from '../test/helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from '../test/helpers/gateway-process.js';
import { HAS_REDIS, startRedis } from '../test/helpers/redis-server.js';
import { summarise } from './stats.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 1_000);
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 10_000);
const WARMUP_PAIRS = 20;
/** Far above what the loops send: the default per-client rate (20/s) would measure RATE_LIMITED. */
const MUTATION_RATE = '100000';
const REPLICA_IDS = ['a', 'b', 'c'] as const;

const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
const WINDOWS = 'query ($s: ID) { session(id: $s) { windows { title } } }';
const STOP_TICKING =
  'mutation ($s: ID) { click(session: $s, target: { testId: "stop-ticking" }) { elapsedMs } }';
const SNAPSHOT =
  'query ($s: ID) { session(id: $s) { window { snapshot(interactiveOnly: true) { nodes { ref role name } } } } }';
const CLICK_REF = 'mutation ($s: ID, $ref: ID!) { click(session: $s, target: { ref: $ref }) { elapsedMs } }';
const CLICK_LOG = 'mutation ($s: ID) { click(session: $s, target: { testId: "log" }) { elapsedMs } }';
/** One replica's own trail, a page at a time: `audit` without `replica` merges every replica's. */
const AUDITED = `query ($replica: String, $after: String) {
  audit(first: 500, replica: $replica, after: $after) {
    edges { node { operation session { id } } } pageInfo { endCursor hasNextPage }
  }
}`;

type Node = { ref: string; role: string; name: string };
type AuditPage = {
  edges: { node: { operation: string; session: { id: string } | null } }[];
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
};

/** A session of the fixture app on `owner`, its window open and its clock no longer ticking. */
async function fixtureSession(owner: GatewayClient): Promise<string> {
  const s: string = (await owner.data(LAUNCH, { input: fixtureLaunch() })).launch.id;
  for (;;) {
    const { session } = await owner.data(WINDOWS, { s });
    if (session.windows.some((window: { title: string }) => window.title === 'Stagegraph Fixture')) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await owner.data(STOP_TICKING, { s });
  return s;
}

async function elapsed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Each pair's (through a) − (on the owner), after a warm-up; which goes first alternates. */
async function extraLatency(owner: GatewayClient, through: GatewayClient, query: string, s: string) {
  const direct: number[] = [];
  const forwarded: number[] = [];
  for (let i = 0; i < WARMUP_PAIRS + PAIRS; i += 1) {
    const first = i % 2 === 0 ? owner : through;
    const a = await elapsed(() => first.data(query, { s }));
    const b = await elapsed(() => (first === owner ? through : owner).data(query, { s }));
    if (i < WARMUP_PAIRS) continue;
    direct.push(first === owner ? a : b);
    forwarded.push(first === owner ? b : a);
  }
  return {
    direct: summarise(direct),
    forwarded: summarise(forwarded),
    extra: summarise(forwarded.map((ms, i) => ms - (direct[i] as number))),
  };
}

/** CLIENTS loops of snapshot + click for PHASE_MS; client i drives sessions[i] through clients[i]. */
async function readActPhase(clients: readonly GatewayClient[], sessions: readonly string[]) {
  const deadline = performance.now() + PHASE_MS;
  const iterations: number[] = [];
  const started = performance.now();
  await Promise.all(
    sessions.map(async (s, index) => {
      const client = clients[index] as GatewayClient;
      while (performance.now() < deadline) {
        const ms = await elapsed(async () => {
          const { session } = await client.data(SNAPSHOT, { s });
          const box = session.window.snapshot.nodes.find(
            (node: Node) => node.role === 'checkbox' && node.name === 'Subscribe',
          );
          await client.data(CLICK_REF, { s, ref: box.ref });
        });
        iterations.push(ms);
      }
    }),
  );
  const wall = performance.now() - started;
  return { perSecond: (iterations.length * 1_000) / wall, latency: summarise(iterations) };
}

const ms = (x: number) => `${x.toFixed(2)} ms`;

async function main(): Promise<void> {
  if (!HAS_REDIS) {
    console.log('## Cluster forwarding and throughput\n\nskipped: redis-server is not installed');
    return;
  }
  const loadBefore = os.loadavg()[0] ?? Number.NaN;
  const redis = await startRedis();
  const replicas: GatewayProcess[] = await Promise.all(
    REPLICA_IDS.map((id) =>
      serveInChild(['--cluster', redis.url, '--replica-id', id, '--mutation-rate', MUTATION_RATE]),
    ),
  );
  const [onA, onB, onC] = replicas.map((replica) => gatewayClient(replica.url)) as [
    GatewayClient,
    GatewayClient,
    GatewayClient,
  ];
  try {
    // a holds all three sessions of phase 1; b one, which (a) measures too; c one.
    const onASessions = [await fixtureSession(onA), await fixtureSession(onA), await fixtureSession(onA)];
    const bSession = await fixtureSession(onB);
    const cSession = await fixtureSession(onC);

    const read = await extraLatency(onB, onA, SNAPSHOT, bSession);
    const click = await extraLatency(onB, onA, CLICK_LOG, bSession);
    const clicksOf = async (client: GatewayClient, replica: string) => {
      let clicks = 0;
      for (let after: string | null = null; ; ) {
        const { audit }: { audit: AuditPage } = await client.data(AUDITED, { replica, after });
        clicks += audit.edges.filter(
          ({ node }) => node.operation === 'click' && node.session?.id === bSession,
        ).length;
        if (!audit.pageInfo.hasNextPage) return clicks;
        after = audit.pageInfo.endCursor;
      }
    };
    const [auditedOnB, auditedOnA] = [await clicksOf(onB, 'b'), await clicksOf(onA, 'a')];

    const layouts = [
      { replicas: 'a', sessions: onASessions, owners: [onA, onA, onA] },
      { replicas: 'a, b', sessions: [onASessions[0], onASessions[1], bSession], owners: [onA, onA, onB] },
      { replicas: 'a, b, c', sessions: [onASessions[0], bSession, cSession], owners: [onA, onB, onC] },
    ] as const;
    const throughput = [];
    for (const layout of layouts) {
      const sessions = layout.sessions as readonly string[];
      const toOwner = await readActPhase(layout.owners, sessions);
      const throughA = await readActPhase([onA, onA, onA], sessions);
      throughput.push({ layout, toOwner, throughA });
    }
    const loadAfter = os.loadavg()[0] ?? Number.NaN;

    console.log('## Cluster: forwarding and read-act throughput (issue 36)\n');
    console.log(
      `One redis-server and three replicas, all on this machine; load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after.\n`,
    );
    console.log(
      "| operation on b's session | pairs | on b (owner) median | through a median | extra median | extra p95 |",
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const [name, figures] of [
      ['interactive snapshot', read],
      ['click', click],
    ] as const)
      console.log(
        `| ${name} | ${figures.extra.n} | ${ms(figures.direct.median)} | ${ms(figures.forwarded.median)} | ${ms(figures.extra.median)} | ${ms(figures.extra.p95)} |`,
      );
    console.log(`\nClicks on b's session in b's audit: ${auditedOnB}; in a's: ${auditedOnA}.\n`);
    console.log(
      `| sessions on | to each owner: loops/s | loop median | p95 | all through a: loops/s | loop median | p95 |`,
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const { layout, toOwner, throughA } of throughput)
      console.log(
        `| ${layout.replicas} | ${toOwner.perSecond.toFixed(1)} | ${ms(toOwner.latency.median)} | ${ms(toOwner.latency.p95)} | ${throughA.perSecond.toFixed(1)} | ${ms(throughA.latency.median)} | ${ms(throughA.latency.p95)} |`,
      );
  } finally {
    for (const replica of replicas) {
      replica.child.kill('SIGTERM');
      await replica.exited;
    }
    await redis.stop();
  }
}

await main();
