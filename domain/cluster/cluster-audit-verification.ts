import type { AuditCheckpoint, AuditVerification } from '../audit/verify-audit.js';
import type { ReplicaRecord } from './cluster-store.js';
import type { ForwardedAnswer, ForwardToReplica } from './replica-forwarding.js';

/** One chain's verification, with the replica whose chain it is (null without a cluster). */
export type ReplicaChainVerification = AuditVerification & { readonly replica: string | null };

/**
 * VERIFIED: the replica's chain was recomputed (by this replica, or by the replica asked); its `ok` says
 * whether it holds. UNREACHABLE: its lease holds, but it gave no verification (no answer before the
 * deadline, no connection, or an error). DOWN: its lease lapsed (killed, paused past its lease, cut off,
 * fenced), so it was not asked. LEFT: it shut down cleanly, so it was not asked.
 */
export type ReplicaAuditStatus = 'VERIFIED' | 'UNREACHABLE' | 'DOWN' | 'LEFT';

export interface ReplicaAuditEntry {
  readonly replica: string | null;
  readonly status: ReplicaAuditStatus;
  /** Why it was not verified; null when VERIFIED. */
  readonly reason: string | null;
  readonly verification: ReplicaChainVerification | null;
  /** The replica's last record as the cluster holds it; null without a cluster or before its first record. */
  readonly checkpoint: AuditCheckpoint | null;
}

export interface ClusterAuditVerification {
  /** True only when every replica's chain was verified and holds. */
  readonly ok: boolean;
  readonly replicas: readonly ReplicaAuditEntry[];
}

/** What a cluster-wide verification reads: the replicas, their checkpoints, and the way to ask them. */
export interface ClusterAuditPorts {
  readonly replicaId: string;
  /** Every replica the cluster knows, live or not. */
  replicas(): Promise<readonly ReplicaRecord[]>;
  /** What the cluster holds as `replicaId`'s last record. */
  checkpoint(replicaId: string): Promise<AuditCheckpoint | null>;
  readonly forward: ForwardToReplica;
}

/** How long one replica is given to answer, unless the caller says otherwise. */
export const DEFAULT_REPLICA_AUDIT_TIMEOUT_MS = 10_000;
export const MIN_REPLICA_AUDIT_TIMEOUT_MS = 100;
export const MAX_REPLICA_AUDIT_TIMEOUT_MS = 120_000;

/** Sent to each live replica: its own verifyAudit, which it checks against its own checkpoint. */
const VERIFY_ON_REPLICA = `query VerifyReplicaAudit($replica: String!) {
  verifyAudit(replica: $replica) {
    replica ok files records lastSeq lastHash broken { file line seq reason } torn { file line bytes }
  }
}`;

/**
 * Every replica's chain: this one's recomputed here (`verifyHere`), each other live one asked at once
 * for its own, each within `timeoutMs` (or until `abandoned`); a replica that cannot be asked, or did not
 * answer, is listed with why and the checkpoint the cluster holds for it, and makes `ok` false. Without a
 * cluster, this gateway's chain alone.
 */
export async function verifyClusterAudit(
  verifyHere: () => Promise<ReplicaChainVerification>,
  cluster: ClusterAuditPorts | null,
  options: { readonly timeoutMs?: number | null; readonly abandoned?: AbortSignal | undefined } = {},
): Promise<ClusterAuditVerification> {
  if (!cluster) return summed([verified(await verifyHere(), null)]);
  const timeoutMs = Math.min(
    Math.max(options.timeoutMs ?? DEFAULT_REPLICA_AUDIT_TIMEOUT_MS, MIN_REPLICA_AUDIT_TIMEOUT_MS),
    MAX_REPLICA_AUDIT_TIMEOUT_MS,
  );
  const others = (await cluster.replicas()).filter((replica) => replica.id !== cluster.replicaId);
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.abandoned ? AbortSignal.any([deadline, options.abandoned]) : deadline;
  const here = verifyHere().then(async (verification) =>
    verified(verification, await cluster.checkpoint(cluster.replicaId)),
  );
  // Each checkpoint is read once its replica answered: it has then written all it verified against.
  const elsewhere = others.map(async (replica) => {
    if (replica.status !== 'UP') return notAsked(replica, await cluster.checkpoint(replica.id));
    const answered = await asked(cluster.forward, replica, signal, timeoutMs).then(
      (verification) => ({ verification }),
      (error: unknown) => ({ reason: reasonOf(error) }),
    );
    const checkpoint = await cluster.checkpoint(replica.id);
    return 'verification' in answered
      ? verified(answered.verification, checkpoint)
      : entry(replica.id, 'UNREACHABLE', answered.reason, checkpoint);
  });
  return summed(await Promise.all([here, ...elsewhere]));
}

/** The replica's own verifyAudit, or why there is none: it rejects by the deadline whatever the port does. */
async function asked(
  forward: ForwardToReplica,
  replica: ReplicaRecord,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ReplicaChainVerification> {
  let stop = () => {};
  const given = new Promise<never>((_resolve, reject) => {
    const abort = () =>
      reject(
        new Error(
          signal.reason?.name === 'TimeoutError'
            ? `no answer within ${timeoutMs} ms`
            : 'the caller went away before it answered',
        ),
      );
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
    stop = () => signal.removeEventListener('abort', abort);
  });
  try {
    const answer = await Promise.race([
      forward(replica, { query: VERIFY_ON_REPLICA, variables: { replica: replica.id } }, signal),
      given,
    ]);
    return verificationIn(answer);
  } finally {
    stop();
  }
}

function verificationIn(answer: ForwardedAnswer): ReplicaChainVerification {
  const [error] = answer.errors ?? [];
  if (error) {
    const code = error.extensions?.code;
    throw new Error(`it answered ${typeof code === 'string' ? `${code}: ` : ''}${error.message}`);
  }
  const verification = answer.data?.verifyAudit as ReplicaChainVerification | null | undefined;
  if (typeof verification?.ok !== 'boolean') throw new Error('it answered no verification');
  return verification;
}

function notAsked(replica: ReplicaRecord, checkpoint: AuditCheckpoint | null): ReplicaAuditEntry {
  const seen = replica.lastSeen.toISOString();
  return replica.status === 'DOWN'
    ? entry(
        replica.id,
        'DOWN',
        `not asked: its lease lapsed (last renewed ${seen}); killed, paused, cut off or fenced, its sessions are LOST. Its chain is on its disk: restart it to verify.`,
        checkpoint,
      )
    : entry(
        replica.id,
        'LEFT',
        `not asked: it shut down cleanly (${seen}). Its chain is on its disk: restart it to verify.`,
        checkpoint,
      );
}

function verified(
  verification: ReplicaChainVerification,
  checkpoint: AuditCheckpoint | null,
): ReplicaAuditEntry {
  return { replica: verification.replica, status: 'VERIFIED', reason: null, verification, checkpoint };
}

function entry(
  replica: string,
  status: Exclude<ReplicaAuditStatus, 'VERIFIED'>,
  reason: string,
  checkpoint: AuditCheckpoint | null,
): ReplicaAuditEntry {
  return { replica, status, reason, verification: null, checkpoint };
}

function summed(replicas: ReplicaAuditEntry[]): ClusterAuditVerification {
  return { ok: replicas.every((replica) => replica.verification?.ok === true), replicas };
}

/** A failed fetch says only "fetch failed": what failed is its cause (ECONNREFUSED, a reset, …). */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
