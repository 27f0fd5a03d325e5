import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { OwnedProcess } from '../process/owned-process.js';
import { delay } from '../process/process-group.js';
import type { AtspiBus } from './bus/atspi-bus.js';
import { type RegisteredApp, registeredAppWhere, windowRefs } from './bus/registered-apps.js';

/** How often the registry is read while a launched app registers and opens its first window. */
const REGISTRY_POLL_MS = 100;

/**
 * Waits until the launched app has registered with the desktop's accessibility registry (found by the
 * process id behind its bus name) and shows a top-level window. LAUNCH_FAILED when it could not start,
 * LAUNCH_FAILED too when it ended first (with its stderr tail), LAUNCH_TIMEOUT when it never became accessible.
 */
export async function waitForLaunchedApp(
  bus: AtspiBus,
  app: OwnedProcess,
  timeoutMs: number,
): Promise<RegisteredApp> {
  const deadline = Date.now() + timeoutMs;
  let registered: RegisteredApp | undefined;
  for (;;) {
    if (app.hasExited()) throw await exitedError(app);
    registered ??= await registeredAppWhere(bus, (pid) => app.owns(pid));
    if (registered && (await windowRefs(bus, registered.ref).catch(() => [])).length > 0) return registered;
    if (Date.now() >= deadline) {
      throw new StagegraphError(
        'LAUNCH_TIMEOUT',
        registered
          ? `${app.executablePath} registered with the accessibility registry but showed no window within ${timeoutMs} ms.`
          : `${app.executablePath} did not register with the accessibility registry within ${timeoutMs} ms.`,
        {
          hint: 'Check the command opens a window on its own; a GTK app needs its accessibility bridge (do not set NO_AT_BRIDGE=1), a Qt app QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1. Raise timeoutMs if it is slow.',
          details: { command: app.executablePath, pid: app.pid, stderrTail: app.stderrTail() },
        },
      );
    }
    await Promise.race([delay(REGISTRY_POLL_MS), app.exited]);
  }
}

async function exitedError(app: OwnedProcess): Promise<StagegraphError> {
  const exit = await app.exited;
  if (app.spawnError) {
    return new StagegraphError(
      'LAUNCH_FAILED',
      `${app.executablePath} could not start: ${app.spawnError.message}.`,
      {
        hint: "Check `command` is an executable path, or a name on the server's PATH, and that `cwd` exists.",
        details: { command: app.executablePath },
      },
    );
  }
  return new StagegraphError(
    'LAUNCH_FAILED',
    `${app.executablePath} exited (${exit.signal ?? `code ${exit.code}`}) before it showed an accessible window.`,
    {
      hint: 'Read `details.stderrTail`; check the command runs by hand on this desktop.',
      details: { command: app.executablePath, exit, stderrTail: app.stderrTail() },
    },
  );
}
