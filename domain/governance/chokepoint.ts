import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { AuditEffect, AuditOutcome, EvidenceHash } from '../audit/audit-record.js';
import type { PreviewedTarget } from '../interaction/handover.js';
import { PreviewOutdated } from '../interaction/preview-outdated.js';
import type { ApprovalResult, ApprovalScreenshot } from './approvals/approval-request.js';
import { askCounted } from './approvals/counted-ask.js';
import { auditDecision } from './audit-decision.js';
import type { ClientIdentity } from './clients/client-identity.js';
import { coordinateRuleHint } from './coordinate-rule-hint.js';
import { effectOf } from './effect-summary.js';
import type { Governance } from './governance.js';
import { NOT_ON_OWN_PAGES_RULE } from './own-pages/own-pages.js';
import { type PolicyVerdict, policyDeniedError } from './policy/policy.js';
import {
  changedAtDispatch,
  recheckApproved,
  targetChangedError,
  withAncestry,
} from './preview/approved-target.js';
import { elementScreenshot, type OperationPreview, previewOperation } from './preview/target-preview.js';
import type { ArgumentDisclosure, Redacted } from './redaction/redaction.js';
import { type GovernedOperation, markedSecret, previewRequestOf } from './request/governed-operation.js';
import type { GovernedRequest, JsonObject, TargetInfo } from './request/governed-request.js';

/** One mutation as the schema hands it to the chokepoint. */
export interface MutationCall {
  /** What its field declares: the arguments naming its session, window and target, and its risk inputs. */
  readonly operation: GovernedOperation;
  readonly client: ClientIdentity;
  /** The coerced GraphQL arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Which of its arguments the audit and approvers may see in clear; the rest is redacted. */
  readonly disclosure: ArgumentDisclosure;
  /** Aborted when the client that sent it is gone: an approval it waits for is withdrawn. */
  readonly abandoned?: AbortSignal | undefined;
}

/** How an answer to an approval is recorded: outside the policy, by construction. */
const APPROVER_ANSWER: PolicyVerdict = {
  decision: 'ALLOW',
  rule: {
    id: 'built-in:approver-answer',
    index: null,
    description: 'answers to approval requests are not put to the policy; only approvers may give them',
  },
  risk: 'LOW',
  reasons: ['approvers answer approval requests'],
  nonInteractive: 'FAIL',
};

/**
 * Approver tokens answer approvals and never act: an approver who could click would approve its own
 * request, and the two-person rule an approver token stands for would be gone.
 */
const APPROVERS_DO_NOT_ACT: PolicyVerdict = {
  decision: 'DENY',
  rule: {
    id: 'built-in:approvers-do-not-act',
    index: null,
    description: 'approver tokens answer approval requests; only agent tokens act',
  },
  risk: 'LOW',
  reasons: ['an approver token may not act'],
  nonInteractive: 'FAIL',
};

/**
 * Observer tokens watch: sessions, streams, the audit and the approval queue. Every mutation is refused,
 * approve and deny among them, so a leaked dashboard token cannot change anything.
 */
const OBSERVERS_ONLY_READ: PolicyVerdict = {
  decision: 'DENY',
  rule: {
    id: 'built-in:observers-only-read',
    index: null,
    description: 'observer tokens read and watch; they never act or answer approvals',
  },
  risk: 'LOW',
  reasons: ['an observer token may not run mutations'],
  nonInteractive: 'FAIL',
};

/** See OwnPages: acting on the gateway's own pages could answer approvals around the approver. */
const NOT_ON_OWN_PAGES: PolicyVerdict = {
  decision: 'DENY',
  rule: NOT_ON_OWN_PAGES_RULE,
  risk: 'CRITICAL',
  reasons: ["the window is one of this gateway's own pages"],
  nonInteractive: 'FAIL',
};

const NO_PREVIEW: OperationPreview = { session: null, target: null, element: null };

/**
 * The one path every mutation takes: rate limit, target preview, policy, approval when asked, the
 * mutation itself, and an audit record on every outcome. A mutation that cannot be recorded fails.
 */
export function governMutation<T>(
  governance: Governance,
  call: MutationCall,
  run: MutationRun<T>,
): Promise<T> {
  return governance.track(governed(governance, call, run));
}

/** Runs the mutation, given the target the chokepoint resolved when it may be reused as it is. */
export type MutationRun<T> = (previewed: PreviewedTarget | null) => Promise<T> | T;

/** `fresh`: the second pass after the first one's preview proved outdated (PreviewOutdated). */
async function governed<T>(
  governance: Governance,
  call: MutationCall,
  run: MutationRun<T>,
  fresh = false,
): Promise<T> {
  const started = performance.now();
  const { operation } = call;
  const { audit, broker, redactor } = governance;
  // Before anything acts: an operation whose record cannot be written must not act (AUDIT_UNAVAILABLE).
  await audit.ready();
  // Refused floods are not recorded: a client could otherwise grow the log at wire speed.
  if (!fresh) governance.limiter.take(call.client.id);
  const policy = governance.policy;
  const args = plainJson(call.args);
  const observer = call.client.role === 'observer';
  const where = { ...previewRequestOf(operation, args), fresh };
  // An observer's mutation is refused whatever it names, so nothing of the app is read for it.
  const previewed =
    operation.answersApproval || observer ? NO_PREVIEW : await previewOperation(governance.sessions, where);
  const request: GovernedRequest = {
    operation: operation.name,
    kind: 'mutation',
    args,
    session: previewed.session,
    target: previewed.target,
  };
  const verdict = observer
    ? OBSERVERS_ONLY_READ
    : operation.answersApproval
      ? APPROVER_ANSWER
      : call.client.role === 'approver'
        ? APPROVERS_DO_NOT_ACT
        : governance.ownPages.holds(previewed.session?.windowUrl)
          ? NOT_ON_OWN_PAGES
          : policy.evaluate(request);
  // Put to a person: the element's place among its ancestors is shown too, and compared after the answer.
  const preview = verdict.decision === 'ASK' ? await withAncestry(previewed) : previewed;
  // Redacted once; the approval request and the audit record share this copy.
  const shown = {
    args: redactor.redact(args, {
      operation: operation.name,
      target: preview.target,
      secret: markedSecret(operation, args),
      disclosure: call.disclosure,
    }),
    session: redactor.redact(preview.session),
    target: redactor.redact(preview.target),
  };
  const evidence: EvidenceHash[] = [];
  let approval: ApprovalResult | null = null;
  /** What is recorded as acted on: the approved target found again, once it was. */
  let actedOn = shown.target;
  /** Recorded beside it only when the two differ and the operation was refused. */
  let approvedTarget: Redacted<TargetInfo> | null = null;
  /** The element to act on as it is, when the chokepoint's own resolution of it may be reused. */
  let handover = verdict.decision === 'ALLOW' ? preview.element : null;
  /** Set once the mutation runs: from then on an unwritten record means a done but unrecorded operation. */
  let acted = false;
  const record = async (
    outcome: AuditOutcome,
    errorCode: string | null,
    effect?: AuditEffect,
  ): Promise<void> => {
    noteInRunLog(governance, preview.session?.id, operation.name, outcome, errorCode, actedOn, started);
    try {
      await audit.append({
        client: call.client,
        operation: operation.name,
        kind: 'mutation',
        arguments: shown.args,
        session: shown.session,
        target: actedOn,
        ...(approvedTarget ? { approvedTarget } : {}),
        ...auditDecision(verdict, policy, approval, outcome, errorCode, started),
        evidence,
        ...(effect ? { effect } : {}),
      });
    } catch (error) {
      if (acted) throw unrecordedError(operation.name, outcome, errorCode, error);
      throw error instanceof StagegraphError
        ? error
        : new StagegraphError('AUDIT_BROKEN', 'The audit record could not be written.', { cause: error });
    }
  };

  if (verdict === OBSERVERS_ONLY_READ) {
    await record('denied', 'ROLE_FORBIDDEN');
    throw new StagegraphError(
      'ROLE_FORBIDDEN',
      `Client ${call.client.id} holds an observer token, which reads and watches and may not ${operation.name}.`,
    );
  }
  if (verdict === APPROVERS_DO_NOT_ACT) {
    await record('denied', 'ROLE_FORBIDDEN');
    throw new StagegraphError(
      'ROLE_FORBIDDEN',
      `Client ${call.client.id} holds an approver token, which answers approvals and may not ${operation.name}.`,
    );
  }
  if (verdict.decision === 'DENY') {
    await record('denied', 'POLICY_DENIED');
    throw policyDeniedError(operation.name, verdict, undefined, coordinateRuleHint(request, verdict));
  }
  if (verdict.decision === 'ASK') {
    governance.forgetEndedSessions();
    // Only worth taking when someone is watching to see it; the ask does not wait for it.
    const screenshot = broker.approverCount > 0 ? elementScreenshot(preview) : Promise.resolve(null);
    const evidenced = screenshot.then(async (taken) => {
      if (!taken) return;
      evidence.push({ kind: 'element-screenshot', sha256: taken.sha256 });
      await keepEvidence(governance, preview.session?.id, taken);
    });
    try {
      approval = await askCounted(
        governance,
        preview.session?.id,
        {
          client: call.client,
          operation: operation.name,
          session: shown.session,
          target: shown.target,
          args: shown.args,
          risk: verdict.risk,
          rule: verdict.rule,
          reasons: verdict.reasons,
          nonInteractive: verdict.nonInteractive,
          screenshot,
        },
        call.abandoned,
      );
    } catch (error) {
      await evidenced;
      const code = codeOf(error);
      await record(code === 'APPROVAL_TIMEOUT' ? 'timed-out' : 'failed', code);
      throw error;
    }
    await evidenced;
    if (approval.status === 'DENIED') {
      await record('denied', 'POLICY_DENIED');
      throw policyDeniedError(operation.name, verdict, approval);
    }
    // The answer took a person's seconds (or a SESSION grant's instant on an earlier look): the page may
    // have swapped what the approver saw. It is found again and acted on only as the one approved.
    const recheck = await recheckApproved(governance.sessions, where, preview);
    if (recheck && shown.target) {
      actedOn = redactor.redact(recheck.preview.target);
      if (recheck.changes.length > 0) {
        approvedTarget = shown.target;
        await record('denied', 'TARGET_CHANGED_AFTER_APPROVAL');
        const sessionId = preview.session?.id ?? null;
        throw targetChangedError(operation.name, sessionId, shown.target, actedOn, recheck.changes);
      }
      handover = recheck.preview.element;
    }
  }
  // Again just before acting: the preview and an approval may have waited long enough for the folder to fail.
  await audit.ready();
  let result: T;
  try {
    // Reused when nothing waited in between, or when it was found again after the answer and unchanged.
    acted = true;
    result = await run(handover);
  } catch (error) {
    // What was decided on had changed by the time the operation checked it, and nothing was done: decide
    // again on what is there now. Only the decision made on what was acted on is recorded.
    if (error instanceof PreviewOutdated && !fresh) return governed(governance, call, run, true);
    // Relabelled between the last look and the input reaching it: the transport stopped the input there.
    const changed = shown.target && actedOn ? changedAtDispatch(error, actedOn) : null;
    if (changed && shown.target) {
      approvedTarget = shown.target;
      actedOn = redactor.redact(changed.target);
      await record('denied', 'TARGET_CHANGED_AFTER_APPROVAL');
      const sessionId = preview.session?.id ?? null;
      const { changes, delivered } = changed;
      throw targetChangedError(operation.name, sessionId, shown.target, actedOn, changes, delivered);
    }
    await record('failed', codeOf(error));
    throw error;
  }
  await record('ok', null, effectOf(result));
  return result;
}

/**
 * The approver's screenshot, kept in the session's artifacts under its hash so the step trace can show it
 * later; the audit keeps only the hash. Losing it (a full disk) costs the picture, never the operation.
 */
async function keepEvidence(
  governance: Governance,
  sessionId: string | undefined,
  taken: ApprovalScreenshot,
): Promise<void> {
  const folder = sessionId ? governance.sessions.find(sessionId)?.artifacts : undefined;
  if (!folder) return;
  const extension = taken.mimeType === 'image/jpeg' ? 'jpg' : 'png';
  await folder.saveEvidence(taken.sha256, extension, Buffer.from(taken.base64, 'base64')).catch(() => {});
}

/** Stagegraph's own doings in the session's run log, beside the app's output and console. */
function noteInRunLog(
  governance: Governance,
  sessionId: string | undefined,
  operation: string,
  outcome: AuditOutcome,
  errorCode: string | null,
  target: TargetInfo | null,
  started: number,
): void {
  const runLog = sessionId ? governance.sessions.find(sessionId)?.runLog : undefined;
  if (!runLog) return;
  const on = target ? ` on ${target.role} "${target.name}"` : '';
  const ms = Math.round(performance.now() - started);
  runLog.stagegraph(
    `${operation}${on}: ${outcome}${errorCode ? ` (${errorCode})` : ''} in ${ms} ms`,
    outcome === 'ok' ? 'info' : 'warn',
  );
}

/**
 * The mutation ran, so it must not be sent again; the log holds its record and writes it first once the
 * folder can be written.
 */
function unrecordedError(
  operation: string,
  outcome: AuditOutcome,
  errorCode: string | null,
  cause: unknown,
): StagegraphError {
  const ended = errorCode ? `${outcome}, ${errorCode}` : outcome;
  const why = cause instanceof Error ? cause.message : String(cause);
  return new StagegraphError(
    'AUDIT_UNRECORDED',
    `${operation} ran (${ended}) but its audit record could not be written: ${why}`,
    { cause, details: { outcome, errorCode } },
  );
}

function codeOf(error: unknown): string {
  return error instanceof StagegraphError ? error.code : 'INTERNAL';
}

/**
 * Coerced GraphQL arguments are null-prototype objects and may hold Dates: the policy matches, and the
 * audit hashes, their plain JSON form.
 */
export function plainJson(args: Readonly<Record<string, unknown>>): JsonObject {
  return JSON.parse(JSON.stringify(args)) as JsonObject;
}
