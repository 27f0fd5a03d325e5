import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Delivery } from '../bounded/delivery.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { consoleStream, sessionEventStream } from '../events/streams.js';
import { nativeStream } from '../native/native-streams.js';
import type { NativeTopics } from '../native/session-native.js';
import { matchesNetworkQuery } from '../page-state/network-log.js';
import { dialogStream, networkStream } from '../page-state/page-state-streams.js';
import { matchesConsoleFilter } from '../sessions/console-log.js';
import type { SessionEvent } from '../sessions/session-event.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { ClusterEvents } from './cluster-events.js';
import type { ClusterSessionStatus, DirectoryEntry } from './cluster-store.js';
import { streamCursor } from './event-streams.js';
import type { StreamedTopic } from './session-stream-writer.js';
import type { StreamFeed } from './stream-feed.js';

/** What a subscription is given: where to read, and the cluster if any. */
export interface FeedSources {
  readonly hub: EventHub<SessionTopics>;
  readonly sessions: SessionRegistry;
  readonly clusterEvents?: ClusterEvents | null;
}

/** What every per-session subscription asks, besides its own filters. */
export interface TopicRequest {
  /** Only this session's events; all of this replica's sessions when absent. */
  readonly session?: string | null;
  /** Start with what is kept (for another replica's session: what its stream still holds). */
  readonly replay?: boolean | null;
  /** With a cluster: the `cursor` of the last event seen, to resume just after it. */
  readonly after?: string | null;
}

/** The hub's queue (synchronous, as without a cluster) or a stream's reader (once it is opened). */
export type Feed<T> = AsyncIterableIterator<Delivery<T>> | Promise<StreamFeed<T>>;

/** A session event as a subscriber on another replica sees it: also the loss of the session's owner. */
export interface SessionLostEvent extends Omit<SessionEvent, 'type' | 'status'> {
  readonly type: 'LOST';
  readonly status: Extract<ClusterSessionStatus, 'LOST'>;
}

/**
 * How one hub topic is subscribed to: on the owner, from its hub; elsewhere, from its session's stream
 * with the same filter. A topic's last event when the owner is lost, if it has one; else SESSION_LOST.
 */
export interface TopicFeed<K extends StreamedTopic, R extends TopicRequest, E = SessionTopics[K]> {
  readonly topic: K;
  readonly local: (
    hub: EventHub<SessionTopics>,
    sessions: SessionRegistry,
    request: R,
  ) => AsyncIterableIterator<Delivery<E>>;
  readonly accepts: (request: R) => (event: E) => boolean;
  readonly lostEvent?: (entry: DirectoryEntry) => E;
}

const everyEvent = () => () => true;

function nativeFeed<K extends keyof NativeTopics>(topic: K): TopicFeed<K, TopicRequest> {
  return {
    topic,
    local: (hub, sessions, request) => nativeStream(hub, sessions, topic, request.session),
    accepts: everyEvent,
  };
}

/** Session events; to a subscriber on another replica, the owner's loss too (the directory's LOST). */
const SESSION_EVENT_FEED: TopicFeed<'sessionEvent', TopicRequest, SessionEvent | SessionLostEvent> = {
  topic: 'sessionEvent',
  local: (hub, sessions, request) => sessionEventStream(hub, sessions, request.session),
  accepts: everyEvent,
  lostEvent: (entry) => ({
    type: 'LOST',
    sessionId: entry.id,
    time: new Date(),
    status: 'LOST',
    window: null,
    exit: null,
  }),
};

/** Every streamed topic, as its subscription reads it (the schema names the request's filters). */
export const TOPIC_FEEDS = {
  console: {
    topic: 'console',
    local: consoleStream,
    accepts: (request) => (entry) => matchesConsoleFilter(entry, request),
  } satisfies TopicFeed<'console', Parameters<typeof consoleStream>[2]>,
  sessionEvent: SESSION_EVENT_FEED,
  network: {
    topic: 'network',
    local: networkStream,
    accepts: (request) => (entry) => matchesNetworkQuery(entry, request),
  } satisfies TopicFeed<'network', Parameters<typeof networkStream>[2]>,
  dialog: {
    topic: 'dialog',
    local: dialogStream,
    accepts: everyEvent,
  } satisfies TopicFeed<'dialog', Parameters<typeof dialogStream>[2]>,
  notification: nativeFeed('notification'),
  nativeDialog: nativeFeed('nativeDialog'),
  ipc: nativeFeed('ipc'),
  contextMenu: nativeFeed('contextMenu'),
} as const satisfies {
  // Each entry is checked as a TopicFeed of its own request type above; here only that every topic has one.
  readonly [K in StreamedTopic]: Partial<Record<keyof TopicFeed<K, never>, unknown>> & { readonly topic: K };
};

/**
 * A subscription to `spec`'s topic: the hub for a session of this replica (or every one of its sessions),
 * the session's stream for another replica's session or a resume with `after`.
 */
export function topicFeed<K extends StreamedTopic, R extends TopicRequest, E>(
  sources: FeedSources,
  spec: TopicFeed<K, R, E>,
  request: R,
): Feed<E> {
  const after = parseAfter(request.after, request.session, sources);
  const { clusterEvents } = sources;
  if (!clusterEvents || !request.session || (after === null && sources.sessions.find(request.session)))
    return spec.local(sources.hub, sources.sessions, request);
  // A replay of another replica's session is what its stream still holds.
  return clusterEvents.feed<E>({
    sessionId: request.session,
    topic: spec.topic,
    after: after ?? (request.replay ? 0 : null),
    accepts: spec.accepts(request),
    lostEvent: spec.lostEvent,
  });
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
  return streamCursor(after);
}
