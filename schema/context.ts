import type { EventHub } from '../resolvers/events/event-hub.js';
import type { SessionTopics } from '../resolvers/sessions/session-event.js';
import type { SessionRegistry } from '../resolvers/sessions/session-registry.js';

/** What every resolver may reach; built once per server and shared by every request. */
export interface GatewayContext {
  readonly sessions: SessionRegistry;
  readonly hub: EventHub<SessionTopics>;
}
