import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ApprovalBroker } from '../governance/approvals/approval-broker.js';
import type { ApprovalAnswer, ApprovalPeers } from '../governance/approvals/approval-peers.js';
import type {
  ApprovalEvent,
  ApprovalRequest,
  ApprovalResult,
} from '../governance/approvals/approval-request.js';
import type { ClientIdentity } from '../governance/clients/client-identity.js';
import { ApprovalStream, requestOf } from './approval-stream.js';
import type { Cluster } from './cluster.js';
import type { ClusterEvents } from './cluster-events.js';
import { LIST_REPLICAS } from './remote-session.js';
import type { LeaseTiming } from './replica-lease.js';
import type {
  AnswerOutcome,
  ApprovalMessage,
  RelayedAnswer,
  SharedApprovalStore,
  SharedEvent,
  SharedRequest,
} from './shared-approvals.js';

/**
 * How long an answer given here waits for the owner replica to apply it: the owner applies it within a
 * round trip; past this (its lease still held, yet silent) the answerer is told to look again.
 */
export const ANSWER_CONFIRM_MS = 15_000;
/** How often the answerer looks for the owner's outcome while it waits. */
const CONFIRM_POLL_MS = 25;
const LIST_PENDING = 'query { pendingApprovals { id operation session { id } replica { id } } }';

/**
 * One replica's side of the cluster's approvals (ApprovalPeers of its broker): requests asked here are
 * listed in the store and their events appended to the cluster's approval stream; the others' are mirrored
 * here from that stream, so an approver watching here sees them all; approvers watching anywhere make an
 * ASK here wait; and every answer, wherever it is given, is claimed in the store first — the first claim
 * wins — then applied by the request's owner, whose broker decides, keeps SESSION and APP grants, and
 * releases the waiting operation exactly as a local answer. The tick renews this replica's approver count,
 * picks up answers whose message was missed, and drops mirrored requests of replicas that died; the
 * pending list is read again only when the stream shows a gap.
 */
export class ClusterApprovals implements ApprovalPeers {
  readonly #store: SharedApprovalStore;
  readonly #broker: ApprovalBroker;
  readonly #replicaId: string;
  readonly #timing: LeaseTiming;
  readonly #log: (line: string) => void;
  readonly #fence: Pick<Cluster, 'fenced' | 'assertServing'>;
  #epoch = 0;
  #stream: ApprovalStream | null = null;
  #events: Pick<ClusterEvents, 'noteTopicCursor'> | null = null;
  /** This replica's store writes, one after the other, so the stream tells a request's events in order. */
  #writes: Promise<void> = Promise.resolve();
  /** Requests pending on other replicas, by id. */
  #elsewhere = new Map<string, ApprovalRequest>();
  /** Requests pending here, whose claimed answers the tick looks for in case a message was missed. */
  #askedHere = new Set<string>();
  #approversElsewhere = 0;
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<void> = Promise.resolve();
  #stopped = false;
  #lastFailure = '';

  constructor(
    store: SharedApprovalStore,
    broker: ApprovalBroker,
    replicaId: string,
    timing: LeaseTiming,
    log: (line: string) => void,
    fence: Pick<Cluster, 'fenced' | 'assertServing'>,
  ) {
    this.#store = store;
    this.#broker = broker;
    this.#replicaId = replicaId;
    this.#timing = timing;
    this.#log = log;
    this.#fence = fence;
  }

  /**
   * Once the replica joined with `epoch`: listens, mirrors what is pending, reads the approval stream from
   * there on, and links the broker. A store that stops answering after the join fails no start: the
   * stream's reading is opened again, and reads again what it missed.
   */
  async start(
    epoch: number,
    events: Pick<ClusterEvents, 'topics' | 'topicFeed' | 'topicNewest' | 'noteTopicCursor' | 'assertServing'>,
  ): Promise<void> {
    this.#epoch = epoch;
    this.#events = events;
    this.#stream = new ApprovalStream(events, this.#timing.renewMs, {
      mirror: (event, cursor) => {
        if (event.replicaId !== this.#replicaId) this.#mirror(event, cursor);
      },
      resync: () => this.#resync().catch((error) => this.#failed(error)),
      failed: (error) => this.#failed(error),
    });
    await this.#store.listen((message) => this.#heard(message));
    const after = await events.topicNewest('approval').catch((error) => {
      this.#failed(error);
      return 0;
    });
    await this.#resync().catch((error) => this.#failed(error));
    await this.#stream.start(after);
    this.#broker.link(this);
    this.#schedule();
  }

  /** Unlinks the broker (its requests are then its own again) and closes the store. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#broker.link(null);
    await this.#ticking;
    await this.#stream?.stop();
    await this.#writes;
    await this.#store.close();
  }

  approvers(): number {
    return this.#approversElsewhere;
  }

  pending(): ApprovalRequest[] {
    return [...this.#elsewhere.values()];
  }

  /**
   * Lists or unlists the request in the store, then appends the event to the stream: an approver
   * elsewhere who reads of a request can claim it. Its cursor is noted for the subscribers here.
   */
  published(event: ApprovalEvent): void {
    const { request, decidedBy, reason, state } = event;
    const shared: SharedEvent = {
      replicaId: this.#replicaId,
      state,
      request: sharedOf(request),
      decidedBy,
      reason,
    };
    if (state === 'PENDING') this.#askedHere.add(request.id);
    else this.#askedHere.delete(request.id);
    const stored = this.#writes.then(() =>
      state === 'PENDING'
        ? this.#store.share({ replicaId: this.#replicaId, epoch: this.#epoch, request: shared.request })
        : this.#store.withdraw(request.id),
    );
    const cursor = stored
      .catch((error) => this.#failed(error))
      .then(() => this.#stream?.append(shared) ?? null);
    this.#writes = cursor.then(() => undefined);
    this.#events?.noteTopicCursor(event, cursor);
  }

  approversChanged(): void {
    void this.#countApprovers(true).catch((error) => this.#failed(error));
  }

  /** Refused (REPLICA_FENCED) once this replica is fenced: a claim would mark an answer on another's request. */
  async answer(id: string, answer: ApprovalAnswer, client: ClientIdentity): Promise<ApprovalResult> {
    this.#fence.assertServing();
    const claim = await this.#store.claim({ id, answer, client, relayedBy: this.#replicaId });
    if (claim.kind === 'NOT_FOUND')
      throw new StagegraphError('APPROVAL_NOT_FOUND', `No approval with id ${id} is pending.`, {
        nextActions: [LIST_PENDING],
      });
    if (claim.kind === 'ANSWERED') {
      const { client: first, answer: given } = claim.by;
      throw new StagegraphError(
        'APPROVAL_ALREADY_ANSWERED',
        `Approval ${id} was already ${given.decision === 'APPROVED' ? 'approved' : 'denied'} by ${first.id}.`,
        {
          nextActions: [LIST_PENDING],
          details: { approvalId: id, decidedBy: first.id, state: given.decision },
        },
      );
    }
    if (claim.kind === 'LOST') throw lostError(id, claim.owner);
    if (claim.owner === this.#replicaId)
      return resultOf(await this.#apply({ id, answer, client, relayedBy: this.#replicaId }));
    return this.#confirmed(id, claim.owner);
  }

  /** Applies a claimed answer to a request of this replica, and tells the answerer how it went. */
  async #apply(relayed: RelayedAnswer): Promise<AnswerOutcome> {
    const { id, answer, client } = relayed;
    let outcome: AnswerOutcome;
    try {
      const result =
        answer.decision === 'APPROVED'
          ? this.#broker.approve(id, answer.scope, client)
          : this.#broker.deny(id, answer.reason, client);
      outcome = { ok: true, result };
    } catch (error) {
      if (!(error instanceof StagegraphError)) throw error;
      outcome = { ok: false, code: error.code, message: error.message };
    }
    await this.#store.reply(id, outcome);
    return outcome;
  }

  /** Waits, bounded, for the owner to apply the answer claimed here; LOST when its lease went meanwhile. */
  async #confirmed(id: string, owner: string): Promise<ApprovalResult> {
    const deadline = performance.now() + ANSWER_CONFIRM_MS;
    while (performance.now() < deadline) {
      const confirmation = await this.#store.confirmation(id);
      if (confirmation.kind === 'DONE') return resultOf(confirmation.outcome);
      if (confirmation.kind === 'LOST') throw lostError(id, confirmation.owner);
      await new Promise((resolve) => setTimeout(resolve, CONFIRM_POLL_MS));
    }
    throw new StagegraphError(
      'CLUSTER_UNAVAILABLE',
      `Replica ${owner} holds its lease but did not apply the answer to approval ${id} within ${ANSWER_CONFIRM_MS} ms.`,
      { nextActions: [LIST_PENDING, LIST_REPLICAS], details: { approvalId: id, replica: owner } },
    );
  }

  #heard(message: ApprovalMessage): void {
    if (message.kind === 'approvers') {
      void this.#countApprovers(false).catch((error) => this.#failed(error));
    } else if (message.owner === this.#replicaId) {
      void this.#pickUp(message.id);
    }
  }

  #mirror(shared: SharedEvent, cursor: string | null = null): void {
    const request = requestOf(shared.request, shared.replicaId);
    if (shared.state === 'PENDING') {
      if (this.#elsewhere.has(request.id)) return;
      this.#elsewhere.set(request.id, request);
    } else if (!this.#elsewhere.delete(request.id)) return;
    const { state, decidedBy, reason } = shared;
    const event: ApprovalEvent = { state, request, decidedBy, reason };
    this.#events?.noteTopicCursor(event, Promise.resolve(cursor));
    this.#broker.relay(event);
  }

  async #pickUp(id: string): Promise<void> {
    try {
      const relayed = await this.#store.claimed(id);
      if (relayed && this.#askedHere.has(id)) await this.#apply(relayed);
    } catch (error) {
      this.#failed(error);
    }
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#ticking = this.#tick()
        .catch((error) => this.#failed(error))
        .finally(() => this.#schedule());
    }, this.#timing.renewMs);
  }

  /**
   * Renews this replica's approver count, picks up claimed answers whose message was missed, and, while
   * requests of others are mirrored here, drops those whose replica died (nobody writes their end).
   */
  async #tick(): Promise<void> {
    await this.#countApprovers(false);
    if (this.#elsewhere.size > 0) await this.#resync();
    for (const id of this.#askedHere) await this.#pickUp(id);
    // A failure seen again after a good tick is news, and logged again.
    this.#lastFailure = '';
  }

  /** Mirrors what the store lists as pending on live replicas, and ends what it no longer lists. */
  async #resync(): Promise<void> {
    const listed = await this.#store.pending();
    const live = new Set<string>();
    for (const { replicaId, request } of listed) {
      if (replicaId === this.#replicaId) continue;
      live.add(request.id);
      this.#mirror({ replicaId, state: 'PENDING', request, decidedBy: null, reason: null });
    }
    for (const [id, request] of this.#elsewhere)
      if (!live.has(id))
        this.#mirror({
          replicaId: request.replicaId ?? '',
          state: 'CANCELLED',
          request: sharedOf(request),
          decidedBy: null,
          reason: `no longer pending on replica ${request.replicaId}`,
        });
  }

  async #countApprovers(announce: boolean): Promise<void> {
    try {
      this.#approversElsewhere = await this.#store.countApprovers(
        this.#replicaId,
        // A fenced replica's approvers can answer nothing: an ASK elsewhere does not wait for them.
        this.#fence.fenced ? 0 : this.#broker.approverCount,
        this.#timing.leaseMs,
        announce,
      );
    } catch (error) {
      // Unreachable approvers cannot answer: an ASK here does not wait for them.
      this.#approversElsewhere = 0;
      throw error;
    }
  }

  /** Logged once per distinct failure, so an outage of the store does not flood the log. */
  #failed(error: unknown): void {
    const line = error instanceof Error ? error.message : String(error);
    if (line === this.#lastFailure) return;
    this.#lastFailure = line;
    this.#log(`cluster approvals: ${line}`);
  }
}

function sharedOf(request: ApprovalRequest): SharedRequest {
  const { screenshot: _screenshot, replicaId: _replicaId, createdAt, expiresAt, ...rest } = request;
  return { ...rest, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString() };
}

function resultOf(outcome: AnswerOutcome): ApprovalResult {
  if (outcome.ok) return outcome.result;
  throw new StagegraphError(outcome.code, outcome.message, { nextActions: [LIST_PENDING] });
}

function lostError(id: string, owner: string): StagegraphError {
  return new StagegraphError(
    'SESSION_LOST',
    `Approval ${id} was asked on replica ${owner}, which lost its lease or restarted: the operation that waited for it is gone.`,
    { nextActions: [LIST_REPLICAS, LIST_PENDING], details: { approvalId: id, replica: owner } },
  );
}
