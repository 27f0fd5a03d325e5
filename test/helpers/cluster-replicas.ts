import { childrenOf } from './processes.js';

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
