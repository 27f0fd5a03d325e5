import { errors } from 'playwright-core';
import { appErrorLine } from '../../errors/app-error-line.js';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { TransportError } from '../contract/transport-error.js';
import type { ExitInfo } from '../contract/transport-events.js';
import { ISOLATED_LAUNCHER } from '../process/isolation.js';
import { exitOfLaunchLog, plainLaunchLog, stderrOfLaunchLog } from './launched-app.js';

/** Lines of Playwright's launch log kept in a LAUNCH_FAILED error: enough to show the app's last words. */
const LAUNCH_LOG_LINES = 20;

const LAUNCH_NEXT_ACTIONS = ['query { transports { id capabilities { LAUNCH } } }'];

/** What is known of a launch when it fails: the app's exit, if it has exited, and its last stderr lines. */
export interface LaunchFacts {
  readonly executablePath: string;
  readonly timeoutMs: number;
  readonly exit?: ExitInfo | null;
  readonly stderr?: readonly string[];
}

/** The start-up deadline of a launch ran out while the session was being set up. */
export class StartTimeout extends Error {}

/**
 * Whatever ended a launch — Playwright's launcher, the app dying under it, the session's set-up (whose
 * protocol errors would otherwise reach the client as SESSION_NOT_RUNNING of a session it never got) — as
 * the registered code with the app's own reason: LAUNCH_TIMEOUT when it did not become drivable in time,
 * LAUNCH_FAILED otherwise, its message naming the app's error line (or exit) before Playwright's words.
 */
export function launchFailure(error: unknown, facts: LaunchFacts): StagegraphError {
  // The call log names the program Playwright spawned, which for an isolated app is the gateway's own
  // launcher script (a path into its code): the app's executable is what the caller launched.
  const message = (error instanceof Error ? error.message : String(error)).replaceAll(
    ISOLATED_LAUNCHER,
    facts.executablePath,
  );
  const log = plainLaunchLog(message).split('\n').slice(0, LAUNCH_LOG_LINES).join('\n');
  const stderr = facts.stderr?.length ? [...facts.stderr] : stderrOfLaunchLog(message);
  const exit = facts.exit ?? exitOfLaunchLog(message);
  const details = {
    executablePath: facts.executablePath,
    log,
    ...(exit ? { exit } : {}),
    ...(stderr.length ? { stderrTail: stderr.join('\n') } : {}),
  };
  const appError = appErrorLine(stderr);
  if (!appError && timedOut(error)) {
    return new StagegraphError(
      'LAUNCH_TIMEOUT',
      `The app did not become drivable within ${facts.timeoutMs} ms.`,
      {
        details,
        cause: error,
      },
    );
  }
  const exited = exit ? `The app exited (${exit.signal ?? `code ${exit.code}`}) during start-up` : '';
  const reason = appError ?? (exited ? '' : (log.split('\n')[0] ?? ''));
  return new StagegraphError(
    'LAUNCH_FAILED',
    exited ? `${exited}${reason ? `: ${reason}` : '.'}` : `The app failed to start: ${reason}`,
    {
      ...(stderr.length ? { hint: 'Read `details.stderrTail`: the app said why it did not start.' } : {}),
      details,
      nextActions: LAUNCH_NEXT_ACTIONS,
      cause: error,
    },
  );
}

function timedOut(error: unknown): boolean {
  return (
    error instanceof errors.TimeoutError ||
    error instanceof StartTimeout ||
    (error instanceof TransportError && error.kind === 'timeout')
  );
}
