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
