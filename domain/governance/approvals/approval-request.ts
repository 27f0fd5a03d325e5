import type { ClientIdentity } from '../clients/client-identity.js';
import type { RuleRef } from '../policy/policy.js';
import type { NonInteractiveMode } from '../policy/policy-spec.js';
import type { RiskTier } from '../policy/risk.js';
import type { Redacted } from '../redaction/redaction.js';
import type { JsonObject, SessionInfo, TargetInfo } from '../request/governed-request.js';

export type ApprovalScope = 'ONCE' | 'SESSION' | 'APP';
export type ApprovalState = 'PENDING' | 'APPROVED' | 'DENIED' | 'TIMED_OUT' | 'CANCELLED';

/** What the chokepoint asks about; arguments and target are redacted before they get here. */
export interface ApprovalAsk {
  readonly client: ClientIdentity;
  readonly operation: string;
  readonly session: SessionInfo | null;
  readonly target: Redacted<TargetInfo> | null;
  readonly args: Redacted<JsonObject>;
  readonly risk: RiskTier;
  readonly rule: RuleRef;
  readonly reasons: readonly string[];
  readonly nonInteractive: NonInteractiveMode;
  /**
   * An element screenshot for the approver, while or once the chokepoint takes it: the request goes out at
   * once, and its `screenshot` field answers when the capture has ended (null when none was taken).
   */
  readonly screenshot: Promise<ApprovalScreenshot | null>;
}

export interface ApprovalScreenshot {
  readonly mimeType: string;
  readonly base64: string;
  readonly sha256: string;
}

/** What approvers see, in `pendingApprovals` and on the stream. */
export interface ApprovalRequest extends Omit<ApprovalAsk, 'nonInteractive'> {
  readonly id: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** In cluster mode, set on a request another replica asked: the replica whose operation waits. */
  readonly replicaId?: string;
}

export interface ApprovalEvent {
  readonly state: ApprovalState;
  readonly request: ApprovalRequest;
  /** Who answered, and why, once the state is no longer PENDING. */
  readonly decidedBy: string | null;
  readonly reason: string | null;
}

/** How an ASK was settled; the chokepoint proceeds on APPROVED and raises POLICY_DENIED on DENIED. */
export interface ApprovalResult {
  readonly status: 'APPROVED' | 'DENIED';
  readonly requestId: string | null;
  readonly scope: ApprovalScope | null;
  /** An approver's id, `session-grant`, `app-grant`, `auto-allow` or `auto-deny`. */
  readonly decidedBy: string;
  readonly reason: string | null;
  readonly waitedMs: number;
}
