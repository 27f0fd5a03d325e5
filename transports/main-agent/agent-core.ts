import type { NativeEvent } from '../contract/native.js';
import type { AgentCore } from './shapes.js';

/**
 * The main-process event queue. Self-contained (it is shipped into the app as source): it references
 * nothing outside its own body.
 */
export function createAgentCore(): AgentCore {
  /** Events kept for the gateway; past this the oldest go and `dropped` says how many. */
  const QUEUE_CAPACITY = 500;
  /** A poll with nothing to report returns after this, so no call stays pending across a lost gateway. */
  const POLL_WAIT_MS = 5_000;
  const queue: { seq: number; event: NativeEvent }[] = [];
  let seq = 0;
  let dropped = 0;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  return {
    emit(event) {
      seq += 1;
      queue.push({ seq, event });
      if (queue.length > QUEUE_CAPACITY) {
        queue.shift();
        dropped += 1;
      }
      wake();
    },
    next(afterSeq) {
      const pending = () => queue.filter((entry) => entry.seq > afterSeq);
      return new Promise((resolve) => {
        const settle = () => {
          waiters.delete(settle);
          clearTimeout(timer);
          resolve({ events: pending(), dropped });
        };
        const timer = setTimeout(settle, pending().length > 0 ? 0 : POLL_WAIT_MS);
        if (pending().length > 0) settle();
        else waiters.add(settle);
      });
    },
    release: wake,
  };
}
