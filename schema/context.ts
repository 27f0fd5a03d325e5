import type { EventHub } from '../resolvers/events/event-hub.js';
import type { ClientIdentity } from '../resolvers/governance/client-identity.js';
import type { Governance } from '../resolvers/governance/governance.js';
import type { PreviewedTarget } from '../resolvers/interaction/handover.js';
import type { SessionTopics } from '../resolvers/sessions/session-event.js';
import type { SessionRegistry } from '../resolvers/sessions/session-registry.js';

/** What every resolver may reach: the server's shared parts, and who sent this request. */
export interface GatewayContext {
  readonly sessions: SessionRegistry;
  readonly hub: EventHub<SessionTopics>;
  /**
   * Resolved from the request's token (HTTP header or graphql-ws connection_init). The server always sets
   * it; only in-process execution (benchmarks) goes without, and is then anonymous.
   */
  readonly client?: ClientIdentity;
  /**
   * The chokepoint's state. The server always sets it, except in a gateway built without governance as a
   * benchmark's reference; in-process execution without it is ungoverned.
   */
  readonly governance?: Governance | null;
  /** Set by the chokepoint for one mutation: the target it resolved to decide, for the action to reuse. */
  readonly previewedTarget?: PreviewedTarget | null;
}
