import type { AuditCheckpoint } from '../domain/audit/verify-audit.js';
import {
  type ClusterAuditVerification,
  DEFAULT_REPLICA_AUDIT_TIMEOUT_MS,
  MAX_REPLICA_AUDIT_TIMEOUT_MS,
  MIN_REPLICA_AUDIT_TIMEOUT_MS,
  type ReplicaAuditEntry,
  type ReplicaAuditStatus,
  verifyClusterAudit,
} from '../domain/cluster/cluster-audit-verification.js';
import type { ForwardToReplica } from '../domain/cluster/replica-forwarding.js';
import { VerificationRef, verifiedHere } from './audit-verification.js';
import { builder } from './builder.js';

const CheckpointRef = builder.objectRef<AuditCheckpoint>('AuditCheckpoint').implement({
  description: "A replica's latest audit record as it declared it to the cluster (kept in Redis).",
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'Its `seq`.' }),
    hash: t.exposeString('hash', { description: 'Its `hash`.' }),
  }),
});

const ReplicaAuditStatusEnum = builder.enumType('ReplicaAuditStatus', {
  description: "Whether a replica's chain could be verified.",
  values: {
    VERIFIED: {
      description:
        'Its chain was recomputed, on the replica itself; `verification.ok` says whether it holds.',
    },
    UNREACHABLE: {
      description:
        'Its lease holds but it gave no verification: no answer within `timeoutMs`, no connection, or an error (`reason` says which).',
    },
    DOWN: {
      description:
        'Its lease lapsed (killed, paused past its lease, cut off from Redis, fenced) and its sessions are LOST: not asked.',
    },
    LEFT: { description: 'It shut down cleanly: not asked.' },
  } as const satisfies Record<ReplicaAuditStatus, { description: string }>,
});

const ReplicaAuditRef = builder.objectRef<ReplicaAuditEntry>('ReplicaAuditVerification').implement({
  description: "One replica's chain in verifyClusterAudit, or why it was not verified.",
  fields: (t) => ({
    replica: t.exposeString('replica', {
      nullable: true,
      description: 'The replica (`replicas { id }`); null for a gateway without --cluster.',
    }),
    status: t.field({
      type: ReplicaAuditStatusEnum,
      description: 'VERIFIED, or why not: UNREACHABLE, DOWN, LEFT.',
      resolve: (entry) => entry.status,
    }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why it was not verified; null when VERIFIED.',
    }),
    verification: t.field({
      type: VerificationRef,
      nullable: true,
      description: 'What its own verifyAudit answered (first broken file and line); null unless VERIFIED.',
      resolve: (entry) => entry.verification,
    }),
    checkpoint: t.field({
      type: CheckpointRef,
      nullable: true,
      description:
        'Its latest record as Redis holds it: what its chain must still reach. Null without --cluster, or before its first record.',
      resolve: (entry) => entry.checkpoint,
    }),
  }),
});

const ClusterAuditRef = builder.objectRef<ClusterAuditVerification>('ClusterAuditVerification').implement({
  description: "Every replica's audit chain, verified at once (verifyClusterAudit).",
  fields: (t) => ({
    ok: t.exposeBoolean('ok', {
      description:
        'True only when every replica was VERIFIED and its chain holds; a replica not verified makes it false.',
    }),
    replicas: t.field({
      type: [ReplicaAuditRef],
      description: 'One per replica Redis knows (UP, DOWN or LEFT), the one answering first.',
      resolve: (result) => result.replicas,
    }),
  }),
});

builder.queryField('verifyClusterAudit', (t) =>
  t.field({
    type: ClusterAuditRef,
    description:
      "verifyAudit of every replica of the cluster at once: this one's chain here, each other live replica asked concurrently for its own (with the caller's credential, as owner routing forwards); a replica that could not be asked or did not answer is listed with why and its checkpoint, never left out. Without --cluster, this gateway's chain alone. CLUSTER_UNAVAILABLE while Redis does not answer.",
    args: {
      timeoutMs: t.arg.int({
        required: false,
        description: `How long each replica is given to answer (default ${DEFAULT_REPLICA_AUDIT_TIMEOUT_MS}, clamped to ${MIN_REPLICA_AUDIT_TIMEOUT_MS}–${MAX_REPLICA_AUDIT_TIMEOUT_MS}); one that has not answered by then reads UNREACHABLE.`,
      }),
    },
    resolve: (_root, args, context) => {
      const { cluster, auditCheckpoints } = context;
      return verifyClusterAudit(
        () => verifiedHere(context),
        cluster
          ? {
              replicaId: cluster.replicaId,
              replicas: () => cluster.replicas(),
              checkpoint: async (id) => (await auditCheckpoints?.of(id)) ?? null,
              forward: context.forwardToReplica ?? unforwardable,
            }
          : null,
        { timeoutMs: args.timeoutMs, abandoned: context.abandoned },
      );
    },
  }),
);

/** A context built without forwarding (in-process execution): other replicas read UNREACHABLE, saying why. */
const unforwardable: ForwardToReplica = () =>
  Promise.reject(new Error('not asked: this request was executed in-process, where nothing is forwarded'));
