import type { AuditEntry, AuditOutcome } from '../audit/audit-record.js';
import type { ApprovalResult } from './approvals/approval-request.js';
import type { Policy, PolicyVerdict } from './policy/policy.js';

/** How a governed call was decided and how it ended, as every audit record of one states it. */
export type AuditDecision = Pick<
  AuditEntry,
  'decision' | 'rule' | 'risk' | 'policySha256' | 'approval' | 'outcome' | 'errorCode' | 'durationMs'
>;

/** The record's decision part: the verdict, the policy file that gave it, the answer, the end, the time taken since `started` (performance.now()). */
export function auditDecision(
  verdict: PolicyVerdict,
  policy: Policy,
  approval: ApprovalResult | null,
  outcome: AuditOutcome,
  errorCode: string | null,
  started: number,
): AuditDecision {
  return {
    decision: verdict.decision,
    rule: verdict.rule,
    risk: verdict.risk,
    policySha256: policy.origin.sha256,
    approval,
    outcome,
    errorCode,
    durationMs: Math.round((performance.now() - started) * 1_000) / 1_000,
  };
}
