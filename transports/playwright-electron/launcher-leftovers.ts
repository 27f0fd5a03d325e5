/** What Playwright's launcher rejects a stderr wait with when the app ends before the line it waits for. */
const LEFTOVER_MESSAGE = 'Process failed to launch!';
/** The launcher's function that makes those waits (coreBundle.js, server/electron/electron.ts). */
const LEFTOVER_FRAME = /^\s+at waitForLine \(.*playwright-core/m;

let observed = false;

/**
 * Playwright's Electron launcher starts four waits on the app's stderr at once — the X display's error, the
 * inspector's line, Chromium's line, the debugger's farewell — and awaits them one by one. When the app
 * ends before its inspector's line (an executable that is not Electron, an app that dies at once) or the
 * inspector's websocket fails, the launch fails on that first wait, and the waits for Chromium's line and
 * the X display reject when the app exits, with nobody awaiting them: unhandled rejections, which end a
 * Node process by default. They say nothing the failed launch did not. They are made inside the
 * launcher's own function, out of any caller's reach, so they are recognised where Node reports them: by
 * their message and the launcher's frame that made them.
 */
export function isLauncherLeftover(reason: unknown): boolean {
  return (
    reason instanceof Error && reason.message === LEFTOVER_MESSAGE && LEFTOVER_FRAME.test(reason.stack ?? '')
  );
}

/**
 * Observes the launcher's leftovers in whatever process runs this transport (the served gateway, a test
 * run, the MCP bridge's own gateway), once. Any other unhandled rejection is left as it was: to the other
 * listeners where there are some (the served gateway's guard), and thrown where this is the only one, as
 * Node itself does when none listens — one listener must not silence every rejection of the process.
 */
export function observeLauncherLeftovers(): void {
  if (observed) return;
  observed = true;
  process.on('unhandledRejection', (reason) => {
    if (isLauncherLeftover(reason)) return;
    if (process.listenerCount('unhandledRejection') === 1) throw reason;
  });
}
