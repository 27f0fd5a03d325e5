import type { ClientIdentity } from '../clients/client-identity.js';
import type { ApprovalEvent, ApprovalRequest, ApprovalResult, ApprovalScope } from './approval-request.js';

/** An approver's answer, as `approve` and `deny` give it. */
export type ApprovalAnswer =
  | { readonly decision: 'APPROVED'; readonly scope: ApprovalScope }
  | { readonly decision: 'DENIED'; readonly reason: string | null };

/**
 * The other gateways a broker shares its approvals with (cluster mode, domain/cluster/cluster-approvals.ts):
 * their approvers make an ASK here wait, their pending requests are shown here, and every answer, wherever
 * it is given, is decided once among all of them.
 */
export interface ApprovalPeers {
  /** Approvers watching on the other gateways, as last counted. */
  approvers(): number;
  /** Requests pending on the other gateways, oldest first. */
  pending(): ApprovalRequest[];
  /** An event of a request asked here, for the other gateways' watchers. */
  published(event: ApprovalEvent): void;
  /** An approver here started watching: the others should know before its first answer is needed. */
  approversChanged(): void;
  /** Decides an answer among all gateways (first answer wins) and has the request's own gateway apply it. */
  answer(id: string, answer: ApprovalAnswer, client: ClientIdentity): Promise<ApprovalResult>;
}
