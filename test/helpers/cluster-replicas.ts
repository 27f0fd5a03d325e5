import type { GatewayProcess } from './gateway-process.js';
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
