import type { ReplicaSummary, SessionSummary, SessionsView } from './session-summary.js';

/** The sessions of one replica, under it; `replica` is null for an owner the cluster no longer lists. */
export interface ReplicaGroup {
  id: string;
  replica: ReplicaSummary | null;
  sessions: SessionSummary[];
}

/**
 * The session list of a cluster, one group per replica that has sessions, in the order the gateway lists
 * its replicas (the one answering first); an owner missing from that list comes last, under its id.
 */
export function groupByReplica(view: SessionsView): ReplicaGroup[] {
  const groups = new Map<string, ReplicaGroup>(
    view.replicas.map((replica) => [replica.id, { id: replica.id, replica, sessions: [] }]),
  );
  for (const session of view.sessions) {
    const id = session.replica ?? '';
    let group = groups.get(id);
    if (!group) {
      group = { id, replica: null, sessions: [] };
      groups.set(id, group);
    }
    group.sessions.push(session);
  }
  return [...groups.values()].filter((group) => group.sessions.length > 0);
}

/** How a replica is named on the page: its id, and which one is the replica serving the page. */
export function replicaLabel(group: { id: string; replica: ReplicaSummary | null }): string {
  if (group.replica?.self) return `Replica ${group.id} (this replica)`;
  return group.replica ? `Replica ${group.id}` : `Replica ${group.id || 'unknown'} (no longer listed)`;
}
