import type { Capability } from '../../transports/contract/capabilities.js';
import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { Session } from '../sessions/session.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { DialogEntry } from './dialogs.js';
import { matchesNetworkQuery, type NetworkEntry, type NetworkQuery } from './network-log.js';

export interface CaptureStreamRequest {
  /** Only this session's events; when absent, every session whose transport has the stream's capability. */
  readonly session?: string | null;
  /** Deliver the buffered entries first, then live ones, with no gap or repeat between them. */
  readonly replay?: boolean | null;
}

/**
 * The sessions a stream covers: the named one (the schema has already refused it if it lacks `capability`),
 * or, without a name, every session whose transport has `capability` — checked per event's source, so a
 * session launched later on such a transport is covered too and one on a transport without it never is.
 */
function streamSources(sessions: SessionRegistry, sessionId: string | undefined, capability: Capability) {
  if (sessionId !== undefined) {
    const scope = [sessions.get(sessionId)];
    return { scope, covers: (source: string) => source === sessionId };
  }
  const able = (session: Session) => session.capabilities[capability];
  return {
    scope: sessions.list().filter(able),
    covers: (source: string) => sessions.list().some((session) => session.id === source && able(session)),
  };
}

export function networkStream(
  hub: EventHub<SessionTopics>,
  sessions: SessionRegistry,
  request: CaptureStreamRequest & NetworkQuery,
): SubscriberQueue<NetworkEntry> {
  const { scope, covers } = streamSources(sessions, request.session ?? undefined, 'INTERCEPT');
  const matches = (entry: NetworkEntry) => matchesNetworkQuery(entry, request);
  // Snapshot and subscribe in one synchronous step: no entry can be published in between.
  const buffered = request.replay
    ? scope.flatMap((session) => session.pageState.network.log.snapshot({}, matches).entries)
    : [];
  const queue = hub.subscribe('network', {
    accepts: (entry) => covers(entry.sessionId) && matches(entry),
  });
  for (const entry of buffered) queue.push(entry);
  return queue;
}

export function dialogStream(
  hub: EventHub<SessionTopics>,
  sessions: SessionRegistry,
  request: CaptureStreamRequest,
): SubscriberQueue<DialogEntry> {
  const { scope, covers } = streamSources(sessions, request.session ?? undefined, 'DIALOGS');
  const buffered = request.replay
    ? scope.flatMap((session) => session.pageState.dialogs.log.snapshot({}).entries)
    : [];
  const queue = hub.subscribe('dialog', { accepts: (entry) => covers(entry.sessionId) });
  for (const entry of buffered) queue.push(entry);
  return queue;
}
