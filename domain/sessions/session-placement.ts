/** Cluster mode (domain/cluster/): ids unique across replicas, and what an id this registry lacks means. */
export interface SessionPlacement {
  idFor(sequence: number): string;
  /** Throws while this replica may not start sessions (joining, fenced). */
  assertAccepting(): void;
  /** Throws when `id` cannot be served here: held by another replica, or lost. */
  assertServes(id: string, heldHere: boolean): void;
}
