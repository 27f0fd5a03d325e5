import { createHash } from 'node:crypto';
import type { ApprovalResult } from '../governance/approvals/approval-request.js';
import type { ClientIdentity } from '../governance/clients/client-identity.js';
import type { RuleRef } from '../governance/policy/policy.js';
import type { Decision } from '../governance/policy/policy-spec.js';
import type { RiskTier } from '../governance/policy/risk.js';
import type { Redacted } from '../governance/redaction/redaction.js';
import type {
  JsonObject,
  OperationKind,
  SessionInfo,
  TargetInfo,
} from '../governance/request/governed-request.js';
import { canonicalJson } from './canonical-json.js';

/** The `prevHash` of the very first record: there is nothing before it. */
export const GENESIS_HASH = '0'.repeat(64);

export type AuditOutcome = 'ok' | 'denied' | 'failed' | 'timed-out';

export interface EvidenceHash {
  /** What was hashed, e.g. `element-screenshot`. */
  readonly kind: string;
  readonly sha256: string;
}

/**
 * What an action changed in its window, counted from the diff the agent read with it (`diff` selected);
 * counts only, so no text of the app reaches the log.
 */
export interface AuditEffect {
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  readonly documentReplaced: boolean;
}

/** What the chokepoint hands the log for one operation; values that could hold secrets must be redacted. */
export interface AuditEntry {
  readonly client: ClientIdentity;
  readonly operation: string;
  readonly kind: OperationKind;
  readonly arguments: Redacted<JsonObject>;
  readonly session: Redacted<SessionInfo> | null;
  readonly target: Redacted<TargetInfo> | null;
  /**
   * What the approver approved, when the target found again just before acting was no longer it (the
   * operation was refused with TARGET_CHANGED_AFTER_APPROVAL and `target` is what was found); else absent.
   */
  readonly approvedTarget?: Redacted<TargetInfo>;
  readonly decision: Decision;
  readonly rule: RuleRef;
  readonly risk: RiskTier;
  /** SHA-256 of the policy file that decided, null for the built-in policy. */
  readonly policySha256: string | null;
  readonly approval: ApprovalResult | null;
  readonly outcome: AuditOutcome;
  readonly errorCode: string | null;
  readonly durationMs: number;
  readonly evidence: readonly EvidenceHash[];
  /** Present only when the operation returned a diff; records written before it existed have none. */
  readonly effect?: AuditEffect;
}

/** One line of the log: the entry, its place in the chain, and the hash that seals it. */
export interface AuditRecord extends AuditEntry {
  readonly seq: number;
  /** ISO 8601. */
  readonly time: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** SHA-256 over the canonical JSON of the record without its own `hash`. */
export function hashRecord(record: Omit<AuditRecord, 'hash'> | AuditRecord): string {
  const { hash: _ignored, ...body } = record as AuditRecord;
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/**
 * Seals an entry into its record and the line to write. The body is serialised once: the line is the
 * canonical body with `hash` appended last, which parses to the same record (key order is irrelevant to
 * readers; only the hash input must be canonical).
 */
export function sealRecord(
  entry: AuditEntry,
  seq: number,
  time: Date,
  prevHash: string,
): { readonly record: AuditRecord; readonly line: string } {
  const body = { ...entry, seq, time: time.toISOString(), prevHash };
  const canonical = canonicalJson(body);
  const hash = createHash('sha256').update(canonical).digest('hex');
  return { record: { ...body, hash }, line: `${canonical.slice(0, -1)},"hash":"${hash}"}\n` };
}

/**
 * Seals entries in order after `seq` / `prevHash` while their lines fit in a file of `max` bytes that holds
 * `used`; at least one when the file is empty (one huge record gets a file of its own). None: rotate first.
 */
export function sealFitting(
  entries: readonly { readonly entry: AuditEntry; readonly time: Date }[],
  seq: number,
  prevHash: string,
  file: { readonly used: number; readonly max: number },
): { readonly record: AuditRecord; readonly line: Buffer }[] {
  const sealed: { record: AuditRecord; line: Buffer }[] = [];
  let bytes = file.used;
  let previous = { seq, hash: prevHash };
  for (const { entry, time } of entries) {
    const { record, line: text } = sealRecord(entry, previous.seq + 1, time, previous.hash);
    const line = Buffer.from(text);
    if (bytes + line.length > file.max && bytes > 0) break;
    sealed.push({ record, line });
    bytes += line.length;
    previous = record;
  }
  return sealed;
}
