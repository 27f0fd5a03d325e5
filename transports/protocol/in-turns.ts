import { setImmediate } from 'node:timers/promises';

/**
 * Runs `steps` to its end, one step per turn of the event loop, so a long piece of work (decoding or
 * recording a 60,000-node snapshot) lets other sessions' operations run in between. `beforeStep` runs before
 * each step; what it throws rejects the run and the rest of the steps are never taken.
 */
export async function inTurns<T>(steps: Generator<void, T>, beforeStep?: () => void): Promise<T> {
  for (;;) {
    beforeStep?.();
    const step = steps.next();
    if (step.done) return step.value;
    await setImmediate();
  }
}
