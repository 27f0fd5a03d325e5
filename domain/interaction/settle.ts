import type { WindowDriver } from '../../transports/contract/window-driver.js';

/** A page that makes no DOM change for this long has finished reacting to an action. */
export const QUIET_MS = 80;
/** Pages that never go quiet (a ticking clock, an animation) are read after this much at most. */
export const SETTLE_MAX_MS = 1_000;

/**
 * Waits until the window's document has been free of changes for `quietMs`, or `maxMs` has passed, so
 * the effect of an action is read once it has happened rather than while it is happening.
 */
export async function settle(driver: WindowDriver, quietMs = QUIET_MS, maxMs = SETTLE_MAX_MS): Promise<void> {
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
