import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { WindowInfo } from '../../transports/contract/transport-events.js';
import type { AuditOutcome } from '../audit/audit-record.js';
import type { ApprovalResult } from './approvals/approval-request.js';
import { askCounted } from './approvals/counted-ask.js';
import { auditDecision } from './audit-decision.js';
import { plainJson } from './chokepoint.js';
import type { ClientIdentity } from './clients/client-identity.js';
import type { Governance } from './governance.js';
import { policyDeniedError } from './policy/policy.js';
import { previewOperation } from './preview/target-preview.js';
import type { GovernedRequest } from './request/governed-request.js';

/** A read that is itself governed: the screen may hold what no structure read would show. */
export interface GovernedReadCall {
  /** The field's name, e.g. `textIndex`: what policy rules match in `operation`. */
  readonly operation: string;
  readonly client: ClientIdentity;
  readonly sessionId: string;
  readonly windowId: string;
  /** The window as the operation described it moments ago (a `Window` object's title and URL). */
  readonly described?: WindowInfo;
  /** The field's arguments, recorded (redacted) in the audit and matched by `args` rules. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly abandoned?: AbortSignal | undefined;
}

/**
 * Puts a read to the policy (kind `query`, scored LOW unless a rule says otherwise), asks an approver
 * when a rule says ASK, and records every outcome in the audit. Reads are not rate-limited as mutations
 * are: they change nothing, and this one is bounded by its own engine's time.
 */
export async function governRead<T>(
  governance: Governance,
  call: GovernedReadCall,
  run: () => Promise<T>,
): Promise<T> {
  return governance.track(governed(governance, call, run));
}

async function governed<T>(
  governance: Governance,
  call: GovernedReadCall,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const { audit, redactor } = governance;
  await audit.ready();
  const policy = governance.policy;
  const args = plainJson(call.args);
  const preview = await previewOperation(governance.sessions, {
    actsOnSession: true,
    sessionId: call.sessionId,
    window: call.windowId,
    described: call.described ?? null,
  });
  const request: GovernedRequest = {
    operation: call.operation,
    kind: 'query',
    args,
    session: preview.session,
    target: null,
  };
  const verdict = policy.evaluate(request);
  const shown = { args: redactor.redact(args), session: redactor.redact(preview.session) };
  let approval: ApprovalResult | null = null;
  const record = (outcome: AuditOutcome, errorCode: string | null) =>
    audit.append({
      client: call.client,
      operation: call.operation,
      kind: 'query',
      arguments: shown.args,
      session: shown.session,
      target: null,
      ...auditDecision(verdict, policy, approval, outcome, errorCode, started),
      evidence: [],
    });
  if (verdict.decision === 'DENY') {
    await record('denied', 'POLICY_DENIED');
    throw policyDeniedError(call.operation, verdict);
  }
  if (verdict.decision === 'ASK') {
    try {
      approval = await askCounted(
        governance,
        call.sessionId,
        {
          client: call.client,
          operation: call.operation,
          session: shown.session,
          target: null,
          args: shown.args,
          risk: verdict.risk,
          rule: verdict.rule,
          reasons: verdict.reasons,
          nonInteractive: verdict.nonInteractive,
          screenshot: Promise.resolve(null),
        },
        call.abandoned,
      );
    } catch (error) {
      const code = error instanceof StagegraphError ? error.code : 'INTERNAL';
      await record(code === 'APPROVAL_TIMEOUT' ? 'timed-out' : 'failed', code);
      throw error;
    }
    if (approval.status === 'DENIED') {
      await record('denied', 'POLICY_DENIED');
      throw policyDeniedError(call.operation, verdict, approval);
    }
  }
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await record('failed', error instanceof StagegraphError ? error.code : 'INTERNAL');
    throw error;
  }
  await record('ok', null);
  return result;
}
