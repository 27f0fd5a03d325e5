import type { PendingRequest, RequestWatch, WindowDriver } from '../../transports/contract/window-driver.js';

/** A page that makes no DOM change for this long has finished reacting to an action. */
export const QUIET_MS = 80;
/** Pages that never go quiet (a ticking clock, an animation) are read after this much at most. */
export const SETTLE_MAX_MS = 1_000;

/** How an action's effect was waited for before it was read. */
export interface SettleReport {
  /** Requests (navigations included) the action started that finished or failed before the read. */
  readonly requestsFinished: number;
  /** Requests the action started that were still running when the wait gave up: their effect is not in the read. */
  readonly stillPending: readonly PendingRequest[];
  /** Milliseconds spent waiting, from the end of the action to the read. */
  readonly waitedMs: number;
}

/**
 * Waits until the action's effect has happened: the requests it started (those `watch` saw begin) have
 * finished, for at most `boundMs`, and then the document has gone quiet. A request that begins while the
 * page settles (a response handler's follow-up, or a start reported late, as CDP may after the click has
 * returned) is waited for in turn, within the same bound; what is still running at the bound is reported.
 */
export async function settle(
  driver: WindowDriver,
  watch: RequestWatch,
  boundMs: number,
): Promise<SettleReport> {
  const started = Date.now();
  const deadline = started + boundMs;
  for (;;) {
    await watch.idle(Math.max(0, deadline - Date.now()));
    await domQuiet(driver);
    if (watch.pending().length === 0 || Date.now() >= deadline) break;
  }
  return { requestsFinished: watch.finished, stillPending: watch.pending(), waitedMs: Date.now() - started };
}

/**
 * Waits until the window's document has been free of changes for `quietMs`, or `maxMs` has passed, so
 * the effect of an action is read once it has happened rather than while it is happening.
 */
export async function domQuiet(
  driver: WindowDriver,
  quietMs = QUIET_MS,
  maxMs = SETTLE_MAX_MS,
): Promise<void> {
  const deadline = Date.now() + maxMs;
  let seen = await driver.nextChange(null, 0);
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return;
    const next = await driver.nextChange(seen, Math.min(quietMs, remaining));
    if (next === seen) return;
    seen = next;
  }
}
