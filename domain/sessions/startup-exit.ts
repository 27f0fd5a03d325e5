import { appErrorLine } from '../../errors/app-error-line.js';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { TransportSession } from '../../transports/contract/transport-contract.js';
import { sessionActions } from './next-actions.js';
import type { Session } from './session.js';

/**
 * LAUNCH_FAILED for an app Stagegraph started that ended by itself before its launch answered (its main
 * threw, it quit at once), with its exit and the line of its stderr that says why; undefined for one that
 * is running, or was stopped meanwhile (a shutdown), which is answered as it is.
 */
export function endedDuringStartup(
  session: Session,
  transportSession: TransportSession,
): StagegraphError | undefined {
  const exit = session.exit;
  if (!exit || (session.status !== 'EXITED' && session.status !== 'CRASHED')) return undefined;
  const stderrTail = transportSession.stderrTail?.() ?? '';
  const reason = appErrorLine(stderrTail.split('\n'));
  return new StagegraphError(
    'LAUNCH_FAILED',
    `The app exited (${exit.signal ?? `code ${exit.code}`}) before its first window opened${reason ? `: ${reason}` : '.'}`,
    {
      ...(stderrTail ? { hint: 'Read `details.stderrTail`: the app said why it ended.' } : {}),
      nextActions: [sessionActions.transportsWith('LAUNCH')],
      details: { exit, ...(stderrTail ? { stderrTail } : {}) },
    },
  );
}
