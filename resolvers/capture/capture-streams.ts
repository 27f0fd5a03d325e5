import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../sessions/session-event.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { DialogEntry } from './dialogs.js';
import { matchesNetworkQuery, type NetworkEntry, type NetworkQuery } from './network-log.js';

export interface CaptureStreamRequest {
  /** Only this session's events; all sessions when absent. */
  readonly session?: string | null;
  /** Deliver the buffered entries first, then live ones, with no gap or repeat between them. */
  readonly replay?: boolean | null;
}

export function networkStream(
  hub: EventHub<SessionTopics>,
  sessions: SessionRegistry,
  request: CaptureStreamRequest & NetworkQuery,
): SubscriberQueue<NetworkEntry> {
  const sessionId = request.session ?? undefined;
  const scope = sessionId === undefined ? sessions.list() : [sessions.get(sessionId)];
  const matches = (entry: NetworkEntry) => matchesNetworkQuery(entry, request);
  // Snapshot and subscribe in one synchronous step: no entry can be published in between.
  const buffered = request.replay
    ? scope.flatMap((session) => session.capture.network.log.snapshot({}, matches).entries)
    : [];
  const queue = hub.subscribe('network', {
    accepts: (entry) => (sessionId === undefined || entry.sessionId === sessionId) && matches(entry),
  });
  for (const entry of buffered) queue.push(entry);
  return queue;
}

export function dialogStream(
  hub: EventHub<SessionTopics>,
  sessions: SessionRegistry,
  request: CaptureStreamRequest,
): SubscriberQueue<DialogEntry> {
  const sessionId = request.session ?? undefined;
  const scope = sessionId === undefined ? sessions.list() : [sessions.get(sessionId)];
  const buffered = request.replay
    ? scope.flatMap((session) => session.capture.dialogs.log.snapshot({}).entries)
    : [];
  const queue = hub.subscribe('dialog', {
    accepts: (entry) => sessionId === undefined || entry.sessionId === sessionId,
  });
  for (const entry of buffered) queue.push(entry);
  return queue;
}
