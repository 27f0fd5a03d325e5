import { type GatewayProcess, serveInChild } from './gateway-process.js';
import { childrenOf, expectPidsGone, signalEach } from './processes.js';
import type { RedisServer } from './redis-server.js';

/** Lease plus reaper, many times over: a deadline for a loaded machine, not the expected time. */
export const LOSS_DEADLINE_MS = 90_000;

/** Every process below `pid`, found before it dies: a replica killed with -9 leaves its apps behind. */
export function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

/** Reads until `done` holds (a replica's view catching up with what another did), at most LOSS_DEADLINE_MS. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + LOSS_DEADLINE_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Ends what a cluster suite started: each replica still running with SIGTERM (it reaps its own apps), the
 * apps a replica killed with -9 left behind (`orphans`), then Redis.
 */
export async function endCluster(
  replicas: readonly (GatewayProcess | undefined)[],
  orphans: readonly number[],
  redis: RedisServer | undefined,
): Promise<void> {
  for (const gateway of replicas) {
    if (gateway?.child.exitCode === null && gateway.child.signalCode === null) {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    }
  }
  signalEach(orphans, 'SIGKILL');
  await expectPidsGone(orphans, 30_000);
  await redis?.stop();
}

/** The replicas of one cluster, each started as a user starts it, by its id. */
export interface ReplicaSet {
  /** Starts replica `id` (again, after it ended) with the set's arguments and `extra`. */
  start(id: string, ...extra: string[]): Promise<GatewayProcess>;
  /** The replica started last under `id`. */
  get(id: string): GatewayProcess;
  /** kill -9, as a crash or the OOM killer would; the apps it started are reaped by `stop`. */
  killHard(id: string): Promise<void>;
  /** SIGTERM to every replica still running (woken first if paused), then SIGKILL to what killed ones left. */
  stop(): Promise<void>;
}

/** `stagegraph serve --cluster <redisUrl> --replica-id <id> …common`, for each replica started. */
export function replicaSet(redisUrl: string, common: readonly string[] = []): ReplicaSet {
  const running = new Map<string, GatewayProcess>();
  const orphans: number[] = [];
  const live = (gateway: GatewayProcess) =>
    gateway.child.exitCode === null && gateway.child.signalCode === null;
  return {
    async start(id, ...extra) {
      const gateway = await serveInChild(['--cluster', redisUrl, '--replica-id', id, ...common, ...extra]);
      running.set(id, gateway);
      return gateway;
    },
    get(id) {
      const gateway = running.get(id);
      if (!gateway) throw new Error(`replica ${id} was never started`);
      return gateway;
    },
    async killHard(id) {
      const gateway = this.get(id);
      orphans.push(...descendantsOf(gateway.pid));
      gateway.child.kill('SIGKILL');
      await gateway.exited;
    },
    async stop() {
      await Promise.all(
        [...running.values()].filter(live).map(async (gateway) => {
          gateway.child.kill('SIGCONT');
          gateway.child.kill('SIGTERM');
          await gateway.exited;
        }),
      );
      signalEach(orphans, 'SIGKILL');
      await expectPidsGone(orphans, 30_000);
    },
  };
}
