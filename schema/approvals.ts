import { approvalFeed } from '../domain/cluster/approval-stream.js';
import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  MAX_APPROVAL_TIMEOUT_MS,
} from '../domain/governance/approvals/approval-broker.js';
import type {
  ApprovalEvent,
  ApprovalRequest,
  ApprovalResult,
  ApprovalScope,
  ApprovalScreenshot,
  ApprovalState,
} from '../domain/governance/approvals/approval-request.js';
import {
  APPROVAL_SCREENSHOT_WAIT_MS,
  MAX_APPROVAL_SCREENSHOT_BYTES,
} from '../domain/governance/preview/target-preview.js';
import { builder } from './builder.js';
import { ClientRef } from './client.js';
import { clientOf, governanceOf } from './context.js';
import { GovernedSessionRef, GovernedTargetRef, RiskTierEnum, RuleRefRef } from './policy.js';

const ScopeEnum = builder.enumType('ApprovalScope', {
  description: 'How far an approval reaches.',
  values: {
    ONCE: { value: 'ONCE', description: 'This request only.' },
    SESSION: {
      value: 'SESSION',
      description:
        'This and later identical requests (same session, operation, target and rule) until the session ends or the policy is reloaded. The same target means the same kind, role, name, path and window: approving "Delete All Notes" does not approve "Delete Account". An operation on no session (launch) is approved once only.',
    },
    APP: {
      value: 'APP',
      description:
        'This and later identical requests (same operation, target and rule) from every session of the same app — the same app name, executable and main; for a desktop app its name on the accessibility bus and its command — until the policy is reloaded or the gateway restarts. The same target means the same kind, role, name and path, in any window. Never reaches another app; an operation on no session (launch) is approved once only.',
    },
  } as const satisfies Record<string, { value: ApprovalScope; description: string }>,
});

const StateEnum = builder.enumType('ApprovalState', {
  description: 'Where an approval request stands.',
  values: {
    PENDING: {
      value: 'PENDING',
      description: 'Waiting for an approver: answer with approve or deny before `expiresAt`.',
    },
    APPROVED: { value: 'APPROVED', description: 'An approver let it go ahead; the operation now runs.' },
    DENIED: {
      value: 'DENIED',
      description: 'An approver refused it; the operation fails with POLICY_DENIED.',
    },
    TIMED_OUT: {
      value: 'TIMED_OUT',
      description: 'No answer by `expiresAt`; the operation failed with APPROVAL_TIMEOUT.',
    },
    CANCELLED: {
      value: 'CANCELLED',
      description:
        'Withdrawn unanswered: the client that sent the operation disconnected (its WebSocket closed or its HTTP request was cut off), or the server is stopping; `reason` says which. The operation failed with APPROVAL_UNAVAILABLE and did not run.',
    },
  } as const satisfies Record<ApprovalState, { value: ApprovalState; description: string }>,
});

const ScreenshotRef = builder.objectRef<ApprovalScreenshot>('ApprovalScreenshot').implement({
  description: 'The element as it looked when the approval was asked.',
  fields: (t) => ({
    mimeType: t.exposeString('mimeType', { description: '`image/png`.' }),
    base64: t.exposeString('base64', { description: 'The PNG bytes, base64-encoded.' }),
    sha256: t.exposeString('sha256', { description: 'As the audit record names it in `evidence`.' }),
  }),
});

export const ApprovalRequestRef = builder.objectRef<ApprovalRequest>('ApprovalRequest').implement({
  description: 'An operation waiting for a human; arguments and target are already redacted.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Pass it as `id:` to approve or deny.' }),
    operation: t.exposeString('operation', { description: 'The Mutation field waiting, e.g. `click`.' }),
    client: t.field({ type: ClientRef, description: 'Who sent it.', resolve: (request) => request.client }),
    session: t.field({
      type: GovernedSessionRef,
      nullable: true,
      description: 'The session it acts on, as resolved; null when none (launch and the like).',
      resolve: (request) => request.session,
    }),
    target: t.field({
      type: GovernedTargetRef,
      nullable: true,
      description: 'What it will act on, as resolved before asking; null when it names nothing.',
      resolve: (request) => request.target,
    }),
    args: t.string({
      description: 'The arguments as JSON, secrets redacted exactly as in `AuditRecord.arguments`.',
      resolve: (r) => JSON.stringify(r.args),
    }),
    risk: t.field({
      type: RiskTierEnum,
      description: 'The scored risk tier.',
      resolve: (request) => request.risk,
    }),
    rule: t.field({
      type: RuleRefRef,
      description: 'The rule (or tier default) that decided ASK.',
      resolve: (request) => request.rule,
    }),
    reasons: t.exposeStringList('reasons', {
      description:
        "Why it was asked: the risk scorer's reasons and the rule that matched, as explainPolicy gives them.",
    }),
    screenshot: t.field({
      type: ScreenshotRef,
      nullable: true,
      description: `The page element as it looked, taken only when an approver was watching and the target resolved to a page element; null otherwise, or when it took over ${APPROVAL_SCREENSHOT_WAIT_MS} ms or came to over ${MAX_APPROVAL_SCREENSHOT_BYTES} bytes. The request is sent while the capture runs; this field answers when it has ended.`,
      resolve: (request) => request.screenshot,
    }),
    requestedAt: t.field({
      type: 'DateTime',
      description: 'When it was asked.',
      resolve: (request) => request.createdAt,
    }),
    expiresAt: t.field({
      type: 'DateTime',
      description: `When it times out (APPROVAL_TIMEOUT): requestedAt plus the server's approval timeout (--approval-timeout; default ${DEFAULT_APPROVAL_TIMEOUT_MS} ms, clamped to 1–${MAX_APPROVAL_TIMEOUT_MS} ms).`,
      resolve: (request) => request.expiresAt,
    }),
  }),
});

const ApprovalEventRef = builder.objectRef<CursoredDelivery<ApprovalEvent>>('ApprovalEvent').implement({
  description:
    'One change to an approval request on the approvalRequests stream: asked (PENDING), then how it was settled.',
  fields: (t) => ({
    state: t.field({
      type: StateEnum,
      description: 'Where it stands now.',
      resolve: ({ event }) => event.state,
    }),
    request: t.field({
      type: ApprovalRequestRef,
      description: 'The request, as it was asked.',
      resolve: ({ event }) => event.request,
    }),
    decidedBy: t.string({
      nullable: true,
      description:
        "The approver's `Client.id` once APPROVED or DENIED; null while PENDING, and when TIMED_OUT or CANCELLED.",
      resolve: ({ event }) => event.decidedBy,
    }),
    reason: t.string({
      nullable: true,
      description:
        "The approver's reason on DENIED (null if none given); `no answer within <n> ms` on TIMED_OUT; why on CANCELLED; null while PENDING and on APPROVED.",
      resolve: ({ event }) => event.reason,
    }),
    droppedBefore: t.exposeInt('droppedBefore', {
      description:
        "Events this subscriber lost just before this one: it read too slowly, or (resumed with `after` in a cluster) the cluster's approval stream had trimmed them, or a replica could not write them there while Redis was out.",
    }),
    cursor: t.string({
      nullable: true,
      description:
        "With `serve --cluster`: where this event sits in the cluster's approval stream; pass the last one seen as `after` to resume just after it, on this replica or another. Null without a cluster, for the pending requests listed first, and for an event the stream did not take.",
      resolve: async (delivery, _args, { clusterEvents }) =>
        delivery.cursor ?? (await clusterEvents?.topicCursorOf(delivery.event)) ?? null,
    }),
  }),
});

export const ApprovalResultRef = builder.objectRef<ApprovalResult>('ApprovalResult').implement({
  description: 'How an ASK was settled.',
  fields: (t) => ({
    status: t.exposeString('status', { description: 'APPROVED or DENIED.' }),
    requestId: t.exposeID('requestId', {
      nullable: true,
      description:
        'The approval request answered; null when settled without one (an earlier SESSION or APP approval, `auto-allow`, `auto-deny`).',
    }),
    scope: t.field({
      type: ScopeEnum,
      nullable: true,
      description:
        'The scope the approver chose; when settled by an earlier approval, the scope it was given under (SESSION or APP); null when denied or settled by `auto-allow` or `auto-deny`.',
      resolve: (result) => result.scope,
    }),
    decidedBy: t.exposeString('decidedBy', {
      description: 'An approver id, `session-grant`, `app-grant`, `auto-allow` or `auto-deny`.',
    }),
    reason: t.exposeString('reason', {
      nullable: true,
      description:
        "A deny's reason (null if none given); when settled without an approver, why (`approved earlier for this session`, `approved earlier for this app`, `no approver watching`); null on an approver's approve.",
    }),
    waitedMs: t.float({
      description: 'How long the operation waited for the answer, in whole milliseconds.',
      resolve: (result) => Math.round(result.waitedMs),
    }),
  }),
});

builder.queryField('pendingApprovals', (t) =>
  t.field({
    type: [ApprovalRequestRef],
    description:
      'Operations waiting for an approver, oldest first. Approvers and observers (who see them but cannot answer); APPROVAL_FORBIDDEN for an agent token.',
    resolve: (_root, _args, context) => governanceOf(context).broker.pending(clientOf(context)),
  }),
);

builder.mutationFields((t) => ({
  approve: t.field({
    type: ApprovalResultRef,
    governance: { answersApproval: true },
    description:
      'Lets a waiting operation go ahead. Approvers only: APPROVAL_FORBIDDEN for an agent token, ROLE_FORBIDDEN for an observer token.',
    args: {
      id: t.arg.id({
        required: true,
        description:
          'An `ApprovalRequest.id`; APPROVAL_NOT_FOUND when no request with it is pending (already answered, timed out, or never asked).',
      }),
      scope: t.arg({
        type: ScopeEnum,
        required: false,
        defaultValue: 'ONCE',
        description:
          'ONCE (the default); SESSION, which also lets later identical requests of the same session through unasked; or APP, those of every session of the same app.',
      }),
    },
    resolve: (_root, args, context) =>
      governanceOf(context).broker.answer(
        String(args.id),
        { decision: 'APPROVED', scope: args.scope ?? 'ONCE' },
        clientOf(context),
      ),
  }),
  deny: t.field({
    type: ApprovalResultRef,
    governance: { answersApproval: true },
    description:
      'Refuses a waiting operation: it fails with POLICY_DENIED carrying the reason. Approvers only.',
    args: {
      id: t.arg.id({
        required: true,
        description: 'An `ApprovalRequest.id`; APPROVAL_NOT_FOUND when no request with it is pending.',
      }),
      reason: t.arg.string({
        required: false,
        description:
          'Why, in your words: the agent reads it in the POLICY_DENIED message, and the audit trail keeps it.',
      }),
    },
    resolve: (_root, args, context) =>
      governanceOf(context).broker.answer(
        String(args.id),
        { decision: 'DENIED', reason: args.reason ?? null },
        clientOf(context),
      ),
  }),
}));

builder.subscriptionField('approvalRequests', (t) =>
  t.field({
    type: ApprovalEventRef,
    description:
      'Approval requests as they are asked (pending ones first), and how each was settled. Approvers and observers; while an approver watches, ASK waits for an answer instead of failing fast (an observer watching does not make it wait, since it cannot answer).',
    args: {
      after: t.arg.string({
        required: false,
        description:
          "With `serve --cluster`: deliver the events after this `cursor` (from the cluster's approval stream, on any replica), then live ones, instead of the pending requests first. Events the stream no longer holds are counted in the first delivery's `droppedBefore`; a subscription resumed so ends with CLUSTER_UNAVAILABLE when Redis stops answering. Without a cluster: BAD_INPUT.",
      }),
    },
    subscribe: (_root, args, context) =>
      approvalFeed(governanceOf(context).broker, context.clusterEvents, clientOf(context), args.after),
    resolve: (delivery) => delivery,
  }),
);
