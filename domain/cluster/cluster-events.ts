import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { type ConsoleStreamRequest, consoleStream, sessionEventStream } from '../events/streams.js';
import { type ConsoleEntry, matchesConsoleFilter } from '../sessions/console-log.js';
import type { SessionEvent } from '../sessions/session-event.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { Cluster } from './cluster.js';
import { type EventStreams, streamOf } from './event-streams.js';
import { SessionStreamWriter, type StreamedTopic } from './session-stream-writer.js';
import { StreamFeed } from './stream-feed.js';

/** What the console and sessionEvents subscriptions are given: where to read, and the cluster if any. */
export interface FeedSources {
  readonly hub: EventHub<SessionTopics>;
  readonly sessions: SessionRegistry;
  readonly clusterEvents?: ClusterEvents | null;
}

/** The hub's queue (synchronous, as without a cluster) or a stream's reader (once it is opened). */
type Feed<T> = SubscriberQueue<T> | Promise<StreamFeed<T>>;

/**
 * Subscriptions across replicas: this replica's sessions' events are written to their streams, and a
 * subscription to another replica's session (or one resumed with `after`) reads its stream. One per
 * replica in cluster mode; the one-process gateway has none and subscribes to its hub alone.
 */
export class ClusterEvents {
  readonly #streams: EventStreams;
  readonly #cluster: Pick<Cluster, 'session'>;
  readonly #writer: SessionStreamWriter;

  constructor(
    streams: EventStreams,
    hub: EventHub<SessionTopics>,
    cluster: Pick<Cluster, 'session'>,
    failed: (error: unknown) => void,
  ) {
    this.#streams = streams;
    this.#cluster = cluster;
    this.#writer = new SessionStreamWriter(streams, hub, failed);
  }

  /** Where an event of this replica's sessions sits in its stream; undefined for an event not streamed. */
  cursorOf(event: object): string | undefined {
    return this.#writer.cursorOf(event);
  }

  /** Reads `topic` of `sessionId` from its stream, once the cluster knows the session (else SESSION_NOT_FOUND). */
  async feed<T>(
    sessionId: string,
    topic: StreamedTopic,
    after: number | null,
    accepts: (event: T) => boolean,
  ): Promise<StreamFeed<T>> {
    await this.#cluster.session(sessionId);
    return StreamFeed.open(this.#streams, {
      stream: streamOf(sessionId, topic),
      after,
      decode: (json) => JSON.parse(json, reviveTime) as T,
      accepts,
    });
  }

  /** After the sessions ended: their last events are written before the store is closed. */
  async close(): Promise<void> {
    await this.#writer.close();
    await this.#streams.close();
  }
}

/** `console(session:, after:)`: the hub for a session of this replica, its stream otherwise. */
export function consoleFeed(
  sources: FeedSources,
  request: ConsoleStreamRequest & { readonly after?: string | null },
): Feed<ConsoleEntry> {
  const after = parseAfter(request.after, request.session, sources);
  const { clusterEvents } = sources;
  if (!clusterEvents || !request.session || (after === null && sources.sessions.find(request.session)))
    return consoleStream(sources.hub, sources.sessions, request);
  // A replay of another replica's session is what its stream still holds.
  const from = after ?? (request.replay ? 0 : null);
  return clusterEvents.feed<ConsoleEntry>(request.session, 'console', from, (entry) =>
    matchesConsoleFilter(entry, request),
  );
}

/** `sessionEvents(session:, after:)`: the hub for a session of this replica, its stream otherwise. */
export function sessionEventFeed(
  sources: FeedSources,
  sessionId: string | null | undefined,
  afterArgument: string | null | undefined,
): Feed<SessionEvent> {
  const after = parseAfter(afterArgument, sessionId, sources);
  const { clusterEvents } = sources;
  if (!clusterEvents || !sessionId || (after === null && sources.sessions.find(sessionId)))
    return sessionEventStream(sources.hub, sources.sessions, sessionId);
  return clusterEvents.feed<SessionEvent>(sessionId, 'sessionEvent', after, () => true);
}

/** A cursor a delivery carried: the event's number in its stream, as digits. */
function parseAfter(
  after: string | null | undefined,
  sessionId: string | null | undefined,
  sources: FeedSources,
): number | null {
  if (after == null) return null;
  if (!sources.clusterEvents)
    throw new StagegraphError(
      'BAD_INPUT',
      '`after` resumes a stream of the cluster; this gateway runs without --cluster. Read `Session.console(afterSeq:)` to resume.',
    );
  if (!sessionId) throw new StagegraphError('BAD_INPUT', '`after` resumes one session: give `session` too.');
  if (!/^\d{1,15}$/.test(after))
    throw new StagegraphError(
      'BAD_INPUT',
      `\`after\` takes the \`cursor\` of an event, digits; got "${after}".`,
    );
  return Number(after);
}

/** Events are written as JSON: their `time` comes back a Date, as the owner's subscribers get it. */
function reviveTime(key: string, value: unknown): unknown {
  return key === 'time' && typeof value === 'string' ? new Date(value) : value;
}
