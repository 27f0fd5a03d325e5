import {
  type AuditFilter,
  type AuditPage,
  DEFAULT_AUDIT_PAGE,
  MAX_AUDIT_PAGE,
} from '../domain/audit/audit-query.js';
import type { AuditEffect, AuditOutcome, EvidenceHash } from '../domain/audit/audit-record.js';
import {
  auditFeed,
  clusterAuditPage,
  type MergedAuditPage,
  type ReplicaAuditRecord,
} from '../domain/cluster/cluster-audit.js';
import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import { SUBSCRIBER_QUEUE_CAPACITY } from '../domain/events/event-hub.js';
import { MAX_REDACTED_STRING_LENGTH } from '../domain/governance/redaction/redaction.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { ApprovalResultRef } from './approvals.js';
import { builder } from './builder.js';
import { ClientRef } from './client.js';
import { onThisReplica } from './client-sessions.js';
import { governanceOf } from './context.js';
import { DecisionEnum, GovernedSessionRef, GovernedTargetRef, RiskTierEnum, RuleRefRef } from './policy.js';

const OutcomeEnum = builder.enumType('AuditOutcome', {
  description: 'How a governed operation ended.',
  values: {
    OK: { value: 'ok', description: 'It was allowed (or approved) and succeeded.' },
    DENIED: {
      value: 'denied',
      description:
        'By the policy, an approver, the non-interactive auto-deny, or the gateway when the approved target had changed before acting (TARGET_CHANGED_AFTER_APPROVAL).',
    },
    FAILED: {
      value: 'failed',
      description: 'Allowed, but the operation (or its approval) failed; see errorCode.',
    },
    TIMED_OUT: { value: 'timed-out', description: 'No approver answered in time.' },
  } as const satisfies Record<string, { value: AuditOutcome; description?: string }>,
});

const EvidenceRef = builder.objectRef<EvidenceHash>('AuditEvidence').implement({
  description: 'The hash of something shown to decide an operation; the audit keeps the hash, not the bytes.',
  fields: (t) => ({
    kind: t.exposeString('kind', {
      description: 'What was hashed: `element-screenshot`, the PNG sent to approvers with the request.',
    }),
    sha256: t.exposeString('sha256', {
      description: 'Hex SHA-256 of its bytes, as `ApprovalScreenshot.sha256`.',
    }),
  }),
});

const EffectRef = builder.objectRef<AuditEffect>('AuditEffect').implement({
  description:
    'What an action changed in its window, counted from the diff it answered with: recorded only when the agent selected `diff`.',
  fields: (t) => ({
    added: t.exposeInt('added', { description: 'Nodes that appeared.' }),
    removed: t.exposeInt('removed', { description: 'Nodes that went away.' }),
    changed: t.exposeInt('changed', { description: 'Nodes whose name, value or states changed.' }),
    documentReplaced: t.exposeBoolean('documentReplaced', {
      description: 'The window navigated or reloaded: everything was replaced.',
    }),
  }),
});

const AuditRecordRef = builder.objectRef<ReplicaAuditRecord>('AuditRecord').implement({
  description: 'One governed operation, sealed into the hash chain: what was asked, decided and done.',
  fields: (t) => ({
    replica: t.string({
      nullable: true,
      description:
        "In cluster mode, the replica (`replicas { id }`) whose chain holds the record: `seq`, `prevHash` and `hash` are that chain's. Null for a gateway without --cluster.",
      resolve: (record, _args, { cluster }) => record.replica ?? cluster?.replicaId ?? null,
    }),
    seq: t.exposeInt('seq', {
      description:
        "Its place in the trail, from 1 with no gaps across files; an edge's `cursor`, and what to pass as `after`.",
    }),
    time: t.field({
      type: 'DateTime',
      description:
        'When the record was sealed, just after the operation ended (it began `durationMs` earlier).',
      resolve: (record) => new Date(record.time),
    }),
    client: t.field({
      type: ClientRef,
      description: 'Who sent the operation.',
      resolve: (record) => record.client,
    }),
    operation: t.exposeString('operation', { description: 'The Mutation field, e.g. `click`.' }),
    kind: t.exposeString('kind', {
      description:
        'Always `mutation`: every mutation is recorded except those refused by the rate limit (RATE_LIMITED); reads are not audited.',
    }),
    arguments: t.string({
      description: `The arguments as JSON, secrets replaced by \`[REDACTED:<why>]\`: text that carries a value into the app (storage and cookie values, bodies, payloads, environment values), text typed into a password field or with \`secret: true\`, keys named like secrets, and credentials, tokens or emails anywhere. Locators, names, paths and URLs stay in clear; strings over ${MAX_REDACTED_STRING_LENGTH} characters are cut.`,
      resolve: (r) => JSON.stringify(r.arguments),
    }),
    session: t.field({
      type: GovernedSessionRef,
      nullable: true,
      description:
        'The session acted on, as resolved before deciding (credentials scrubbed); null for launch and the like, an unknown session, and approve or deny.',
      resolve: (record) => record.session,
    }),
    target: t.field({
      type: GovernedTargetRef,
      nullable: true,
      description:
        'What it acted on, resolved before deciding, and for an approved page element resolved again just before acting (credentials scrubbed); null when it names no target, menu item, tray or program.',
      resolve: (record) => record.target,
    }),
    approvedTarget: t.field({
      type: GovernedTargetRef,
      nullable: true,
      description:
        'What the approver approved, when the target looked up again just before acting was no longer it: the operation was then refused (TARGET_CHANGED_AFTER_APPROVAL) and `target` is what was found. Null otherwise, the approved and the acted-on target being the same.',
      resolve: (record) => record.approvedTarget ?? null,
    }),
    decision: t.field({
      type: DecisionEnum,
      description:
        "The policy's decision: an ASK stays ASK, `approval` says how it was settled. approve and deny are recorded as ALLOW under `built-in:approver-answer`.",
      resolve: (record) => record.decision,
    }),
    rule: t.field({
      type: RuleRefRef,
      description: 'The rule (or tier default) that decided.',
      resolve: (record) => record.rule,
    }),
    risk: t.field({
      type: RiskTierEnum,
      description: 'The risk tier it was scored at.',
      resolve: (record) => record.risk,
    }),
    policySha256: t.exposeString('policySha256', {
      nullable: true,
      description:
        'SHA-256 of the policy file that decided (its `PolicyOrigin.sha256` at the time); null under the built-in policy.',
    }),
    approval: t.field({
      type: ApprovalResultRef,
      nullable: true,
      description:
        'How an ASK was settled (by an approver, an earlier SESSION or APP approval, `auto-allow` or `auto-deny`); null when none was asked, or when asking failed (timed out, no approver).',
      resolve: (record) => record.approval,
    }),
    outcome: t.field({
      type: OutcomeEnum,
      description: 'How it ended.',
      resolve: (record) => record.outcome,
    }),
    errorCode: t.exposeString('errorCode', {
      nullable: true,
      description:
        "The error code it failed with (POLICY_DENIED, APPROVAL_TIMEOUT, APPROVAL_UNAVAILABLE, the operation's own code, INTERNAL for an unexpected error); null when OK.",
    }),
    durationMs: t.exposeFloat('durationMs', {
      description:
        'Milliseconds (to 0.001) from the call reaching the policy to its record: target preview, any wait for an approver, and the operation itself.',
    }),
    evidence: t.field({
      type: [EvidenceRef],
      description: 'Hashes of what approvers were shown to decide (an element screenshot); usually empty.',
      resolve: (record) => record.evidence,
    }),
    effect: t.field({
      type: EffectRef,
      nullable: true,
      description:
        'Counts of the diff the action answered with, when the agent selected `diff`; null otherwise (nothing was read, so nothing is claimed).',
      resolve: (record) => record.effect ?? null,
    }),
    prevHash: t.exposeString('prevHash', {
      description: "The previous record's `hash`, across file rotation too; 64 zeros for the first record.",
    }),
    hash: t.exposeString('hash', {
      description:
        'Hex SHA-256 of the record as stored on its line in the audit file, in canonical JSON (keys sorted, no whitespace) without `hash`. It covers `prevHash`, so an edit, insertion, deletion or reordering breaks the chain; verifyAudit recomputes it.',
    }),
  }),
});

const AuditEdgeRef = builder.objectRef<ReplicaAuditRecord>('AuditEdge').implement({
  description: 'One record of an audit page, with its cursor.',
  fields: (t) => ({
    cursor: t.string({
      description:
        "The record's `seq` as text (in a cluster's merged trail, `audit` without `replica`: its number in the cluster's audit stream, as the subscription's `cursor`): pass it as `after` to read on from this record.",
      resolve: (record) => String(record.cursor ?? record.seq),
    }),
    node: t.field({ type: AuditRecordRef, description: 'The record.', resolve: (record) => record }),
  }),
});

const AuditPageInfoRef = builder.objectRef<AuditPage | MergedAuditPage>('AuditPageInfo').implement({
  description:
    "Where an audit page ends, whether more records match, and (in a cluster's merged trail) how many its stream no longer holds before it.",
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', {
      description:
        "True when more records matching the filter follow this page. In a cluster's merged trail, also when the stream trimmed records just after this page while it was read: the next page counts them in `trimmedBefore`.",
    }),
    trimmedBefore: t.int({
      description:
        "With `serve --cluster`, in the merged trail (`audit` without `replica`): records the cluster's audit stream numbered after `after` (omitted: from its first record) but no longer holds, trimmed to its newest --cluster-stream-bound, before this page's first record — any replica's, whether or not they match the filter. They are still in their replica's own trail: read each with `audit(replica:)`. Records a replica could not append while Redis was down never got a number and are not counted (the subscription's `droppedBefore` counts both). 0 for one replica's trail, which its own disk holds.",
      resolve: (page) => ('trimmedBefore' in page ? page.trimmedBefore : 0),
    }),
    endCursor: t.string({
      nullable: true,
      description:
        "The last edge's `cursor`, to pass as `after` for the next page; null when the page is empty.",
      resolve: (page) => (page.endCursor === null ? null : String(page.endCursor)),
    }),
  }),
});

const AuditConnectionRef = builder.objectRef<AuditPage>('AuditConnection').implement({
  description: 'Records oldest first; pass `pageInfo.endCursor` as `after` for the next page.',
  fields: (t) => ({
    edges: t.field({
      type: [AuditEdgeRef],
      description: "This page's records, oldest first.",
      resolve: (page) => page.records,
    }),
    pageInfo: t.field({
      type: AuditPageInfoRef,
      description: 'The cursor to continue from, and whether to.',
      resolve: (page) => page,
    }),
  }),
});

const AuditFilterInput = builder.inputType('AuditFilter', {
  description: 'Absent fields match anything; lists match any of their values.',
  fields: (t) => ({
    operations: t.stringList({
      required: false,
      description: 'Mutation field names, matched exactly (e.g. `["click", "fill"]`); empty matches any.',
    }),
    outcomes: t.field({
      type: [OutcomeEnum],
      required: false,
      description: 'Any of these outcomes; empty matches any.',
    }),
    decisions: t.field({
      type: [DecisionEnum],
      required: false,
      description: 'Any of these policy decisions; empty matches any.',
    }),
    sessionId: t.id({
      required: false,
      description: 'Only operations on this session; records with no session then never match.',
    }),
    clientId: t.id({ required: false, description: "Only this client's operations (`Client.id`)." }),
    since: t.field({
      type: 'DateTime',
      required: false,
      description: 'Only records sealed at or after this time.',
    }),
    until: t.field({
      type: 'DateTime',
      required: false,
      description: 'Only records sealed at or before this time.',
    }),
  }),
});

const AuditEventRef = builder.objectRef<CursoredDelivery<ReplicaAuditRecord>>('AuditEvent').implement({
  description: 'One audit record delivered on the `audit` subscription.',
  fields: (t) => ({
    record: t.field({
      type: AuditRecordRef,
      description: 'The record, once written to the audit file.',
      resolve: ({ event }) => event,
    }),
    droppedBefore: t.exposeInt('droppedBefore', {
      description:
        "Records this subscriber lost just before this one: it read too slowly, or (in a cluster) the cluster's audit stream had trimmed them, or a replica could not write them there while Redis was out.",
    }),
    cursor: t.string({
      nullable: true,
      description:
        "With `serve --cluster`: where this record sits in the cluster's audit stream; pass it as `after` to resume just after it, on this replica or another. Null without a cluster.",
      resolve: (delivery) => delivery.cursor ?? null,
    }),
  }),
});

/** Each replica keeps its own audit on its own disk; a call naming another is sent there. */
export const AUDIT_REPLICA_ARGUMENT =
  'In cluster mode, the replica (`replicas { id }`) whose audit trail to read; the call is sent there. Default: the one receiving it.';

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
      "The audit trail, oldest first: every mutation with its decision and outcome, secrets redacted. With `serve --cluster` and no `replica`: every replica's records merged, each with its `replica`, in the order the cluster's audit stream took them — what that stream still holds (its newest --cluster-stream-bound records; `pageInfo.trimmedBefore` counts those it trimmed before a page); name a `replica` to read that replica's whole trail.",
    args: {
      replica: t.arg.string({
        required: false,
        description:
          "In cluster mode, the replica (`replicas { id }`) whose whole audit trail to read; the call is sent there. Default: every replica's, merged.",
      }),
      first: t.arg.int({
        required: false,
        description: `Records per page: default ${DEFAULT_AUDIT_PAGE}, clamped to 1–${MAX_AUDIT_PAGE}.`,
      }),
      after: t.arg.string({
        required: false,
        description:
          "A cursor (`pageInfo.endCursor` or an edge's `cursor`): only records after it. Omitted: from the first record (of a cluster's merged trail: the oldest its stream holds). BAD_INPUT when it is not a non-negative integer.",
      }),
      filter: t.arg({
        type: AuditFilterInput,
        required: false,
        description: 'Only records that match it; omitted: all.',
      }),
    },
    resolve: (_root, args, context) => {
      onThisReplica(context, args.replica);
      const query = {
        first: args.first ?? null,
        after: cursor(args.after),
        filter: (args.filter ?? null) as AuditFilter | null,
      };
      if (context.clusterEvents && args.replica == null)
        return clusterAuditPage(context.clusterEvents, query);
      return governanceOf(context).audit.read(query);
    },
  }),
}));

builder.subscriptionField('audit', (t) =>
  t.field({
    type: AuditEventRef,
    description: `Audit records as they are written, from the moment of subscribing (read \`audit\` for earlier ones). Each subscriber has a queue of ${SUBSCRIBER_QUEUE_CAPACITY}; a slow one loses the oldest, counted in \`droppedBefore\`. With \`serve --cluster\`: every replica's records, each with its \`replica\`, read from the cluster's audit stream (bounded by --cluster-stream-bound) in the order it took them.`,
    args: {
      filter: t.arg({
        type: AuditFilterInput,
        required: false,
        description: 'Only records that match it; omitted: all.',
      }),
      after: t.arg.string({
        required: false,
        description:
          "With `serve --cluster`: deliver the records after this `cursor` first (from the cluster's audit stream, on any replica), then live ones. Records the stream no longer holds are counted in the first delivery's `droppedBefore`. Without a cluster: BAD_INPUT.",
      }),
    },
    subscribe: (_root, args, context) =>
      auditFeed(
        governanceOf(context).audit,
        context.clusterEvents,
        (args.filter ?? null) as AuditFilter | null,
        args.after,
      ),
    resolve: (delivery) => delivery,
  }),
);
