import type { AuditCheckpoints } from '../domain/cluster/audit-checkpoints.js';
import type { Cluster } from '../domain/cluster/cluster.js';
import type { ClusterEvents } from '../domain/cluster/cluster-events.js';
import type { ForwardToReplica } from '../domain/cluster/replica-forwarding.js';
import type { EventHub } from '../domain/events/event-hub.js';
import type { SessionTopics } from '../domain/events/session-topics.js';
import { ANONYMOUS_LOOPBACK, type ClientIdentity } from '../domain/governance/clients/client-identity.js';
import type { Governance } from '../domain/governance/governance.js';
import type { SessionRegistry } from '../domain/sessions/session-registry.js';
import { StagegraphError } from '../errors/stagegraph-error.js';

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
  /**
   * Aborted once the client that sent the operation can no longer receive its answer: its WebSocket
   * closed, or its HTTP request was cut off. A mutation waiting for an approval is then withdrawn.
   */
  readonly abandoned?: AbortSignal;
  /** This replica's membership with `serve --cluster`; null or absent for the one-process gateway. */
  readonly cluster?: Cluster | null;
  /** With `serve --cluster`: the session streams subscriptions to other replicas' sessions read. */
  readonly clusterEvents?: ClusterEvents | null;
  /** With `serve --cluster` and governance: this replica's audit checkpoint, for verifyAudit. */
  readonly auditCheckpoints?: AuditCheckpoints | null;
  /**
   * With `serve --cluster`: sends a request to another replica with this caller's credential, as owner
   * routing forwards (verifyClusterAudit asks each replica so).
   */
  readonly forwardToReplica?: ForwardToReplica | null;
}

/** Who sent the request: in-process execution without a client runs as the anonymous loopback client. */
export function clientOf(context: GatewayContext): ClientIdentity {
  return context.client ?? ANONYMOUS_LOOPBACK;
}

/** For the fields that read governance itself (policy, audit, approvals): there is no ungoverned answer. */
export function governanceOf(context: GatewayContext): Governance {
  if (context.governance) return context.governance;
  throw new StagegraphError('INTERNAL', 'This gateway was built without governance.');
}
