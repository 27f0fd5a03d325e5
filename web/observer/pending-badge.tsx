import { useState } from 'preact/hooks';
import type { GatewayClient } from './gateway-client.js';
import { useSubscription } from './gateway-hooks.js';

const APPROVAL_REQUESTS = 'subscription PendingCount { approvalRequests { state request { id } } }';

interface ApprovalEvent {
  approvalRequests: { state: string; request: { id: string } };
}

/** The header's count of approvals waiting for an answer, kept live for approvers; also in the tab title. */
export function PendingBadge(props: { client: GatewayClient }) {
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  useSubscription<ApprovalEvent>(props.client, APPROVAL_REQUESTS, {}, ({ approvalRequests: event }) =>
    setPending((current) => {
      const next = new Set(current);
      if (event.state === 'PENDING') next.add(event.request.id);
      else next.delete(event.request.id);
      document.title = next.size > 0 ? `(${next.size}) Stagegraph observer` : 'Stagegraph observer';
      return next;
    }),
  );
  return (
    <a class={`badge${pending.size > 0 ? ' badge-pending' : ''}`} href="#/approvals">
      {pending.size} pending approval{pending.size === 1 ? '' : 's'}
    </a>
  );
}
