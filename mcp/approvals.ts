import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { GraphqlLink, WireResult } from './graphql-link.js';

const WATCH = `subscription BridgeApprovals { approvalRequests { state request {
  id operation risk reasons client { id } target { role name path } session { id windowTitle } } } }`;
const APPROVE =
  'mutation Approve($id: ID!, $scope: ApprovalScope) { approve(id: $id, scope: $scope) { status } }';
const DENY = 'mutation Deny($id: ID!, $reason: String) { deny(id: $id, reason: $reason) { status } }';
const VIEWER = '{ viewer { id } }';

const DECISIONS = ['approve once', 'approve for this session', 'deny'] as const;

export const APPROVAL_FORM: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    decision: { type: 'string', title: 'Decision', enum: [...DECISIONS] },
    reason: { type: 'string', title: 'Reason (told to the agent when you deny)' },
  },
  required: ['decision'],
};

interface PendingRequest {
  id: string;
  operation: string;
  risk: string;
  reasons: string[];
  client: { id: string };
  target: { role: string; name: string; path: string[] | null } | null;
  session: { id: string; windowTitle: string | null } | null;
}

export interface ApprovalWatchOptions {
  /** Carries the agent token: whose requests are this bridge's own. */
  readonly agent: GraphqlLink;
  /** Carries the approver token the bridge was given: how it watches and answers. */
  readonly approver: GraphqlLink;
  readonly elicit: (params: ElicitRequestFormParams) => Promise<ElicitResult>;
  readonly log: (line: string) => void;
}

/**
 * Trust model: whoever runs the bridge with an approver token is the approver. When the policy asks about
 * one of this bridge's own operations, the human at the MCP client is asked through elicitation (an
 * agent cannot answer an elicitation: the client shows it to its user) and the answer is sent as that
 * approver. Requests of other clients are left to their own approvers.
 */
export async function watchApprovals(options: ApprovalWatchOptions): Promise<() => void> {
  const viewer = await options.agent.execute(VIEWER);
  const agentId = viewer.data?.viewer?.id as string | undefined;
  if (!agentId) throw new Error(`the agent token was not accepted: ${viewer.errors?.[0]?.message ?? ''}`);
  const asked = new Set<string>();
  return options.approver.subscribe(
    WATCH,
    {},
    {
      next: (result: WireResult) => {
        const event = result.data?.approvalRequests;
        const request = event?.request as PendingRequest | undefined;
        if (event?.state !== 'PENDING' || !request || request.client.id !== agentId || asked.has(request.id))
          return;
        asked.add(request.id);
        void decide(request, options).catch((error: unknown) =>
          options.log(`approval ${request.id} was not answered: ${String(error)}`),
        );
      },
      error: (error) => options.log(`the approval watch ended: ${String(error)}`),
    },
  );
}

async function decide(request: PendingRequest, options: ApprovalWatchOptions): Promise<void> {
  const answer = await options.elicit({
    mode: 'form',
    message: describe(request),
    requestedSchema: APPROVAL_FORM,
  });
  // Dismissed: left pending, to time out or be answered by another approver.
  if (answer.action === 'cancel') return;
  const decision = answer.action === 'accept' ? String(answer.content?.decision ?? '') : 'deny';
  const reason =
    typeof answer.content?.reason === 'string' && answer.content.reason ? answer.content.reason : undefined;
  const sent =
    decision === 'deny'
      ? await options.approver.execute(DENY, {
          id: request.id,
          reason: reason ?? 'Denied in the MCP client.',
        })
      : await options.approver.execute(APPROVE, {
          id: request.id,
          scope: decision === 'approve for this session' ? 'SESSION' : 'ONCE',
        });
  if (sent.errors?.length) throw new Error(sent.errors.map((error) => error.message).join('; '));
}

function describe(request: PendingRequest): string {
  const target = request.target
    ? ` ${request.target.role} "${request.target.name}"${request.target.path?.length ? ` (${request.target.path.join(' > ')})` : ''}`
    : '';
  const where = request.session
    ? ` in session ${request.session.id} "${request.session.windowTitle ?? ''}"`
    : '';
  return `The agent asks to ${request.operation}${target}${where}. Risk ${request.risk}: ${request.reasons.join('; ')}. Approve?`;
}
