/** The audit trail as the observer reads it: the schema's AuditFilter, the records and their page. */

export type AuditOutcome = 'OK' | 'DENIED' | 'FAILED' | 'TIMED_OUT';
export type PolicyDecision = 'ALLOW' | 'ASK' | 'DENY';

/** AuditFilter as the schema takes it: absent fields match anything. */
export interface AuditFilter {
  sessionId?: string;
  clientId?: string;
  operations?: string[];
  outcomes?: AuditOutcome[];
  decisions?: PolicyDecision[];
  /** ISO date-times: records sealed at or after / at or before. */
  since?: string;
  until?: string;
}

export interface AuditRecord {
  /** In a cluster, the replica whose chain holds it: `seq` is that replica's. Null without a cluster. */
  replica: string | null;
  seq: number;
  time: string;
  operation: string;
  decision: PolicyDecision;
  outcome: AuditOutcome;
  risk: string;
  errorCode: string | null;
  durationMs: number;
  client: { id: string };
  rule: { id: string };
  session: { id: string } | null;
  target: { role: string; name: string } | null;
  approval: { status: string; decidedBy: string; scope: string | null } | null;
}

export interface Connection<E> {
  audit: {
    edges: E[];
    /** `endCursor` where the cursor walk asks for it, `trimmedBefore` where the page read does. */
    pageInfo: { endCursor?: string | null; hasNextPage: boolean; trimmedBefore?: number };
  };
}

/**
 * A record with its cursor: where it sits in the trail the view pages through, the `after` that reads on
 * from it.
 */
export interface PagedRecord extends AuditRecord {
  cursor: string;
}
