import type { Delivery, SubscriberQueue } from '../bounded/subscriber-queue.js';
import { type ConsoleEntry, type ConsoleFilter, matchesConsoleFilter } from '../sessions/console-log.js';
import type { SessionEvent } from '../sessions/session-event.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { EventHub } from './event-hub.js';
import type { SessionTopics } from './session-topics.js';

export interface ConsoleStreamRequest extends ConsoleFilter {
  /** Only this session's entries; all sessions when absent. */
  readonly session?: string | null;
  /** Deliver the buffered entries first, then live ones, with no gap or repeat between them. */
  readonly replay?: boolean | null;
}

export function consoleStream(
  hub: EventHub<SessionTopics>,
  sessions: SessionRegistry,
  request: ConsoleStreamRequest,
): SubscriberQueue<ConsoleEntry> {
  // Resolve first so an unknown session id fails the subscription instead of streaming nothing.
  const sessionId = request.session ?? undefined;
  const scope = sessionId === undefined ? sessions.list() : [sessions.get(sessionId)];
  // Snapshot and subscribe in one synchronous step: no entry can be published in between.
  const buffered = request.replay ? scope.flatMap((session) => session.console.read(request)) : [];
  const queue = hub.subscribe('console', {
    accepts: (entry) =>
      (sessionId === undefined || entry.sessionId === sessionId) && matchesConsoleFilter(entry, request),
  });
  for (const entry of buffered) queue.push(entry);
  return queue;
}

export function sessionEventStream(
  hub: EventHub<SessionTopics>,
  sessions: SessionRegistry,
  sessionId?: string | null,
): SubscriberQueue<SessionEvent> {
  if (sessionId != null) sessions.get(sessionId);
  return hub.subscribe('sessionEvent', {
    accepts: (event) => sessionId == null || event.sessionId === sessionId,
  });
}

export type { Delivery };
