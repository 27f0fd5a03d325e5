import { AuditCheckpoints } from '../domain/cluster/audit-checkpoints.js';
import { Cluster } from '../domain/cluster/cluster.js';
import { ClusterApprovals } from '../domain/cluster/cluster-approvals.js';
import { ClusterEvents } from '../domain/cluster/cluster-events.js';
import type { EventHub } from '../domain/events/event-hub.js';
import type { SessionTopics } from '../domain/events/session-topics.js';
import type { Governance } from '../domain/governance/governance.js';
import type { SessionRegistry } from '../domain/sessions/session-registry.js';
import type { ClusterConfig } from './cluster-config.js';

export interface OpenedCluster {
  readonly cluster: Cluster;
  /** The approvals shared with the other replicas; null for a gateway without governance. */
  readonly approvals: ClusterApprovals | null;
  /** This replica's audit chain as declared to the cluster; null for a gateway without governance. */
  readonly checkpoints: AuditCheckpoints | null;
}

/**
 * Connects to the cluster's Redis and places the registry's sessions (and the broker's approvals) in the
 * cluster; the replica joins once the server listens (`join`). The Redis client is imported here, on first
 * use, so a gateway started without --cluster never loads it.
 */
export async function openCluster(
  config: ClusterConfig,
  sessions: SessionRegistry,
  hub: EventHub<SessionTopics>,
  log: (line: string) => void,
  governance: Pick<Governance, 'broker' | 'audit'> | null,
): Promise<OpenedCluster> {
  const { RedisClusterStore } = await import('./redis-cluster-store.js');
  const store = await RedisClusterStore.connect(config.redisUrl, log);
  const cluster = new Cluster(store, { ...config }, sessions, hub, log);
  const approvals =
    governance &&
    new ClusterApprovals(store.approvals(), governance.broker, config.replicaId, config, log, cluster);
  const checkpoints = governance && new AuditCheckpoints(store.auditCheckpoints(), cluster, log);
  if (governance && checkpoints) governance.audit.observe((record) => checkpoints.noteRecord(record));
  return { cluster, approvals, checkpoints };
}

/**
 * The event streams of the cluster's Redis (the sessions' and the cluster-wide topics', this replica's
 * audit records among them), on a connection of their own so that a burst of events never delays a lease
 * renewal. A failed append is logged once until another failure says something else.
 */
export async function openClusterEvents(
  config: ClusterConfig,
  cluster: Cluster,
  hub: EventHub<SessionTopics>,
  log: (line: string) => void,
  governance: Pick<Governance, 'audit'> | null,
): Promise<ClusterEvents> {
  const { RedisEventStreams } = await import('./redis-event-streams.js');
  const streams = await RedisEventStreams.connect(config.redisUrl, log, config.streamBound);
  let lastFailure = '';
  const failed = (error: unknown) => {
    const line = error instanceof Error ? error.message : String(error);
    if (line !== lastFailure) log(`cluster: an event was not written to its stream: ${line}`);
    lastFailure = line;
  };
  return new ClusterEvents(streams, hub, cluster, failed, governance?.audit ?? null);
}

/**
 * Joins once the server listens at `url`, shares its approvals from then on (their events on the
 * cluster's approval stream), and says so in the start-up log.
 */
export async function joinCluster(
  { cluster, approvals }: OpenedCluster,
  events: ClusterEvents,
  url: string,
  log: (line: string) => void,
): Promise<void> {
  const { epoch, lost } = await cluster.join(url);
  await approvals?.start(epoch, events);
  const earlier = lost > 0 ? `; ${lost} live session(s) of its earlier boot marked LOST` : '';
  log(`cluster: replica ${cluster.replicaId} joined with epoch ${epoch}${earlier}`);
}
