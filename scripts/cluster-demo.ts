// `npm run cluster:demo`: a cluster on this machine to try docs/cluster.md with — one redis-server (a free
// loopback port, a temporary folder, nothing saved) and two replicas, `a` and `b`, each serving the demo
// app as `npm start` does. It prints where everything is, and on Ctrl-C or SIGTERM stops what it started:
// the replicas first (each stops its own apps), then Redis, then the temporary folder goes. package.json
// starts it with `exec`: npm hands a SIGTERM to the `sh -c` it runs scripts in, which would not pass it on.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { hashLine, newToken, PRIVATE_FILE_MODE } from '../server/token-record.js';
import { HAS_REDIS, type RedisServer, startRedis } from '../test/helpers/redis-server.js';

const BIN = fileURLToPath(new URL('../bin/stagegraph.js', import.meta.url));
const REPLICA_IDS = ['a', 'b'] as const;
/** A quiet machine serves both demos within seconds; a loaded one (load 15 on two cores) within minutes. */
const READY_TIMEOUT_MS = 240_000;
/** Past the gateway's own shutdown bound (server/shutdown-bound.ts, 10 s), then its group is killed. */
const STOP_TIMEOUT_MS = 20_000;

interface Replica {
  readonly id: string;
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  /** Its GraphQL URL and demo session, once it printed them. */
  readonly ready: Promise<{ url: string; session: string }>;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** `stagegraph serve --demo` as replica `id`: its own process group, so a Ctrl-C reaches it only through us. */
function startReplica(id: string, redisUrl: string, dir: string, approverTokens: string): Replica {
  const child = spawn(
    process.execPath,
    [
      ...[BIN, 'serve', '--demo', '--port', '0', '--cluster', redisUrl, '--replica-id', id],
      ...['--artifacts', join(dir, id), '--approver-token-file', approverTokens],
    ],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<{ url: string; session: string }>((resolve, reject) => {
    let url: string | undefined;
    const timer = setTimeout(
      () => reject(new Error(`replica ${id} was not ready in time`)),
      READY_TIMEOUT_MS,
    );
    createInterface({ input: child.stderr! }).on('line', (line) => {
      process.stderr.write(`[${id}] ${line}\n`);
      url ??= /serving GraphQL at (http:\/\/\S+)/.exec(line)?.[1];
      const demo = /^demo session (\S+) \(.*\) is RUNNING/.exec(line);
      const failed = /^(demo launch failed|Cannot start): .*/.exec(line);
      if (demo && url) resolve({ url, session: demo[1]! });
      if (failed) reject(new Error(`replica ${id}: ${failed[0]}`));
      if (demo || failed) clearTimeout(timer);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`replica ${id} exited before it was ready`));
    });
  });
  // A failure is reported where `ready` is awaited; one after shutdown began is expected.
  ready.catch(() => {});
  return { id, child, exited, ready };
}

/** SIGTERM, then SIGKILL of its group if its own bounded shutdown did not end it. */
async function stopReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null || replica.child.signalCode !== null) return;
  replica.child.kill('SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-replica.child.pid!, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }, STOP_TIMEOUT_MS);
  await replica.exited;
  clearTimeout(timer);
}

async function main(): Promise<number> {
  if (!HAS_REDIS) {
    process.stderr.write('cluster:demo needs redis-server: apt-get install redis-server\n');
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'stagegraph-cluster-demo-'));
  let redis: RedisServer | undefined;
  const replicas: Replica[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await Promise.all(replicas.map(stopReplica));
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    })();
    return stopping;
  };
  const stopped = new Promise<number>((resolve) => {
    // A Ctrl-C under npm arrives twice (from the terminal, and passed on by npm): the first one counts.
    const onSignal = (signal: NodeJS.Signals) => {
      if (!stopping) say(`${signal}: stopping both replicas, then Redis...`);
      void stop().then(() => resolve(0));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

  try {
    redis = await startRedis();
    // One approver token for the whole cluster, as a deployment has: an approver on either replica answers both.
    const approverToken = newToken();
    const approverTokens = join(dir, 'approver.tokens');
    writeFileSync(approverTokens, `${hashLine(approverToken)}\n`, { mode: PRIVATE_FILE_MODE });
    for (const id of REPLICA_IDS) replicas.push(startReplica(id, redis.url, dir, approverTokens));
    const ready = await Promise.race([Promise.all(replicas.map((replica) => replica.ready)), stopped]);
    if (typeof ready === 'number') return ready;
    say(`
Stagegraph cluster demo: one Redis and two replicas, all on this machine (Ctrl-C stops everything)
  Redis: ${redis.url} (temporary, nothing saved)`);
    ready.forEach(({ url, session }, index) => {
      const id = REPLICA_IDS[index];
      say(`  replica ${id} GraphiQL: ${url}`);
      say(`  replica ${id} observer page: ${new URL('/', url).href}`);
      say(`  replica ${id} demo session: ${session}`);
    });
    say(`  approver token (both replicas): ${approverToken}
  Try on either replica: { replicas { id url status sessions } sessions { id status replica { id } } }
cluster demo ready`);
  } catch (error) {
    process.stderr.write(`cluster:demo could not start: ${error instanceof Error ? error.message : error}\n`);
    await stop();
    return 1;
  }
  const lost = Promise.race(replicas.map((replica) => replica.exited.then(() => replica.id)));
  const ended = await Promise.race([stopped, lost]);
  if (typeof ended === 'number' || stopping) return stopped;
  process.stderr.write(`cluster:demo: replica ${ended} exited; stopping the rest\n`);
  await stop();
  return 1;
}

process.exitCode = await main();
