import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { RequestWatch, ResolvedNode, WindowDriver } from '../../transports/contract/window-driver.js';
import type { Session } from '../sessions/session.js';
import { toSnapshotNode } from '../snapshot/snapshot.js';
import { settle } from './settle.js';

export interface UnconfirmedContext {
  readonly session: Session;
  readonly windowId: string;
  readonly driver: WindowDriver;
  readonly located: ResolvedNode | null;
  /** The action's own requests, watched since just before it was performed. */
  readonly watch: RequestWatch;
  /** The action's timeout: the page gets as long again to finish what the action started. */
  readonly timeoutMs: number;
}

/**
 * An action that reached the page but was not confirmed may have done what it was sent to do, so the
 * agent is told what the page looks like now instead of being invited to retry: once the page has
 * finished what the action started (bounded as an action's settle is), the target is read back — role,
 * name, value, states — and the requests the action had started and were running when it timed out are
 * listed. Any other failure passes through unchanged.
 */
export async function withStateAfter(error: unknown, context: UnconfirmedContext): Promise<unknown> {
  if (!(error instanceof StagegraphError) || error.code !== 'ACTION_UNCONFIRMED') return error;
  const { session, windowId, driver, located, watch, timeoutMs } = context;
  const pendingRequests = watch.pending();
  await settle(driver, watch, timeoutMs);
  const target = located ? await readBack(session, windowId, driver, located, timeoutMs) : null;
  return new StagegraphError(error.code, error.message, {
    hint: error.hint,
    details: { ...error.details, target, pendingRequests },
    cause: error.cause,
  });
}

/** The target as it is now, by ref; null when it is gone or the page does not answer in time. */
async function readBack(
  session: Session,
  windowId: string,
  driver: WindowDriver,
  located: ResolvedNode,
  timeoutMs: number,
) {
  const ref = session.snapshots.refFor(windowId, located);
  const { documentId, node } = located;
  try {
    const now = await driver.locate({ spec: { kind: 'key', key: node.key, ref, documentId } }, timeoutMs);
    const { role, name, value, states } = toSnapshotNode(now.node, ref, null, []);
    return { ref, role, name, value, states };
  } catch {
    return null;
  }
}
