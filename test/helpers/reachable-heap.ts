import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// heapUsed counts garbage not yet collected; a memory bound must measure only what is still reachable.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The heap this process still reaches, after a full garbage collection. */
export function reachableHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/**
 * The reachable heap plus the buffers outside it (a WebSocket send queue grows the latter). A collection
 * leaves dead buffers to a background sweep, and `arrayBuffers` counts them until it ends: the flood test at
 * load 10 read 26.1 MB of buffers after one collection and 9.0 MB after a second, which first finishes the
 * sweep of the one before.
 */
export function reachableMemory(): number {
  collectGarbage();
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

export const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
