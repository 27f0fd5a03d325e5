import type { Session } from '../sessions/session.js';
import { diff, quietDiff, type SnapshotDiff } from '../snapshot/diff.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { domQuiet } from './settle.js';

/** How long one wait for a DOM change lasts before the stream checks that its session still lives. */
export const CHANGE_WAIT_MS = 1_000;
/** A burst of DOM changes closer together than this is one change to an observer. */
export const CHANGE_DEBOUNCE_MS = 100;

export interface SnapshotChange {
  readonly windowId: string;
  readonly snapshot: Snapshot;
  readonly diff: SnapshotDiff;
}

export interface SnapshotChangesRequest {
  readonly window?: string | null;
  readonly interactiveOnly?: boolean | null;
  /** Leave out what the window changes on its own (self-changes.ts); a change of only that is not sent. */
  readonly quiet?: boolean;
  /** The subscriber shows boxes of added nodes. */
  readonly bounds?: boolean;
}

/**
 * A live stream of a window's diffs, driven by the page's own change events and debounced. It is pulled:
 * the next read happens only when the subscriber has taken the previous diff, so a slow observer gets
 * fewer, larger diffs (each against the last one it received) and costs no memory while it lags.
 */
export async function* snapshotChanges(
  session: Session,
  request: SnapshotChangesRequest,
): AsyncGenerator<SnapshotChange> {
  const { window, driver } = await session.window(request.window);
  const scope = {
    ...(request.interactiveOnly ? { interactiveOnly: true } : {}),
    bounds: request.bounds === true,
  };
  const read = () => session.snapshots.read(window.id, driver, scope);
  let previous = await read();
  let seen = await driver.nextChange(null, 0);
  while (session.isLive && session.hasWindow(window.id)) {
    const next = await driver.nextChange(seen, CHANGE_WAIT_MS);
    if (next === seen) continue;
    await domQuiet(driver, CHANGE_DEBOUNCE_MS);
    seen = await driver.nextChange(null, 0);
    const current = await read();
    const changes = request.quiet ? quietDiff(diff(previous, current)) : diff(previous, current);
    previous = current;
    if (changes.added.length + changes.removed.length + changes.changed.length > 0) {
      yield { windowId: window.id, snapshot: current, diff: changes };
    }
  }
}
