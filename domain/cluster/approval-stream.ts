import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import type { ApprovalBroker } from '../governance/approvals/approval-broker.js';
import type { ApprovalEvent, ApprovalRequest } from '../governance/approvals/approval-request.js';
import type { ClientIdentity } from '../governance/clients/client-identity.js';
import type { ClusterEvents } from './cluster-events.js';
import type { ClusterTopicFeed } from './cluster-topic-feed.js';
import { streamCursor } from './event-streams.js';
import type { SharedEvent, SharedRequest } from './shared-approvals.js';
import type { CursoredDelivery } from './stream-feed.js';

type Streams = Pick<ClusterEvents, 'topics' | 'topicFeed' | 'assertServing'>;

export interface ApprovalStreamHandlers {
  /** An event of the stream, this replica's own included, with its cursor there. */
  readonly mirror: (event: SharedEvent, cursor: string | null) => void;
  /** Events were lost before the next one (trimmed, or never written): read again what is pending. */
  readonly resync: () => Promise<void>;
  readonly failed: (error: unknown) => void;
}

/**
 * The approval events of every replica on the cluster's approval stream: each replica appends its own
 * requests' events, and reads the stream from its join on to mirror the others'. A reading that fails
 * (Redis out) is opened again after `retryMs`, from the last event it read, so nothing is read twice or
 * skipped; events lost meanwhile (trimmed, or not written) come as a gap, and the handler reads the pending
 * requests again instead of trusting the mirror.
 */
export class ApprovalStream {
  readonly #streams: Streams;
  readonly #retryMs: number;
  readonly #handlers: ApprovalStreamHandlers;
  #feed: ClusterTopicFeed<SharedEvent, SharedEvent> | null = null;
  #running: Promise<void> = Promise.resolve();
  #wake: () => void = () => {};
  #stopped = false;

  constructor(streams: Streams, retryMs: number, handlers: ApprovalStreamHandlers) {
    this.#streams = streams;
    this.#retryMs = retryMs;
    this.#handlers = handlers;
  }

  /** Appends this replica's event; resolves with its cursor, or null when it was not written. */
  async append(event: SharedEvent): Promise<string | null> {
    const number = await this.#streams.topics.append('approval', event);
    return number === null ? null : String(number);
  }

  /** Reads from the stream's newest event on, until `stop`. */
  async start(after: number): Promise<void> {
    this.#running = this.#read(after);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake();
    await this.#feed?.return();
    await this.#running;
  }

  async #read(from: number): Promise<void> {
    let after = from;
    while (!this.#stopped) {
      try {
        this.#feed = await this.#streams.topicFeed<SharedEvent, SharedEvent>({
          topic: 'approval',
          after,
          shape: (event) => event,
          accepts: () => true,
        });
        if (this.#stopped) await this.#feed.return();
        for await (const { event, droppedBefore, cursor } of this.#feed) {
          if (cursor) after = Number(cursor);
          if (droppedBefore > 0) await this.#handlers.resync();
          this.#handlers.mirror(event, cursor ?? null);
        }
      } catch (error) {
        if (this.#stopped) return;
        this.#handlers.failed(error);
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          setTimeout(resolve, this.#retryMs);
        });
      }
    }
  }
}

/**
 * `approvalRequests(after:)` in a cluster: the approval stream's events after the cursor, then live ones,
 * each with its replica. The broker's own subscription is held meanwhile, unread: it checks the client
 * may watch, and counts an approver, so an ASK anywhere waits for this one; its queue is bounded.
 */
export async function approvalStreamFeed(
  broker: ApprovalBroker,
  clusterEvents: Streams,
  client: ClientIdentity,
  after: string,
): Promise<AsyncIterableIterator<CursoredDelivery<ApprovalEvent>>> {
  const from = streamCursor(after) ?? 0;
  const watching = broker.subscribe(client);
  try {
    const feed = await clusterEvents.topicFeed<SharedEvent, ApprovalEvent>({
      topic: 'approval',
      after: from,
      shape: (event) => ({
        state: event.state,
        request: localRequest(broker, client, event.request.id) ?? requestOf(event.request, event.replicaId),
        decidedBy: event.decidedBy,
        reason: event.reason,
      }),
      accepts: () => true,
    });
    const stream: AsyncIterableIterator<CursoredDelivery<ApprovalEvent>> = {
      next: () => feed.next(),
      return: async () => {
        watching.close();
        return feed.return();
      },
      [Symbol.asyncIterator]: () => stream,
    };
    return stream;
  } catch (error) {
    watching.close();
    throw error;
  }
}

/** The request as the broker holds it while it waits here, with its screenshot. */
function localRequest(
  broker: ApprovalBroker,
  client: ClientIdentity,
  id: string,
): ApprovalRequest | undefined {
  return broker.pending(client).find((request) => request.id === id && request.replicaId === undefined);
}

/** Another replica's request as this broker shows it; its screenshot stays on its owner. */
export function requestOf(shared: SharedRequest, replicaId: string): ApprovalRequest {
  return {
    ...shared,
    createdAt: new Date(shared.createdAt),
    expiresAt: new Date(shared.expiresAt),
    screenshot: Promise.resolve(null),
    replicaId,
  };
}

/**
 * `approvalRequests`: the broker's subscription (pending requests first, then every replica's events as
 * they are told here), or with `after` in a cluster the approval stream from that cursor on.
 */
export function approvalFeed(
  broker: ApprovalBroker,
  clusterEvents: Streams | null | undefined,
  client: ClientIdentity,
  after: string | null | undefined,
): SubscriberQueue<ApprovalEvent> | Promise<AsyncIterableIterator<CursoredDelivery<ApprovalEvent>>> {
  clusterEvents?.assertServing();
  if (after == null) return broker.subscribe(client);
  if (!clusterEvents)
    throw new StagegraphError(
      'BAD_INPUT',
      '`after` resumes the approval stream of a cluster; this gateway runs without --cluster. Subscribe without it: the requests still pending come first.',
    );
  return approvalStreamFeed(broker, clusterEvents, client, after);
}
