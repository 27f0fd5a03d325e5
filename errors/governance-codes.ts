import type { ErrorCodeInfo } from './error-code-info.js';

/**
 * The registry's codes of governance: the policy and its approvals, roles, rate limit, and the audit trail
 * every governed operation is recorded in. Part of ERROR_CODES (registry.ts), kept apart so that table stays
 * readable.
 */
export const GOVERNANCE_ERROR_CODES = {
  POLICY_DENIED: {
    meaning:
      'The active policy (or an approver, or its non-interactive auto-deny) refused this operation; the message names the rule.',
    retryable: false,
    hint: 'Ask `explainPolicy` why; change the operation or target, or have the policy owner add a rule that allows it.',
  },
  POLICY_INVALID: {
    meaning:
      'The policy file could not be read or failed validation; the message names the file, rule index and field.',
    retryable: false,
    hint: 'Fix the field named in the message; on a reload the previous policy stays active until the file is valid.',
  },
  APPROVAL_TIMEOUT: {
    meaning: 'The operation needed a human approval and no approver answered within the timeout.',
    retryable: true,
    hint: 'Ask an approver to watch `approvalRequests`, then send the operation again (or raise its approval timeout).',
  },
  APPROVAL_UNAVAILABLE: {
    meaning:
      'The operation needs a human approval but no approver is subscribed (non-interactive mode), too many are pending, or the server is stopping.',
    retryable: true,
    hint: 'Have an approver subscribe to `approvalRequests`, or set `nonInteractive: DENY` (or ALLOW, or FAIL) in the policy for unattended runs.',
  },
  TARGET_CHANGED_AFTER_APPROVAL: {
    meaning:
      'An approver approved the operation on the target the request showed, but when it was looked up again just before acting it was no longer that target (another element, or its role, accessible name, place among its ancestors or size had changed), so nothing was done. `details.approved` is what was approved, `details.found` what is there now and `details.changes` what differs.',
    // Sent again as it is, it would be asked about (or acted on) without the agent having seen the change.
    retryable: false,
    hint: 'Read the window again (nextActions) and decide whether the element there now is the one you mean; if it is, send the operation again, and it is put to the approver as it is now.',
  },
  APPROVAL_FORBIDDEN: {
    meaning: 'Only clients holding an approver token may see or answer approval requests.',
    retryable: false,
    hint: 'Connect with the approver token (STAGEGRAPH_APPROVER_TOKEN), not the agent token.',
  },
  ROLE_FORBIDDEN: {
    meaning:
      'The token the client presented has a role that may not do this: approver tokens answer approvals and read, they never act (an approver who acted could approve its own request); observer tokens only read and watch, and every mutation is refused for them.',
    retryable: false,
    hint: 'Act with an agent token (--token, STAGEGRAPH_TOKEN), or with no token on a loopback gateway that has no agent token; answer approvals with an approver token (--approver-token); an observer token (--observer-token) is for queries and subscriptions.',
  },
  REVEAL_FORBIDDEN: {
    meaning:
      'A read asked for values in clear (`reveal: true`) that this client may not see: only agent tokens (and the tokenless loopback client) may reveal, and only where the policy allows it (`reveal: AGENT`, the default; `reveal: NONE` allows no one). Approvers and observers read redacted values.',
    retryable: false,
    hint: 'Read again without `reveal` (values show as [redacted]); an agent that needs them in clear asks with its agent token, under a policy whose `reveal` is AGENT.',
  },
  ARTIFACT_FORBIDDEN: {
    meaning:
      "The artifact route keeps this file from this client: it holds what the app sent and printed in clear and cannot be redacted (a Playwright trace zip, a launched command's raw stdout.log and stderr.log, any file other than run.jsonl, screenshots/ and evidence/), so only an agent reads it, and only under a policy whose `reveal` is AGENT. Approvers and observers read run.jsonl scrubbed, screenshots and evidence.",
    retryable: false,
    hint: 'Read run.jsonl (the same output and console lines, secrets scrubbed), screenshots/ or evidence/ instead; an agent that needs the file asks with its agent token, under a policy whose `reveal` is AGENT.',
  },
  APPROVAL_NOT_FOUND: {
    meaning: 'No pending approval has that id: it was already answered, timed out, or never existed.',
    retryable: false,
    hint: 'List the open ones with `pendingApprovals { id operation }`.',
  },
  APPROVAL_ALREADY_ANSWERED: {
    meaning:
      'In cluster mode, another approver (on this or another replica) answered this approval request first; only the first answer counts. `details.decidedBy` names who answered and `details.state` how (APPROVED or DENIED).',
    retryable: false,
    hint: 'Nothing to do for this request; the `approvalRequests` stream shows how it was settled. List the open ones with `pendingApprovals { id operation }`.',
  },
  RATE_LIMITED: {
    meaning: 'This client sent more mutations than its rate limit allows.',
    retryable: true,
    hint: 'Wait `details.retryAfterMs` milliseconds, then send the operation again.',
  },
  AUDIT_BROKEN: {
    meaning:
      'The audit log cannot be continued or read: a record in it is corrupt, or records were removed from its file while the gateway wrote it, so governed operations are refused.',
    retryable: false,
    hint: 'Run verifyAudit on the audit directory to find the broken record, repair or move the log aside, and restart.',
  },
  AUDIT_FOLDER_IN_USE: {
    meaning:
      'Another gateway, still running, writes this audit folder; two writers would interleave their records and break the chain, so this one does not start.',
    retryable: false,
    hint: "Give this gateway its own folder with --audit-dir (or --artifacts, which holds the audit folder by default), or stop the other one. A claim of a gateway on another host is not checked: remove the folder's audit.lock by hand once that gateway is gone.",
  },
  AUDIT_UNAVAILABLE: {
    meaning:
      'The audit folder cannot be written now (disk full, read-only filesystem, immutable file), so the operation was refused before it acted: nothing was done. `details.errno` says why and `details.dir` names the folder.',
    retryable: true,
    hint: 'Free disk space on the filesystem of the audit folder or make it writable again (the message names it); the gateway tries it again every second and on each operation, then accepts operations again.',
  },
  AUDIT_UNRECORDED: {
    meaning:
      'The operation ran, but its audit record could not be written: the audit folder became unwritable while it acted. The record is held in memory and written first, in order, once the folder can be written (it is lost if the gateway stops first). `details.outcome` and `details.errorCode` say how the operation itself ended.',
    // It acted: sending it again would act twice.
    retryable: false,
    hint: 'Do not send it again: read the session to see what it did. Free disk space or make the audit folder writable (the message names it); later operations are refused with AUDIT_UNAVAILABLE until then.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;
