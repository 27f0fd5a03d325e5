import { countApproval } from '../../sessions/session-figures.js';
import type { Governance } from '../governance.js';
import type { ApprovalAsk, ApprovalResult } from './approval-request.js';

/**
 * Asks the broker, and counts the ask and its answer in the figures of the session it concerns; an ask
 * that ends in an error (timed out, cancelled, no approver) counts as asked and nothing more.
 */
export async function askCounted(
  governance: Governance,
  sessionId: string | undefined,
  ask: ApprovalAsk,
  signal: AbortSignal | undefined,
): Promise<ApprovalResult> {
  const session = sessionId ? governance.sessions.find(sessionId) : undefined;
  let answer: ApprovalResult['status'] | null = null;
  try {
    const approval = await governance.broker.request(ask, governance.approvalTimeoutMs, signal);
    answer = approval.status;
    return approval;
  } finally {
    if (session) countApproval(session, answer);
  }
}
