import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ClusterSessionStatus, DirectoryEntry, ReplicaRecord } from './cluster-store.js';

/**
 * A session another replica owns (or owned), as the directory records it: its id, owner, status and
 * times. Named like the fields of a local Session, so the schema reads both the same way where the
 * directory knows the answer; what only the owner knows is refused with `unreachable()`.
 */
export class RemoteSession {
  readonly id: string;
  readonly replicaId: string;
  readonly epoch: number;
  readonly status: ClusterSessionStatus;
  readonly transportId: string;
  readonly startedAt: Date;
  readonly endedAt: Date | null;
  readonly #ownerUrl: string | null;

  constructor(entry: DirectoryEntry, owner: ReplicaRecord | undefined) {
    this.id = entry.id;
    this.replicaId = entry.replicaId;
    this.epoch = entry.epoch;
    this.status = entry.status;
    this.transportId = entry.transportId;
    this.startedAt = entry.startedAt;
    this.endedAt = entry.endedAt;
    this.#ownerUrl = owner?.url ?? null;
  }

  /** Why this replica cannot act on it or read more of it: its owner is gone, or it is not this one. */
  unreachable(): StagegraphError {
    return unreachable(this.id, this.status, this.replicaId, this.#ownerUrl);
  }
}

/** Where a caller learns which replicas are up and where they serve. */
export const LIST_REPLICAS = 'query { replicas { id url status sessions } }';

export function unreachable(
  id: string,
  status: ClusterSessionStatus,
  replicaId: string,
  ownerUrl: string | null,
): StagegraphError {
  const details = { session: id, replica: replicaId, url: ownerUrl };
  if (status === 'LOST')
    return new StagegraphError(
      'SESSION_LOST',
      `Session ${id} is LOST: its replica ${replicaId} lost its lease or restarted.`,
      { details, nextActions: [LIST_REPLICAS, 'query { sessions { id status replica { id } } }'] },
    );
  return new StagegraphError(
    'SESSION_REMOTE',
    `Session ${id} is owned by replica ${replicaId}${ownerUrl ? ` (${ownerUrl})` : ''}; send the operation there.`,
    { details, nextActions: [LIST_REPLICAS] },
  );
}
