import type { Delivery } from '../resolvers/bounded/subscriber-queue.js';
import type {
  ApprovalEvent,
  ApprovalRequest,
  ApprovalResult,
  ApprovalScope,
} from '../resolvers/governance/approval-broker.js';
import type { ClientIdentity, ClientRole } from '../resolvers/governance/client-identity.js';
import { builder } from './builder.js';
import { answersApproval, clientOf, governanceOf } from './governance.js';
import { GovernedSessionRef, GovernedTargetRef, RiskTierEnum, RuleRefRef } from './policy.js';

const ClientRoleEnum = builder.enumType('ClientRole', {
  values: {
    AGENT: { value: 'agent' },
    APPROVER: { value: 'approver' },
    ANONYMOUS_LOOPBACK: {
      value: 'anonymous-loopback',
      description: 'No token, on a server that has no agent token.',
    },
  } as const satisfies Record<string, { value: ClientRole; description?: string }>,
});

export const ClientRef = builder.objectRef<ClientIdentity>('Client').implement({
  description: 'Who sent an operation, named by its token (never the token itself).',
  fields: (t) => ({
    id: t.exposeID('id'),
    role: t.field({ type: ClientRoleEnum, resolve: (client) => client.role }),
  }),
});

const ScopeEnum = builder.enumType('ApprovalScope', {
  values: {
    ONCE: { value: 'ONCE', description: 'This request only.' },
    SESSION: {
      value: 'SESSION',
      description:
        'This and later identical requests (same session, operation, target and rule) until the session ends.',
    },
  } as const satisfies Record<string, { value: ApprovalScope; description: string }>,
});

const StateEnum = builder.enumType('ApprovalState', {
  values: ['PENDING', 'APPROVED', 'DENIED', 'TIMED_OUT', 'CANCELLED'] as const,
});

const ScreenshotRef = builder
  .objectRef<NonNullable<ApprovalRequest['screenshot']>>('ApprovalScreenshot')
  .implement({
    description: 'The element as it looked when the approval was asked.',
    fields: (t) => ({
      mimeType: t.exposeString('mimeType'),
      base64: t.exposeString('base64'),
      sha256: t.exposeString('sha256', { description: 'As the audit record names it in `evidence`.' }),
    }),
  });

const ApprovalRequestRef = builder.objectRef<ApprovalRequest>('ApprovalRequest').implement({
  description: 'An operation waiting for a human; arguments and target are already redacted.',
  fields: (t) => ({
    id: t.exposeID('id'),
    operation: t.exposeString('operation'),
    client: t.field({ type: ClientRef, resolve: (request) => request.client }),
    session: t.field({ type: GovernedSessionRef, nullable: true, resolve: (request) => request.session }),
    target: t.field({ type: GovernedTargetRef, nullable: true, resolve: (request) => request.target }),
    args: t.string({
      description: 'The arguments as JSON, secrets redacted.',
      resolve: (r) => JSON.stringify(r.args),
    }),
    risk: t.field({ type: RiskTierEnum, resolve: (request) => request.risk }),
    rule: t.field({ type: RuleRefRef, resolve: (request) => request.rule }),
    reasons: t.exposeStringList('reasons'),
    screenshot: t.field({
      type: ScreenshotRef,
      nullable: true,
      resolve: (request) => request.screenshot ?? null,
    }),
    requestedAt: t.field({ type: 'DateTime', resolve: (request) => request.createdAt }),
    expiresAt: t.field({ type: 'DateTime', resolve: (request) => request.expiresAt }),
  }),
});

const ApprovalEventRef = builder.objectRef<Delivery<ApprovalEvent>>('ApprovalEvent').implement({
  fields: (t) => ({
    state: t.field({ type: StateEnum, resolve: ({ event }) => event.state }),
    request: t.field({ type: ApprovalRequestRef, resolve: ({ event }) => event.request }),
    decidedBy: t.string({ nullable: true, resolve: ({ event }) => event.decidedBy }),
    reason: t.string({ nullable: true, resolve: ({ event }) => event.reason }),
    droppedBefore: t.exposeInt('droppedBefore', {
      description: 'Events this subscriber lost just before this one because it read too slowly.',
    }),
  }),
});

export const ApprovalResultRef = builder.objectRef<ApprovalResult>('ApprovalResult').implement({
  description: 'How an ASK was settled.',
  fields: (t) => ({
    status: t.exposeString('status', { description: 'APPROVED or DENIED.' }),
    requestId: t.exposeID('requestId', { nullable: true }),
    scope: t.field({ type: ScopeEnum, nullable: true, resolve: (result) => result.scope }),
    decidedBy: t.exposeString('decidedBy', {
      description: 'An approver id, `session-grant`, `auto-allow` or `auto-deny`.',
    }),
    reason: t.exposeString('reason', { nullable: true }),
    waitedMs: t.float({ resolve: (result) => Math.round(result.waitedMs) }),
  }),
});

builder.queryField('pendingApprovals', (t) =>
  t.field({
    type: [ApprovalRequestRef],
    description: 'Operations waiting for an approver, oldest first. Approvers only.',
    resolve: (_root, _args, context) => governanceOf(context).broker.pending(clientOf(context)),
  }),
);

builder.mutationFields((t) => ({
  approve: t.field({
    type: ApprovalResultRef,
    ...answersApproval,
    description: 'Lets a waiting operation go ahead. Approvers only (APPROVAL_FORBIDDEN for an agent token).',
    args: {
      id: t.arg.id({ required: true }),
      scope: t.arg({ type: ScopeEnum, required: false, defaultValue: 'ONCE' }),
    },
    resolve: (_root, args, context) =>
      governanceOf(context).broker.approve(String(args.id), args.scope ?? 'ONCE', clientOf(context)),
  }),
  deny: t.field({
    type: ApprovalResultRef,
    ...answersApproval,
    description:
      'Refuses a waiting operation: it fails with POLICY_DENIED carrying the reason. Approvers only.',
    args: { id: t.arg.id({ required: true }), reason: t.arg.string({ required: false }) },
    resolve: (_root, args, context) =>
      governanceOf(context).broker.deny(String(args.id), args.reason ?? null, clientOf(context)),
  }),
}));

builder.subscriptionField('approvalRequests', (t) =>
  t.field({
    type: ApprovalEventRef,
    description:
      'Approval requests as they are asked (pending ones first), and how each was settled. Approvers only; while one watches, ASK waits for an answer instead of failing fast.',
    subscribe: (_root, _args, context) => governanceOf(context).broker.subscribe(clientOf(context)),
    resolve: (delivery) => delivery,
  }),
);
