import type { AuditCheckpoint } from '../audit/verify-audit.js';
import type { WritingBoot } from './cluster.js';
import type { ReplicaBoot } from './cluster-store.js';

/** Where each replica's last audit record is declared, outside its own disk (Redis in cluster mode). */
export interface AuditCheckpointStore {
  /**
   * Keeps `checkpoint` for the boot's replica when its seq is above the one kept (a lower one changes
   * nothing); answers false, having changed nothing, when `boot` is fenced.
   */
  raise(boot: ReplicaBoot, checkpoint: AuditCheckpoint): Promise<boolean>;
  read(replicaId: string): Promise<AuditCheckpoint | null>;
}

/**
 * A replica's audit chain declared to the cluster as it grows: the seq and hash of its latest record, so
 * that `verifyAudit` can tell a chain whose tail was cut (it ends before the checkpoint) or that was
 * rewritten (another hash at the checkpoint's seq) — damage a chain recomputed from its own files cannot
 * show, since a cut chain is still a valid chain. Writes are coalesced: one in flight, then the latest.
 * A fenced boot declares nothing more: the checkpoint under its id may be a later boot's by then, and its
 * own records after the fence stay in its files (a chain longer than its checkpoint still verifies). A
 * write made before it learnt it is refused by the store if the boot was fenced by then, which fences it.
 */
export class AuditCheckpoints {
  readonly #store: AuditCheckpointStore;
  readonly #boot: WritingBoot;
  readonly #log: (line: string) => void;
  #latest: AuditCheckpoint | null = null;
  #writing: Promise<void> | null = null;
  #lastFailure = '';

  constructor(store: AuditCheckpointStore, boot: WritingBoot, log: (line: string) => void) {
    this.#store = store;
    this.#boot = boot;
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
    return this.#store.read(this.#boot.replicaId);
  }

  /** What the cluster holds as `replicaId`'s last record, as that replica last declared it. */
  of(replicaId: string): Promise<AuditCheckpoint | null> {
    return replicaId === this.#boot.replicaId ? this.current() : this.#store.read(replicaId);
  }

  async #drain(): Promise<void> {
    while (this.#latest) {
      const next = this.#latest;
      this.#latest = null;
      if (this.#boot.fenced) break;
      try {
        if (!(await this.#store.raise(this.#boot, next))) this.#boot.refusedByStore();
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
