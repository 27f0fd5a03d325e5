import type { AuditCheckpoint } from '../audit/verify-audit.js';

/** Where each replica's last audit record is declared, outside its own disk (Redis in cluster mode). */
export interface AuditCheckpointStore {
  /** Keeps `checkpoint` for the replica when its seq is above the one kept; a lower one changes nothing. */
  raise(replicaId: string, checkpoint: AuditCheckpoint): Promise<void>;
  read(replicaId: string): Promise<AuditCheckpoint | null>;
}

/**
 * A replica's audit chain declared to the cluster as it grows: the seq and hash of its latest record, so
 * that `verifyAudit` can tell a chain whose tail was cut (it ends before the checkpoint) or that was
 * rewritten (another hash at the checkpoint's seq) — damage a chain recomputed from its own files cannot
 * show, since a cut chain is still a valid chain. Writes are coalesced: one in flight, then the latest.
 */
export class AuditCheckpoints {
  readonly #store: AuditCheckpointStore;
  readonly #replicaId: string;
  readonly #log: (line: string) => void;
  #latest: AuditCheckpoint | null = null;
  #writing: Promise<void> | null = null;
  #lastFailure = '';

  constructor(store: AuditCheckpointStore, replicaId: string, log: (line: string) => void) {
    this.#store = store;
    this.#replicaId = replicaId;
    this.#log = log;
  }

  /** A record was sealed into this replica's chain. */
  noteRecord(record: AuditCheckpoint): void {
    this.#latest = { seq: record.seq, hash: record.hash };
    this.#writing ??= this.#drain();
  }

  /** This replica's checkpoint once the writes already noted have been made (CLUSTER_UNAVAILABLE without Redis). */
  async current(): Promise<AuditCheckpoint | null> {
    await this.#writing;
    return this.#store.read(this.#replicaId);
  }

  /** What the cluster holds as `replicaId`'s last record, as that replica last declared it. */
  of(replicaId: string): Promise<AuditCheckpoint | null> {
    return replicaId === this.#replicaId ? this.current() : this.#store.read(replicaId);
  }

  async #drain(): Promise<void> {
    while (this.#latest) {
      const next = this.#latest;
      this.#latest = null;
      try {
        await this.#store.raise(this.#replicaId, next);
        this.#lastFailure = '';
      } catch (error) {
        // The next record raises it again; meanwhile the checkpoint is behind, which only weakens the check.
        const line = error instanceof Error ? error.message : String(error);
        if (line !== this.#lastFailure) this.#log(`cluster: the audit checkpoint was not written: ${line}`);
        this.#lastFailure = line;
      }
    }
    this.#writing = null;
  }
}
