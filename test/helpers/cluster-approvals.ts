import { LOSS_DEADLINE_MS } from './cluster-replicas.js';
import type { Subscription } from './gateway.js';
import type { Loose, LooseResponse } from './gateway-client.js';
import { AGENT_TOKEN, APPROVER_TOKEN } from './governed-gateway.js';

/** Long enough for the approver to answer at load 15; an ask nobody answers fails the test by timing out. */
export const APPROVAL_TIMEOUT_MS = 120_000;

/** What every replica of a governed cluster is started with: the agent and approver tokens, one policy. */
export function governedReplicaArguments(secret: string, policyFile: string): string[] {
  return [
    '--cluster-secret',
    secret,
    '--token',
    AGENT_TOKEN,
    '--approver-token',
    APPROVER_TOKEN,
    '--policy',
    policyFile,
    '--approval-timeout',
    String(APPROVAL_TIMEOUT_MS),
  ];
}

/**
 * Sends an operation that is asked about and resolves once its request is PENDING on `approvals` (an
 * `approvalRequests` subscription, on any replica), with the operation's answer still to come. The
 * replica learns of an approver on another through Redis; until it has, the operation fails at once with
 * APPROVAL_UNAVAILABLE and is sent again. `answered` keeps the requests already returned.
 */
export async function askUntilPending(
  send: () => Promise<LooseResponse>,
  approvals: Subscription<Loose>,
  answered: Set<string>,
): Promise<{ operation: Promise<LooseResponse>; request: Loose }> {
  const deadline = Date.now() + LOSS_DEADLINE_MS;
  const pending = approvals.waitFor(
    (event) => event.approvalRequests.state === 'PENDING' && !answered.has(event.approvalRequests.request.id),
    APPROVAL_TIMEOUT_MS,
  );
  // Observed here too: an operation that fails for another reason leaves it to time out unawaited.
  pending.catch(() => {});
  for (;;) {
    const operation = send();
    const first = await Promise.race([operation.then((response) => ({ response })), pending]);
    if (!('response' in first)) {
      const { request } = first.approvalRequests;
      answered.add(request.id);
      return { operation, request };
    }
    const code = first.response.errors?.[0]?.extensions?.code;
    if (!['APPROVAL_UNAVAILABLE', 'RATE_LIMITED'].includes(code) || Date.now() > deadline)
      throw new Error(`the operation was not asked about: ${JSON.stringify(first.response)}`);
    // Paced below the agent's rate limit (20 mutations a second).
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
