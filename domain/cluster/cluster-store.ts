import type { SessionStatus } from '../sessions/session-event.js';

/** A session's status as the cluster sees it: LOST once its owner's lease expired or its owner restarted. */
export type ClusterSessionStatus = SessionStatus | 'LOST';

/** UP while its lease holds; DOWN once a reaper found its lease expired; LEFT after a clean shutdown. */
export type ReplicaStatus = 'UP' | 'DOWN' | 'LEFT';

export interface ReplicaRecord {
  readonly id: string;
  /** Where other replicas and clients reach it: its --advertise-url, else the URL it serves at. */
  readonly url: string;
  /** Raised by one at every boot: a session belongs to one boot of its replica, never to a later one. */
  readonly epoch: number;
  readonly status: ReplicaStatus;
  /** Its live sessions at its last renewal. */
  readonly sessions: number;
  /** Its last renewal. */
  readonly lastSeen: Date;
  /**
   * How long its lease still held when this record was read (the store's own count down): it cannot be
   * reaped before that. Absent where the read did not ask, or the lease had lapsed.
   */
  readonly leaseLeftMs?: number;
}

/**
 * One boot of a replica, as its writes to the cluster's streams and checkpoints name it: the store refuses
 * each, in the same atomic step, once the boot was fenced — a reaper marked it DOWN, or a later boot of its
 * id joined — exactly when its renewal would answer FENCED.
 */
export interface ReplicaBoot {
  readonly replicaId: string;
  readonly epoch: number;
}

/** One session in the directory: who owns it, in which boot, and where it is in its life. */
export interface DirectoryEntry {
  readonly id: string;
  readonly replicaId: string;
  readonly epoch: number;
  readonly status: ClusterSessionStatus;
  readonly transportId: string;
  readonly startedAt: Date;
  readonly endedAt: Date | null;
}

export interface JoinAnswer {
  readonly epoch: number;
  /** Sessions of this replica's earlier boots that were still live in the directory, now LOST. */
  readonly lost: number;
  /** The highest session number this replica ever issued, so a new boot never reuses an id. */
  readonly lastSequence: number;
}

/**
 * RENEWED: the lease holds. RESTORED: the store had forgotten this replica (a Redis restarted without
 * persistence) and took it back at the same epoch; its sessions must be written again. FENCED: another
 * replica reaped this one, or a newer boot of it joined; it must stop cluster work.
 */
/** What routing reads for one session: the session, its owner, and the asking replica as the store holds it. */
export interface SessionWithOwner {
  readonly entry: DirectoryEntry;
  readonly owner: ReplicaRecord | null;
  readonly self: ReplicaRecord | null;
}

export type RenewAnswer = 'RENEWED' | 'RESTORED' | 'FENCED';

/**
 * The cluster's shared state, one atomic step per method: the port domain/cluster/ speaks, implemented over
 * Redis by the server (server/redis-cluster-store.ts). Each method rejects when the store cannot be reached
 * in time; none waits without a deadline.
 */
export interface ClusterStore {
  /** Takes the next epoch, holds the lease for `leaseMs`, and marks the earlier boots' live sessions LOST. */
  join(replica: { readonly id: string; readonly url: string }, leaseMs: number): Promise<JoinAnswer>;
  renew(replicaId: string, epoch: number, leaseMs: number, liveSessions: number): Promise<RenewAnswer>;
  /** Marks DOWN every UP replica whose lease expired, and its live sessions LOST; answers their ids. */
  reap(): Promise<string[]>;
  /**
   * Writes a session of the replica's current epoch; refused (false) once the replica is fenced or the
   * session was marked LOST, so a replica that comes back never resurrects what others gave up.
   */
  putSession(entry: DirectoryEntry, sequence: number): Promise<boolean>;
  /** Removes ended sessions the owner no longer keeps. */
  forgetSessions(ids: readonly string[]): Promise<void>;
  /** Records that `sequence` was issued, before the session it names exists. */
  reserveSequence(replicaId: string, sequence: number): Promise<void>;
  sessions(): Promise<DirectoryEntry[]>;
  /**
   * A session, its owner's record and the record of the replica asking (`selfId`; each null when the store
   * has none), read together; null for an unknown id.
   */
  sessionWithOwner(id: string, selfId: string): Promise<SessionWithOwner | null>;
  replicas(): Promise<ReplicaRecord[]>;
  /** The records of the replicas named, in their order (null for one the store does not hold), in one read. */
  replicasNamed(ids: readonly string[]): Promise<(ReplicaRecord | null)[]>;
  /** A clean shutdown: the lease is dropped and the replica marked LEFT (its sessions ended already). */
  leave(replicaId: string, epoch: number): Promise<void>;
  close(): Promise<void>;
}
