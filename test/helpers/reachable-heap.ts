import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// heapUsed counts garbage not yet collected; a memory bound must measure only what is still reachable.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * The process's memory usage counting only what is still reachable. A collection leaves dead buffers to a
 * background sweep, and `arrayBuffers` counts them until it ends: the flood test at load 10 read 26.1 MB of
 * buffers after one collection and 9.0 MB after a second, which first finishes the sweep of the one before.
 */
export function reachableUsage(): NodeJS.MemoryUsage {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage();
}

/** The heap this process still reaches. */
export function reachableHeap(): number {
  return reachableUsage().heapUsed;
}

/** The reachable heap plus the buffers outside it (a WebSocket send queue grows the latter). */
export function reachableMemory(): number {
  const { heapUsed, arrayBuffers } = reachableUsage();
  return heapUsed + arrayBuffers;
}

export const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
