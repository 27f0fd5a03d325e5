import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Set from here, so a bench's command needs no `node --expose-gc`: `gc` appears in contexts made after it.
setFlagsFromString('--expose-gc');

/** A full garbage collection on demand, for memory figures that count only what is reachable. */
export const collectGarbage = runInNewContext('gc') as () => void;
