import type { ClusterStore, RenewAnswer } from './cluster-store.js';

/** How often a replica renews its lease and reaps others' (the issue's ~2 s). */
export const RENEW_DEFAULT_MS = 2_000;
/** How long a lease holds without renewal (the issue's ~6 s): three missed renewals, not one slow one. */
export const LEASE_DEFAULT_MS = 6_000;

export interface LeaseTiming {
  readonly leaseMs: number;
  readonly renewMs: number;
}

export interface LeaseHolder {
  readonly replicaId: string;
  readonly epoch: number;
  /** Its live sessions, reported with each renewal. */
  liveSessions(): number;
  /** Each tick's answer; RESTORED asks the holder to write its sessions again. */
  renewed(answer: RenewAnswer): void;
  /** Each tick after the renewal, whatever it answered: the directory's cache refresh. */
  tick(): Promise<void>;
  /** A renewal or reap the store could not answer: logged, and retried at the next tick. */
  failed(error: unknown): void;
}

/**
 * Keeps one replica's lease: every `renewMs` it renews, then reaps the replicas whose leases expired
 * (every replica reaps: a reap is one atomic step in the store, so two reapers mark a replica once).
 * Renewals keep their rate: each is due `renewMs` after the last one was sent, not after the tick that
 * followed it (a reap and a refresh of the directory, slow on a loaded machine) — a lease of 4 s renewed
 * every 2 s was lost to that drift at load 20. Ticks never overlap: a tick that outlasts `renewMs` is
 * followed at once by the next renewal, so a slow store delays renewals rather than piling them up.
 * Once fenced it stops for good.
 */
export class ReplicaLease {
  readonly #store: ClusterStore;
  readonly #timing: LeaseTiming;
  readonly #holder: LeaseHolder;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  /** When the last renewal was sent (monotonic clock): the lease runs from no earlier. */
  #renewedAt = performance.now();
  #heldUntil: number;
  #stopped = false;

  /** `joinedAt`: when the join that took the lease was sent (monotonic clock). */
  constructor(store: ClusterStore, timing: LeaseTiming, holder: LeaseHolder, joinedAt: number) {
    this.#store = store;
    this.#timing = timing;
    this.#holder = holder;
    this.#heldUntil = joinedAt + timing.leaseMs;
  }

  /**
   * Until when (monotonic clock) the lease surely holds: a lease set by a renewal sent at `t` expires no
   * earlier than `t + leaseMs`, and no reaper marks this replica DOWN before it expires.
   */
  get heldUntil(): number {
    return this.#heldUntil;
  }

  start(): void {
    this.#schedule();
  }

  /** Stops renewing; resolves once a tick under way is done. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(): void {
    if (this.#stopped) return;
    const due = this.#renewedAt + this.#timing.renewMs - performance.now();
    this.#timer = setTimeout(
      () => {
        this.#running = this.#tick().finally(() => this.#schedule());
      },
      Math.max(0, due),
    );
  }

  async #tick(): Promise<void> {
    const holder = this.#holder;
    const sentAt = performance.now();
    this.#renewedAt = sentAt;
    try {
      const answer = await this.#store.renew(
        holder.replicaId,
        holder.epoch,
        this.#timing.leaseMs,
        holder.liveSessions(),
      );
      if (answer === 'FENCED') {
        this.#stopped = true;
        this.#heldUntil = 0;
      } else this.#heldUntil = sentAt + this.#timing.leaseMs;
      holder.renewed(answer);
      if (answer !== 'FENCED') await this.#store.reap();
      await holder.tick();
    } catch (error) {
      holder.failed(error);
    }
  }
}
