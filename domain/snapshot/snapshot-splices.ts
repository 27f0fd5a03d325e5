import type { RawSplice } from '../../transports/contract/window-driver.js';
import type { Snapshot } from './snapshot.js';

/**
 * How the ref store made a snapshot from the window's previous one: only `splices` of `base`'s nodes were
 * replaced, every other node is the very object `base` holds. The diff between the two then costs the
 * splices, not the page.
 */
export interface SnapshotSplices {
  readonly base: Snapshot;
  readonly splices: readonly RawSplice[];
}

const made = new WeakMap<Snapshot, SnapshotSplices>();

export function noteSplices(snapshot: Snapshot, splices: SnapshotSplices): void {
  made.set(snapshot, splices);
}

export function splicesOf(snapshot: Snapshot): SnapshotSplices | undefined {
  return made.get(snapshot);
}
