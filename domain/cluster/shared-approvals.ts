import type { ErrorCode } from '../../errors/registry.js';
import type { ApprovalAnswer } from '../governance/approvals/approval-peers.js';
import type {
  ApprovalRequest,
  ApprovalResult,
  ApprovalState,
} from '../governance/approvals/approval-request.js';
import type { ClientIdentity } from '../governance/clients/client-identity.js';

/** A request as every replica sees it: the broker's, its times as text, without its screenshot. */
export type SharedRequest = Omit<ApprovalRequest, 'createdAt' | 'expiresAt' | 'screenshot' | 'replicaId'> & {
  readonly createdAt: string;
  readonly expiresAt: string;
};

/** A request pending on its owner replica, in the boot that asked it. */
export interface SharedApproval {
  readonly replicaId: string;
  readonly epoch: number;
  readonly request: SharedRequest;
}

/** One change to a request, as its owner tells every replica. */
export interface SharedEvent {
  readonly replicaId: string;
  readonly state: ApprovalState;
  readonly request: SharedRequest;
  readonly decidedBy: string | null;
  readonly reason: string | null;
}

/** An answer given on `relayedBy` for the request `id`, by `client`. */
export interface RelayedAnswer {
  readonly id: string;
  readonly answer: ApprovalAnswer;
  readonly client: ClientIdentity;
  readonly relayedBy: string;
}

/** How the owner applied an answer: the result its broker gave, or the code it refused it with. */
export type AnswerOutcome =
  | { readonly ok: true; readonly result: ApprovalResult }
  | { readonly ok: false; readonly code: ErrorCode; readonly message: string };

/**
 * CLAIMED: this answer is the first and goes to `owner`. ANSWERED: another came first. LOST: the owner's
 * boot lost its lease, so nothing waits on it any more. NOT_FOUND: no such request is pending anywhere.
 */
export type Claim =
  | { readonly kind: 'CLAIMED'; readonly owner: string; readonly epoch: number }
  | { readonly kind: 'ANSWERED'; readonly by: RelayedAnswer }
  | { readonly kind: 'LOST'; readonly owner: string }
  | { readonly kind: 'NOT_FOUND' };

/** Where the owner is with a claimed answer. */
export type Confirmation =
  | { readonly kind: 'DONE'; readonly outcome: AnswerOutcome }
  | { readonly kind: 'WAITING' }
  | { readonly kind: 'LOST'; readonly owner: string };

/**
 * What every replica hears at once: an answer for its owner, or a change in approvers watching. (The
 * requests' events travel on the cluster's approval stream, which a replica can read again after a gap.)
 */
export type ApprovalMessage =
  | { readonly kind: 'answered'; readonly id: string; readonly owner: string }
  | { readonly kind: 'approvers' };

/**
 * The approvals every replica shares, one atomic step per method: the port domain/cluster/cluster-approvals.ts
 * speaks, implemented over Redis by server/redis-approval-store.ts. Each method rejects with
 * CLUSTER_UNAVAILABLE when the store cannot be reached in time; none waits without a deadline.
 */
export interface SharedApprovalStore {
  /** Lists a request pending here. */
  share(entry: SharedApproval): Promise<void>;
  /** Unlists a request settled here. */
  withdraw(id: string): Promise<void>;
  /** Every request pending on a live replica; those of replicas that lost their lease are dropped as LOST. */
  pending(): Promise<SharedApproval[]>;
  /** The first answer to a request wins, atomically; the owner is told unless it is the one answering. */
  claim(answer: RelayedAnswer): Promise<Claim>;
  /** The answer claimed for a request, for its owner to apply; null when none was. */
  claimed(id: string): Promise<RelayedAnswer | null>;
  /** The owner's outcome of a claimed answer; only the first one written counts. */
  reply(id: string, outcome: AnswerOutcome): Promise<void>;
  confirmation(id: string): Promise<Confirmation>;
  /**
   * Records how many approvers watch on `replicaId` (held for `ttlMs`), and answers how many watch on the
   * others; `announce` tells every replica to count again.
   */
  countApprovers(replicaId: string, count: number, ttlMs: number, announce: boolean): Promise<number>;
  /** Calls `listener` for every message from now until `close`. */
  listen(listener: (message: ApprovalMessage) => void): Promise<void>;
  close(): Promise<void>;
}
