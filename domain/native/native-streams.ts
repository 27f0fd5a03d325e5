import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { SessionRegistry } from '../sessions/session-registry.js';

type NativeTopic = 'contextMenu' | 'notification' | 'nativeDialog' | 'ipc';

/** One native topic, for one session or all; an unknown session id fails the subscription up front. */
export function nativeStream<K extends NativeTopic>(
  hub: EventHub<SessionTopics>,
  sessions: SessionRegistry,
  topic: K,
  sessionId?: string | null,
): SubscriberQueue<SessionTopics[K]> {
  if (sessionId != null) sessions.get(sessionId);
  return hub.subscribe(topic, {
    accepts: (event) => sessionId == null || event.sessionId === sessionId,
  });
}
