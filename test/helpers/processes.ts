import { livingGroupMembers } from '../../transports/process-group.js';

export { livingGroupMembers };

/** Waits until no live process remains in any of the groups, or fails naming the survivors. */
export async function expectGroupsGone(pgids: readonly number[], timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const survivors = pgids.flatMap((pgid) => livingGroupMembers(pgid));
    if (survivors.length === 0) return;
    if (Date.now() > deadline) throw new Error(`processes still alive: ${survivors.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
