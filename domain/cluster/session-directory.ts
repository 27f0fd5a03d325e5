import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { Session } from '../sessions/session.js';
import type { SessionEvent } from '../sessions/session-event.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { ClusterStore, DirectoryEntry, ReplicaRecord } from './cluster-store.js';

export interface DirectoryOwner {
  readonly replicaId: string;
  readonly epoch: number;
  /** The session number within this replica's ids, recorded with the entry (`b-s7` → 7). */
  sequenceOf(id: string): number;
  failed(error: unknown): void;
  /** Sessions the store marked LOST since the last refresh (their owner was reaped, or restarted). */
  lost(entries: readonly DirectoryEntry[]): void;
}

/**
 * This replica's side of the session directory: every local session is written to the store when its
 * status changes (from the hub's session events), and the store's view of the whole cluster is cached at
 * each lease tick so that a session id can be placed synchronously (SessionRegistry.get). The sessions a
 * refresh finds newly LOST are told to the owner (`lost`).
 */
export class SessionDirectory {
  readonly #store: ClusterStore;
  readonly #registry: SessionRegistry;
  readonly #owner: DirectoryOwner;
  readonly #events: SubscriberQueue<SessionEvent>;
  readonly #dirty = new Set<string>();
  #flushing: Promise<void> = Promise.resolve();
  #cachedSessions = new Map<string, DirectoryEntry>();
  #cachedReplicas = new Map<string, ReplicaRecord>();
  readonly #consumed: Promise<void>;

  constructor(
    store: ClusterStore,
    registry: SessionRegistry,
    hub: EventHub<SessionTopics>,
    owner: DirectoryOwner,
  ) {
    this.#store = store;
    this.#registry = registry;
    this.#owner = owner;
    this.#events = hub.subscribe('sessionEvent');
    this.#consumed = this.#consume();
  }

  /** After the store forgot this replica (RESTORED): every local session is written again. */
  rewriteAll(): Promise<void> {
    for (const session of this.#registry.list()) this.#dirty.add(session.id);
    return this.#flush();
  }

  /** Refreshes the cached view, and drops from the store the ended sessions the registry forgot. */
  async refresh(): Promise<void> {
    if (this.#dirty.size > 0) await this.#flush();
    const [entries, replicas] = await Promise.all([this.#store.sessions(), this.#store.replicas()]);
    const before = this.#cachedSessions;
    this.#cachedSessions = new Map(entries.map((entry) => [entry.id, entry]));
    // Whichever replica reaped the owner, each learns of the loss here, at its own next tick.
    const lost = entries.filter(
      (entry) => entry.status === 'LOST' && before.get(entry.id)?.status !== 'LOST',
    );
    if (lost.length > 0) this.#owner.lost(lost);
    this.#cachedReplicas = new Map(replicas.map((replica) => [replica.id, replica]));
    const forgotten = entries
      .filter((entry) => this.#isOwn(entry) && !this.#registry.find(entry.id))
      .map((entry) => entry.id);
    if (forgotten.length > 0) await this.#store.forgetSessions(forgotten);
  }

  /**
   * An entry read from the store between ticks: a session found LOST is cached as LOST at once (and told to
   * the owner as a refresh would), so this replica's answers agree with what it just read. LOST is final,
   * so nothing a later refresh reads can contradict it.
   */
  learnt(entry: DirectoryEntry): void {
    if (entry.status !== 'LOST' || this.#cachedSessions.get(entry.id)?.status === 'LOST') return;
    this.#cachedSessions.set(entry.id, entry);
    this.#owner.lost([entry]);
  }

  /** The directory's entry for `id` as of the last refresh. */
  cached(id: string): DirectoryEntry | undefined {
    return this.#cachedSessions.get(id);
  }

  cachedReplica(id: string): ReplicaRecord | undefined {
    return this.#cachedReplicas.get(id);
  }

  /**
   * Stops following the sessions; resolves once what they last did is written. Every session is written,
   * not only those with events still queued: closing the queue drops what it holds.
   */
  async stop(): Promise<void> {
    this.#events.close();
    await this.#consumed;
    await this.rewriteAll();
  }

  #isOwn(entry: DirectoryEntry): boolean {
    return entry.replicaId === this.#owner.replicaId && entry.epoch === this.#owner.epoch;
  }

  async #consume(): Promise<void> {
    for await (const { event, droppedBefore } of this.#events) {
      // A burst past the queue's bound lost events, not sessions: write them all.
      if (droppedBefore > 0) for (const session of this.#registry.list()) this.#dirty.add(session.id);
      this.#dirty.add(event.sessionId);
      void this.#flush();
    }
  }

  /** Writes the sessions marked since the last flush; one flush at a time, in order. */
  #flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      const ids = [...this.#dirty];
      this.#dirty.clear();
      for (const id of ids) {
        const session = this.#registry.find(id);
        if (session) await this.#write(session);
      }
    });
    return this.#flushing;
  }

  async #write(session: Session): Promise<void> {
    const entry: DirectoryEntry = {
      id: session.id,
      replicaId: this.#owner.replicaId,
      epoch: this.#owner.epoch,
      status: session.status,
      transportId: session.transportId,
      startedAt: session.startedAt,
      endedAt: session.endedAt,
    };
    try {
      await this.#store.putSession(entry, this.#owner.sequenceOf(session.id));
    } catch (error) {
      // Written again at the next change, or all at once when the store is back (RESTORED).
      this.#dirty.add(session.id);
      this.#owner.failed(error);
    }
  }
}
