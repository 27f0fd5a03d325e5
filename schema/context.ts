import type { EventHub } from '../domain/events/event-hub.js';
import type { ClientIdentity } from '../domain/governance/client-identity.js';
import type { Governance } from '../domain/governance/governance.js';
import type { PreviewedTarget } from '../domain/interaction/handover.js';
import type { SessionTopics } from '../domain/sessions/session-event.js';
import type { SessionRegistry } from '../domain/sessions/session-registry.js';

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
