import { Cluster } from '../domain/cluster/cluster.js';
import type { EventHub } from '../domain/events/event-hub.js';
import type { SessionTopics } from '../domain/events/session-topics.js';
import type { SessionRegistry } from '../domain/sessions/session-registry.js';
import type { ClusterConfig } from './cluster-config.js';

/**
 * Connects to the cluster's Redis and places the registry's sessions in the cluster; the replica joins once
 * the server listens (`join`). The Redis client is imported here, on first use, so a gateway started
 * without --cluster never loads it.
 */
export async function openCluster(
  config: ClusterConfig,
  sessions: SessionRegistry,
  hub: EventHub<SessionTopics>,
  log: (line: string) => void,
): Promise<Cluster> {
  const { RedisClusterStore } = await import('./redis-cluster-store.js');
  const store = await RedisClusterStore.connect(config.redisUrl, log);
  return new Cluster(store, { ...config }, sessions, hub, log);
}

/** Joins once the server listens at `url`, and says so in the start-up log. */
export async function joinCluster(cluster: Cluster, url: string, log: (line: string) => void): Promise<void> {
  const { epoch, lost } = await cluster.join(url);
  const earlier = lost > 0 ? `; ${lost} live session(s) of its earlier boot marked LOST` : '';
  log(`cluster: replica ${cluster.replicaId} joined with epoch ${epoch}${earlier}`);
}
