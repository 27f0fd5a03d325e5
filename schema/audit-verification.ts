import { type BrokenRecord, MAX_TORN_LINES_LISTED, type TornLine } from '../domain/audit/verify-audit.js';
import type { ReplicaChainVerification } from '../domain/cluster/cluster-audit-verification.js';
import { AUDIT_REPLICA_ARGUMENT } from './audit.js';
import { builder } from './builder.js';
import { onThisReplica } from './client-sessions.js';
import { type GatewayContext, governanceOf } from './context.js';

const BrokenRecordRef = builder.objectRef<BrokenRecord>('BrokenAuditRecord').implement({
  description: 'The first place the hash chain does not hold; records from here on cannot be trusted.',
  fields: (t) => ({
    file: t.exposeString('file', { description: 'Relative to the audit directory.' }),
    line: t.exposeInt('line', {
      description: '1-based line in that file; 0 when a whole file is missing before it.',
    }),
    seq: t.exposeInt('seq', {
      nullable: true,
      description: "The record's `seq`; null when the line is not a record at all (torn write, edit).",
    }),
    reason: t.exposeString('reason', {
      description:
        'What is wrong: not JSON, a gap in `seq`, a `prevHash` that is not the previous hash, content that does not match its hash, or a missing file number.',
    }),
  }),
});

const TornLineRef = builder.objectRef<TornLine>('TornAuditLine').implement({
  description:
    'A line that is not a record, but that the chain goes on across (or that ends the log): a write torn by a crash such as kill -9 mid-write. The restart keeps it, ends it with a newline, and continues the chain after the last whole record.',
  fields: (t) => ({
    file: t.exposeString('file', { description: 'Relative to the audit directory.' }),
    line: t.exposeInt('line', { description: '1-based line in that file.' }),
    bytes: t.exposeInt('bytes', { description: 'What was written of it before the crash.' }),
  }),
});

export const VerificationRef = builder.objectRef<ReplicaChainVerification>('AuditVerification').implement({
  description: 'The result of recomputing the whole hash chain (verifyAudit).',
  fields: (t) => ({
    replica: t.exposeString('replica', {
      nullable: true,
      description: 'In cluster mode, the replica whose chain this is; null for a gateway without --cluster.',
    }),
    ok: t.exposeBoolean('ok', { description: 'True when every record in every file holds.' }),
    files: t.exposeInt('files', { description: 'Audit files found (`audit-NNNNNN.jsonl`).' }),
    records: t.exposeInt('records', {
      description: 'Records verified before the first broken one (all of them when ok).',
    }),
    lastSeq: t.exposeInt('lastSeq', { description: 'The `seq` of the last record verified; 0 when none.' }),
    lastHash: t.exposeString('lastHash', {
      description: 'The `hash` of the last record verified; 64 zeros when none.',
    }),
    broken: t.field({
      type: BrokenRecordRef,
      nullable: true,
      description: 'The first record that does not hold; null when ok.',
      resolve: (result) => result.broken,
    }),
    torn: t.field({
      type: [TornLineRef],
      description: `Writes torn by a crash, oldest first (at most ${MAX_TORN_LINES_LISTED}); they do not make \`ok\` false.`,
      resolve: (result) => result.torn,
    }),
  }),
});

builder.queryFields((t) => ({
  verifyAudit: t.field({
    type: VerificationRef,
    description:
      'Recomputes the hash chain over every audit file; names the first record that does not hold. In cluster mode it also checks the chain against the last record the replica declared to the cluster, so a tail cut from its files or a chain rewritten after a record fails too. `verifyClusterAudit` checks every replica at once.',
    args: { replica: t.arg.string({ required: false, description: AUDIT_REPLICA_ARGUMENT }) },
    resolve: (_root, args, context) => {
      onThisReplica(context, args.replica);
      return verifiedHere(context);
    },
  }),
}));

/** This gateway's chain, checked against the checkpoint it declared to the cluster (if it is in one). */
export async function verifiedHere(context: GatewayContext): Promise<ReplicaChainVerification> {
  const checkpoint = (await context.auditCheckpoints?.current()) ?? null;
  const verification = await governanceOf(context).verifyAudit(checkpoint);
  return { ...verification, replica: context.cluster?.replicaId ?? null };
}
