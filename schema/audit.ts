import { StagegraphError } from '../errors/stagegraph-error.js';
import type { AuditFilter, AuditPage } from '../resolvers/audit/audit-query.js';
import type { AuditOutcome, AuditRecord, EvidenceHash } from '../resolvers/audit/audit-record.js';
import type { AuditVerification, BrokenRecord } from '../resolvers/audit/verify-audit.js';
import type { Delivery } from '../resolvers/bounded/subscriber-queue.js';
import { ApprovalResultRef, ClientRef } from './approvals.js';
import { builder } from './builder.js';
import { governanceOf } from './governance.js';
import { DecisionEnum, GovernedSessionRef, GovernedTargetRef, RiskTierEnum, RuleRefRef } from './policy.js';

const OutcomeEnum = builder.enumType('AuditOutcome', {
  values: {
    OK: { value: 'ok' },
    DENIED: { value: 'denied', description: 'By the policy, an approver, or the non-interactive auto-deny.' },
    FAILED: {
      value: 'failed',
      description: 'Allowed, but the operation (or its approval) failed; see errorCode.',
    },
    TIMED_OUT: { value: 'timed-out', description: 'No approver answered in time.' },
  } as const satisfies Record<string, { value: AuditOutcome; description?: string }>,
});

const EvidenceRef = builder.objectRef<EvidenceHash>('AuditEvidence').implement({
  fields: (t) => ({ kind: t.exposeString('kind'), sha256: t.exposeString('sha256') }),
});

const AuditRecordRef = builder.objectRef<AuditRecord>('AuditRecord').implement({
  description: 'One governed operation, sealed into the hash chain: what was asked, decided and done.',
  fields: (t) => ({
    seq: t.exposeInt('seq'),
    time: t.field({ type: 'DateTime', resolve: (record) => new Date(record.time) }),
    client: t.field({ type: ClientRef, resolve: (record) => record.client }),
    operation: t.exposeString('operation'),
    kind: t.exposeString('kind'),
    arguments: t.string({
      description: 'JSON, secrets redacted.',
      resolve: (r) => JSON.stringify(r.arguments),
    }),
    session: t.field({ type: GovernedSessionRef, nullable: true, resolve: (record) => record.session }),
    target: t.field({ type: GovernedTargetRef, nullable: true, resolve: (record) => record.target }),
    decision: t.field({ type: DecisionEnum, resolve: (record) => record.decision }),
    rule: t.field({ type: RuleRefRef, resolve: (record) => record.rule }),
    risk: t.field({ type: RiskTierEnum, resolve: (record) => record.risk }),
    policySha256: t.exposeString('policySha256', { nullable: true }),
    approval: t.field({ type: ApprovalResultRef, nullable: true, resolve: (record) => record.approval }),
    outcome: t.field({ type: OutcomeEnum, resolve: (record) => record.outcome }),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    durationMs: t.exposeFloat('durationMs'),
    evidence: t.field({ type: [EvidenceRef], resolve: (record) => record.evidence }),
    prevHash: t.exposeString('prevHash'),
    hash: t.exposeString('hash'),
  }),
});

const AuditEdgeRef = builder.objectRef<AuditRecord>('AuditEdge').implement({
  fields: (t) => ({
    cursor: t.string({ resolve: (record) => String(record.seq) }),
    node: t.field({ type: AuditRecordRef, resolve: (record) => record }),
  }),
});

const AuditPageInfoRef = builder.objectRef<AuditPage>('AuditPageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.string({
      nullable: true,
      resolve: (page) => (page.endCursor === null ? null : String(page.endCursor)),
    }),
  }),
});

const AuditConnectionRef = builder.objectRef<AuditPage>('AuditConnection').implement({
  description: 'Records oldest first; pass `pageInfo.endCursor` as `after` for the next page.',
  fields: (t) => ({
    edges: t.field({ type: [AuditEdgeRef], resolve: (page) => page.records }),
    pageInfo: t.field({ type: AuditPageInfoRef, resolve: (page) => page }),
  }),
});

const AuditFilterInput = builder.inputType('AuditFilter', {
  description: 'Absent fields match anything; lists match any of their values.',
  fields: (t) => ({
    operations: t.stringList({ required: false }),
    outcomes: t.field({ type: [OutcomeEnum], required: false }),
    decisions: t.field({ type: [DecisionEnum], required: false }),
    sessionId: t.id({ required: false }),
    clientId: t.id({ required: false }),
    since: t.field({ type: 'DateTime', required: false }),
    until: t.field({ type: 'DateTime', required: false }),
  }),
});

const BrokenRecordRef = builder.objectRef<BrokenRecord>('BrokenAuditRecord').implement({
  fields: (t) => ({
    file: t.exposeString('file', { description: 'Relative to the audit directory.' }),
    line: t.exposeInt('line'),
    seq: t.exposeInt('seq', { nullable: true }),
    reason: t.exposeString('reason'),
  }),
});

const VerificationRef = builder.objectRef<AuditVerification>('AuditVerification').implement({
  fields: (t) => ({
    ok: t.exposeBoolean('ok'),
    files: t.exposeInt('files'),
    records: t.exposeInt('records', { description: 'Records verified before the first broken one.' }),
    lastSeq: t.exposeInt('lastSeq'),
    lastHash: t.exposeString('lastHash'),
    broken: t.field({ type: BrokenRecordRef, nullable: true, resolve: (result) => result.broken }),
  }),
});

const AuditEventRef = builder.objectRef<Delivery<AuditRecord>>('AuditEvent').implement({
  fields: (t) => ({
    record: t.field({ type: AuditRecordRef, resolve: ({ event }) => event }),
    droppedBefore: t.exposeInt('droppedBefore', {
      description: 'Records this subscriber lost just before this one because it read too slowly.',
    }),
  }),
});

function cursor(after: string | null | undefined): number | null {
  if (after == null) return null;
  const seq = Number(after);
  if (!Number.isInteger(seq) || seq < 0)
    throw new StagegraphError('BAD_INPUT', `"${after}" is not an audit cursor (a record's seq).`);
  return seq;
}

builder.queryFields((t) => ({
  audit: t.field({
    type: AuditConnectionRef,
    description:
      'The audit trail, oldest first: every mutation with its decision and outcome, secrets redacted.',
    args: {
      first: t.arg.int({ required: false, description: 'Default 50, at most 500.' }),
      after: t.arg.string({ required: false }),
      filter: t.arg({ type: AuditFilterInput, required: false }),
    },
    resolve: (_root, args, context) =>
      governanceOf(context).audit.read({
        first: args.first ?? null,
        after: cursor(args.after),
        filter: (args.filter ?? null) as AuditFilter | null,
      }),
  }),
  verifyAudit: t.field({
    type: VerificationRef,
    description:
      'Recomputes the hash chain over every audit file; names the first record that does not hold.',
    resolve: (_root, _args, context) => governanceOf(context).verifyAudit(),
  }),
}));

builder.subscriptionField('audit', (t) =>
  t.field({
    type: AuditEventRef,
    description: 'Audit records as they are written.',
    args: { filter: t.arg({ type: AuditFilterInput, required: false }) },
    subscribe: (_root, args, context) =>
      governanceOf(context).audit.subscribe((args.filter ?? null) as AuditFilter | null),
    resolve: (delivery) => delivery,
  }),
);
