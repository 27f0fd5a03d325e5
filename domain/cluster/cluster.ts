import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { Session } from '../sessions/session.js';
import type { SessionPlacement } from '../sessions/session-placement.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type {
  ClusterStore,
  DirectoryEntry,
  JoinAnswer,
  RenewAnswer,
  ReplicaRecord,
} from './cluster-store.js';
import { LIST_REPLICAS, RemoteSession, unreachable } from './remote-session.js';
import { type LeaseTiming, ReplicaLease } from './replica-lease.js';
import { SessionDirectory } from './session-directory.js';
import { WhileLeasesHold } from './while-leases-hold.js';

export interface ClusterSettings extends LeaseTiming {
  readonly replicaId: string;
  /** Where others reach this replica; null: the URL it serves at, known once it listens. */
  readonly advertiseUrl: string | null;
}

/**
 * What a writer to the cluster's streams and checkpoints asks of this replica: its boot, whether it is
 * fenced (then it writes nothing more), and where to say that the store refused a write as fenced.
 */
export type WritingBoot = Pick<Cluster, 'replicaId' | 'epoch' | 'fenced' | 'refusedByStore'>;

/** JOINING until the store answered the join; FENCED for good once another replica reaped this one. */
type Membership = 'JOINING' | 'MEMBER' | 'FENCED' | 'LEFT';

/**
 * One replica's membership of the cluster: its lease, its side of the session directory, and the answers
 * the session registry asks of it (SessionPlacement): cluster-wide ids, and what an id held elsewhere means.
 */
export class Cluster implements SessionPlacement {
  readonly settings: ClusterSettings;
  readonly #store: ClusterStore;
  readonly #registry: SessionRegistry;
  readonly #hub: EventHub<SessionTopics>;
  readonly #log: (line: string) => void;
  #membership: Membership = 'JOINING';
  #epoch = 0;
  /** The highest session number earlier boots issued; this boot's numbers follow it. */
  #sequenceBase = 0;
  #lease: ReplicaLease | undefined;
  #directory: SessionDirectory | undefined;
  #lastFailure = '';
  /** Each session routing found on another live replica: its owner, while the owner's lease holds. */
  readonly #owners = new WhileLeasesHold<ReplicaRecord>();
  /** The boot each sender of forwarded calls was found to be, UP, while its lease holds. */
  readonly #senders = new WhileLeasesHold<number>();
  readonly #lossListeners = new Set<(entry: DirectoryEntry) => void>();

  constructor(
    store: ClusterStore,
    settings: ClusterSettings,
    registry: SessionRegistry,
    hub: EventHub<SessionTopics>,
    log: (line: string) => void,
  ) {
    this.#store = store;
    this.settings = settings;
    this.#registry = registry;
    this.#hub = hub;
    this.#log = log;
    registry.place(this);
  }

  get replicaId(): string {
    return this.settings.replicaId;
  }

  get fenced(): boolean {
    return this.#membership === 'FENCED';
  }

  /** This boot's number, sent with every call forwarded from here so the receiver can tell a fenced boot. */
  get epoch(): number {
    return this.#epoch;
  }

  /**
   * The store refused a write of this boot's as fenced (its record DOWN, or a later boot's): a woken replica
   * learns it from its first write as it would from its next renewal, and stops at once.
   */
  refusedByStore(): void {
    this.#fence();
  }

  /** Joins with the next epoch once the server listens at `servedUrl`; the earlier boots' sessions are LOST. */
  async join(servedUrl: string): Promise<JoinAnswer> {
    const url = this.settings.advertiseUrl ?? servedUrl;
    const joinedAt = performance.now();
    const answer = await this.#store.join({ id: this.replicaId, url }, this.settings.leaseMs);
    this.#epoch = answer.epoch;
    this.#sequenceBase = answer.lastSequence;
    const owner = {
      replicaId: this.replicaId,
      epoch: answer.epoch,
      sequenceOf: (id: string) => this.#sequenceOf(id),
      failed: (error: unknown) => this.#failed(error),
      lost: (entries: readonly DirectoryEntry[]) => {
        for (const entry of entries) for (const listener of [...this.#lossListeners]) listener(entry);
      },
    };
    const directory = new SessionDirectory(this.#store, this.#registry, this.#hub, owner);
    this.#directory = directory;
    this.#lease = new ReplicaLease(
      this.#store,
      this.settings,
      {
        ...owner,
        liveSessions: () => this.#registry.list().filter((session) => session.isLive).length,
        renewed: (renewal) => this.#renewed(renewal),
        tick: () => directory.refresh(),
      },
      joinedAt,
    );
    await directory.refresh();
    this.#membership = 'MEMBER';
    this.#lease.start();
    return answer;
  }

  /** A clean shutdown, after the sessions ended: their last statuses are written, then the lease dropped. */
  async leave(): Promise<void> {
    const wasMember = this.#membership === 'MEMBER';
    this.#membership = 'LEFT';
    await this.#lease?.stop();
    await this.#directory?.stop();
    if (wasMember) await this.#store.leave(this.replicaId, this.#epoch).catch((error) => this.#failed(error));
    await this.#store.close();
  }

  /**
   * Calls `listener` with each session this replica sees marked LOST, at the lease tick that finds it
   * (within lease + one renewal of the owner's death); answers the function that stops the calls.
   */
  onLost(listener: (entry: DirectoryEntry) => void): () => void {
    this.#lossListeners.add(listener);
    return () => this.#lossListeners.delete(listener);
  }

  idFor(sequence: number): string {
    const number = this.#sequenceBase + sequence;
    this.#store.reserveSequence(this.replicaId, number).catch((error) => this.#failed(error));
    return `${this.replicaId}-s${number}`;
  }

  assertAccepting(): void {
    if (this.#membership === 'JOINING')
      throw new StagegraphError(
        'CLUSTER_UNAVAILABLE',
        `Replica ${this.replicaId} is still joining the cluster.`,
      );
    this.assertServing();
  }

  /**
   * Throws REPLICA_FENCED once this replica lost its lease: from then on it forwards nothing, serves no
   * forwarded call or relay, reads no other replica's stream and answers no other replica's approval.
   */
  assertServing(): void {
    if (this.#membership === 'FENCED') throw this.#fencedError();
  }

  /**
   * Refuses a call another replica forwarded here when either side is fenced: this one (it owns nothing
   * any more), or the sender, whose boot (`epoch`, when it said) the store no longer holds UP — the
   * sender may not know yet (woken from a pause, before its renewal answered). While the store cannot
   * say, the call is served: an outage fences nobody.
   */
  async assertForwardedBy(sender: string, epoch: number | null): Promise<void> {
    this.assertServing();
    const askedAt = performance.now();
    if (epoch !== null && this.#remembered(this.#senders, sender) === epoch) return;
    // One round trip, and none while the sender's lease and this one's surely hold: this is on the path
    // of every forwarded call.
    const named = await this.#store.replicasNamed([sender, this.replicaId]).catch(() => null);
    if (!named) return;
    const [record, self] = named;
    if (self) this.#noteSelf([self]);
    this.assertServing();
    if (record?.status === 'UP' && epoch === record.epoch)
      this.#remember(this.#senders, sender, epoch, record, askedAt);
    if (record && (record.status !== 'UP' || (epoch !== null && record.epoch !== epoch)))
      throw new StagegraphError(
        'REPLICA_FENCED',
        `Replica ${sender}, which forwarded this call, lost its lease (it is ${record.status} in epoch ${record.epoch}); the call was not run.`,
        { nextActions: [LIST_REPLICAS], details: { replica: sender, epoch: epoch ?? record.epoch } },
      );
  }

  assertServes(id: string, heldHere: boolean): void {
    if (heldHere) {
      // Another replica marked them LOST when it reaped this one: they are not resurrected here.
      if (this.#membership === 'FENCED')
        throw unreachable(id, 'LOST', this.replicaId, this.settings.advertiseUrl);
      return;
    }
    const entry = this.#directory?.cached(id);
    if (entry)
      throw unreachable(
        id,
        entry.status,
        entry.replicaId,
        this.#directory?.cachedReplica(entry.replicaId)?.url ?? null,
      );
  }

  /** Every replica the store knows, this one first. */
  async replicas(): Promise<ReplicaRecord[]> {
    const replicas = await this.#store.replicas();
    this.#noteSelf(replicas);
    return replicas.sort(
      (a, b) => Number(b.id === this.replicaId) - Number(a.id === this.replicaId) || a.id.localeCompare(b.id),
    );
  }

  /** A replica as of the last lease tick (the owner of a listed session). */
  replica(id: string): ReplicaRecord | undefined {
    return this.#directory?.cachedReplica(id);
  }

  /**
   * The live replica an operation on session `id` runs on when it is not this one: read from the store,
   * not the tick's cache, so an owner reaped a moment ago is not called. Null: here, or refused here
   * (unknown, LOST, or an owner no longer UP).
   */
  async ownerElsewhere(id: string): Promise<ReplicaRecord | null> {
    if (this.#registry.find(id)) return null;
    const remembered = this.#remembered(this.#owners, id);
    if (remembered) {
      this.assertServing();
      return remembered;
    }
    const askedAt = performance.now();
    // One round trip, and none while the owner's lease and this one's surely hold: this is on the path of
    // every operation another replica answers.
    const found = await this.#store.sessionWithOwner(id, this.replicaId);
    if (!found) return null;
    const { entry, owner, self } = found;
    this.#directory?.learnt(entry);
    if (self) this.#noteSelf([self]);
    if (entry.status === 'LOST' || entry.replicaId === this.replicaId) return null;
    if (owner?.status !== 'UP') return null;
    this.assertServing();
    this.#remember(this.#owners, id, owner, owner, askedAt);
    return owner;
  }

  /** `owner` did not answer a call: where its sessions run is read from the store again, next time. */
  unanswered(owner: ReplicaRecord): void {
    this.#owners.forgetWhere((remembered) => remembered.id === owner.id);
  }

  /** What `memo` remembers for `key`, while this replica's own lease surely holds (it was not fenced). */
  #remembered<V>(memo: WhileLeasesHold<V>, key: string): V | undefined {
    const now = performance.now();
    if (!this.#lease || now >= this.#lease.heldUntil) return undefined;
    return memo.get(key, now);
  }

  /** Remembers `value` while the lease of `holder`, read at `askedAt` with what it had left, and this replica's hold. */
  #remember<V>(
    memo: WhileLeasesHold<V>,
    key: string,
    value: V,
    holder: ReplicaRecord,
    askedAt: number,
  ): void {
    if (!this.#lease || holder.leaseLeftMs === undefined) return;
    memo.remember(
      key,
      value,
      Math.min(askedAt + holder.leaseLeftMs, this.#lease.heldUntil),
      performance.now(),
    );
  }

  /**
   * The replica named `id` when it is another one and UP; null for this one; BAD_INPUT otherwise, and
   * REPLICA_FENCED for another once this one is fenced.
   */
  async replicaElsewhere(id: string): Promise<ReplicaRecord | null> {
    if (id === this.replicaId) return null;
    this.assertServing();
    const replicas = await this.#store.replicas();
    this.#noteSelf(replicas);
    this.assertServing();
    const replica = replicas.find((record) => record.id === id);
    if (replica?.status === 'UP') return replica;
    throw new StagegraphError(
      'BAD_INPUT',
      replica
        ? `Replica ${id} is ${replica.status}: it runs nothing now.`
        : `No replica is named ${id} in this cluster.`,
      { nextActions: [LIST_REPLICAS], details: { replica: id } },
    );
  }

  /** Whether `replica`'s boot still holds its lease; true while the store cannot say (an outage reaps nobody). */
  async stillUp(replica: ReplicaRecord): Promise<boolean> {
    const named = await this.#store.replicasNamed([replica.id, this.replicaId]).catch(() => null);
    if (!named) return true;
    const [now, self] = named;
    if (self) this.#noteSelf([self]);
    return now?.status === 'UP' && now.epoch === replica.epoch;
  }

  /** The directory's sessions this registry does not hold: other replicas', and this one's earlier boots'. */
  async sessionsElsewhere(): Promise<RemoteSession[]> {
    const [entries, replicas] = await Promise.all([this.#store.sessions(), this.#store.replicas()]);
    const owners = new Map(replicas.map((replica) => [replica.id, replica]));
    return entries
      .filter((entry) => !this.#registry.find(entry.id))
      .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())
      .map((entry) => new RemoteSession(entry, owners.get(entry.replicaId)));
  }

  /** The session with `id` wherever it lives; without an id, the registry's own choice. */
  async session(id: string | null | undefined): Promise<Session | RemoteSession> {
    if (id == null || this.#registry.find(id)) return this.#registry.get(id);
    const found = await this.#store.sessionWithOwner(id, this.replicaId);
    if (!found) return this.#registry.get(id);
    this.#directory?.learnt(found.entry);
    if (found.self) this.#noteSelf([found.self]);
    return new RemoteSession(found.entry, found.owner ?? undefined);
  }

  #sequenceOf(id: string): number {
    return Number(id.slice(id.lastIndexOf('-s') + 2));
  }

  #renewed(answer: RenewAnswer): void {
    // A failure seen again after a good renewal is news, and logged again.
    this.#lastFailure = '';
    if (answer === 'RESTORED') {
      this.#log(`cluster: the store had forgotten replica ${this.replicaId}; its sessions are written again`);
      void this.#directory?.rewriteAll();
    } else if (answer === 'FENCED') this.#fence();
  }

  /**
   * Any read of the replicas that shows this boot reaped (its record DOWN, or a later boot's) fences it at
   * once: a replica woken from a pause may serve requests before its renewal timer runs.
   */
  #noteSelf(replicas: readonly ReplicaRecord[]): void {
    const own = replicas.find((record) => record.id === this.replicaId);
    if (own && (own.epoch > this.#epoch || (own.epoch === this.#epoch && own.status !== 'UP'))) this.#fence();
  }

  #fence(): void {
    if (this.#membership !== 'MEMBER') return;
    this.#membership = 'FENCED';
    this.#log(
      `cluster: replica ${this.replicaId} lost its lease (epoch ${this.#epoch}); fenced: it accepts no cluster work and writes no more events, audit records or checkpoints to the cluster until restarted (its own audit file keeps them)`,
    );
  }

  /** Logged once per distinct failure, so an outage of the store does not flood the log. */
  #failed(error: unknown): void {
    const line = error instanceof Error ? error.message : String(error);
    if (line === this.#lastFailure) return;
    this.#lastFailure = line;
    this.#log(`cluster: ${line}`);
  }

  #fencedError(): StagegraphError {
    return new StagegraphError(
      'REPLICA_FENCED',
      `Replica ${this.replicaId} lost its lease and was fenced: it starts, forwards, relays and serves nothing for the cluster until it is restarted.`,
      { nextActions: [LIST_REPLICAS], details: { replica: this.replicaId, epoch: this.#epoch } },
    );
  }
}
