import type { Cluster } from '../domain/cluster/cluster.js';
import type { Session } from '../domain/sessions/session.js';
import type { SessionRegistry } from '../domain/sessions/session-registry.js';

/** `sessions`: this registry's own, then, in cluster mode, every other the directory lists. */
export async function listedSessions(
  sessions: SessionRegistry,
  cluster: Cluster | null | undefined,
): Promise<Session[]> {
  if (!cluster) return sessions.list();
  // Pothos types a Session's fields by the local class; a RemoteSession answers the directory's fields
  // under the same names, and the remoteSession gate refuses the rest.
  return [...sessions.list(), ...(await cluster.sessionsElsewhere())] as Session[];
}

/** `session(id)`: in cluster mode, wherever it lives. */
export async function sessionAnywhere(
  sessions: SessionRegistry,
  cluster: Cluster | null | undefined,
  id: string | null | undefined,
): Promise<Session> {
  return (cluster ? await cluster.session(id) : sessions.get(id)) as Session;
}
