import type { WindowDriver } from '../../transports/contract/window-driver.js';

/**
 * How long a listed window may go without a driver before a read or an action on it is refused: the main
 * process names a new window before its renderer is reached (an injected app's debugger relay attaches
 * it after), which is milliseconds on a quiet machine and has been seconds on a loaded one.
 */
export const WINDOW_DRIVER_WAIT_MS = 10_000;
const LOOK_EVERY_MS = 25;

/**
 * The window's driver as soon as its transport has one, or undefined once `timeoutMs` has passed or the
 * session has ended. The transport is asked again and again (a map lookup, no round trip), so the wait
 * needs no event of its own from every transport.
 */
export async function awaitWindowDriver(
  driverOf: () => WindowDriver | undefined,
  stillLive: () => boolean,
  timeoutMs = WINDOW_DRIVER_WAIT_MS,
): Promise<WindowDriver | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const driver = driverOf();
    if (driver || !stillLive() || Date.now() >= deadline) return driver;
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}
