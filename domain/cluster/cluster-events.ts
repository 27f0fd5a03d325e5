import type { AuditLog } from '../audit/audit-log.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { Cluster, WritingBoot } from './cluster.js';
import type { DirectoryEntry } from './cluster-store.js';
import { ClusterTopicFeed, type TopicFeedRequest } from './cluster-topic-feed.js';
import { type ClusterTopic, ClusterTopicWriter } from './cluster-topic-writer.js';
import { clusterStreamOf, type EventStreams, type StreamedEvent, streamOf } from './event-streams.js';
import { RemoteSession, unreachable } from './remote-session.js';
import { SessionStreamWriter, type StreamedTopic } from './session-stream-writer.js';
import { StreamFeed } from './stream-feed.js';

/** One subscriber's reading of a topic of a session's stream. */
export interface StreamRequest<T> {
  readonly sessionId: string;
  readonly topic: StreamedTopic;
  /** Deliver the events after this number; null: only those appended from now on. */
  readonly after: number | null;
  readonly accepts: (event: T) => boolean;
  /** The last event of a session whose owner was lost; without it the feed ends with SESSION_LOST. */
  readonly lostEvent?: (entry: DirectoryEntry) => T;
}

/**
 * Subscriptions across replicas: this replica's sessions' events are written to their streams, and a
 * subscription to another replica's session (or one resumed with `after`) reads its stream. This
 * replica's audit records go to the cluster-wide audit stream, which every audit subscriber reads; once it
 * is fenced, neither is written any more (its hub and its audit files keep serving it alone). One per
 * replica in cluster mode; the one-process gateway has none and subscribes to its hub alone.
 */
export class ClusterEvents {
  readonly #streams: EventStreams;
  readonly #cluster: Pick<Cluster, 'session' | 'onLost' | 'replica' | 'assertServing'>;
  readonly #writer: SessionStreamWriter;
  readonly #topics: ClusterTopicWriter;
  readonly #removals: (() => void)[] = [];
  /** Where events delivered by this replica's hubs sit in a cluster-wide topic's stream, once written there. */
  readonly #topicCursors = new WeakMap<object, Promise<string | null>>();

  constructor(
    streams: EventStreams,
    hub: EventHub<SessionTopics>,
    cluster: Pick<Cluster, 'session' | 'onLost' | 'replica' | 'assertServing'> & WritingBoot,
    failed: (error: unknown) => void,
    audit: Pick<AuditLog, 'observe'> | null = null,
  ) {
    this.#streams = streams;
    this.#cluster = cluster;
    this.#writer = new SessionStreamWriter(streams, hub, cluster, failed);
    this.#topics = new ClusterTopicWriter(streams, cluster, failed);
    if (audit)
      this.#removals.push(
        audit.observe((record) => {
          void this.#topics.append('audit', record);
        }),
      );
  }

  /** The topic writer, for the parts of the cluster that publish to a cluster-wide topic themselves. */
  get topics(): ClusterTopicWriter {
    return this.#topics;
  }

  /** Notes where `event`, delivered by a hub here, sits (or will sit) in its cluster-wide topic's stream. */
  noteTopicCursor(event: object, cursor: Promise<string | null>): void {
    this.#topicCursors.set(event, cursor);
  }

  /** The cursor noted for `event`; null for one not noted (a pending request listed to a new subscriber). */
  topicCursorOf(event: object): Promise<string | null> {
    return this.#topicCursors.get(event) ?? Promise.resolve(null);
  }

  /**
   * Throws REPLICA_FENCED once this replica lost its lease: it serves no subscriber another replica's
   * session stream or a cluster-wide topic (audit, approvals), whose events it may no longer keep up with.
   */
  assertServing(): void {
    this.#cluster.assertServing();
  }

  /** The number of the newest entry of a cluster-wide topic's stream; 0 when it holds none. */
  topicNewest(topic: ClusterTopic): Promise<number> {
    return this.#streams.newest(clusterStreamOf(topic));
  }

  /** Up to `count` entries of a cluster-wide topic's stream after number `after`, as the stream holds them. */
  topicEntries(topic: ClusterTopic, after: number, count: number): Promise<StreamedEvent[]> {
    this.assertServing();
    return this.#streams.range(clusterStreamOf(topic), after, count);
  }

  /** Reads a cluster-wide topic's stream, every replica's events in the order the stream took them. */
  async topicFeed<T, U>(request: TopicFeedRequest<T, U>): Promise<ClusterTopicFeed<T, U>> {
    this.assertServing();
    return ClusterTopicFeed.open(this.#streams, request);
  }

  /** Where an event of this replica's sessions sits in its stream; undefined for an event not streamed. */
  cursorOf(event: object): string | undefined {
    return this.#writer.cursorOf(event);
  }

  /**
   * Reads a topic of a session from its stream, once the cluster knows the session (else SESSION_NOT_FOUND).
   * When the directory marks the session LOST, the feed delivers what the stream holds, then ends.
   */
  async feed<T>(request: StreamRequest<T>): Promise<StreamFeed<T>> {
    this.assertServing();
    const stream = streamOf(request.sessionId, request.topic);
    let feed: StreamFeed<T> | undefined;
    let lost: DirectoryEntry | undefined;
    // Watched before the status is read: a loss found in between is not missed.
    const unwatch = this.#cluster.onLost((entry) => {
      if (entry.id !== request.sessionId || lost) return;
      lost = entry;
      if (feed) void this.#end(feed, stream, entry, request);
    });
    try {
      const session = await this.#cluster.session(request.sessionId);
      if (!lost && session instanceof RemoteSession && session.status === 'LOST') lost = session;
      feed = await StreamFeed.open(this.#streams, {
        stream,
        after: request.after,
        decode: (json) => JSON.parse(json, reviveTime) as T,
        accepts: request.accepts,
        closed: unwatch,
      });
    } catch (error) {
      unwatch();
      throw error;
    }
    if (lost) await this.#end(feed, stream, lost, request);
    return feed;
  }

  /** After the sessions ended: their last events are written before the store is closed. */
  async close(): Promise<void> {
    for (const remove of this.#removals) remove();
    await this.#writer.close();
    await this.#topics.close();
    await this.#streams.close();
  }

  /** The owner is gone: what its stream holds now is all it will hold. */
  async #end<T>(feed: StreamFeed<T>, stream: string, entry: DirectoryEntry, request: StreamRequest<T>) {
    // Unreadable (the store is out): nothing more will be delivered anyway.
    const final = await this.#streams.newest(stream).catch(() => 0);
    const owner = this.#cluster.replica(entry.replicaId);
    feed.end(
      final,
      request.lostEvent
        ? { event: request.lostEvent(entry) }
        : { error: unreachable(entry.id, 'LOST', entry.replicaId, owner?.url ?? null) },
    );
  }
}

/** Events are written as JSON: their `time` comes back a Date, as the owner's subscribers get it. */
function reviveTime(key: string, value: unknown): unknown {
  return key === 'time' && typeof value === 'string' ? new Date(value) : value;
}
