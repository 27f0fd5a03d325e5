import type { Session } from '../domain/sessions/session.js';
import type { SessionRegistry } from '../domain/sessions/session-registry.js';
import { createSessionFor } from '../domain/sessions/session-shares.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { clientOf, type GatewayContext } from './context.js';

/**
 * For the mutations that create a session: `create` runs as the requesting client's, held to the
 * server's limit of live sessions and to the client's share of it (domain/sessions/session-shares.ts).
 */
export async function sessionOfClient(
  context: GatewayContext,
  create: (sessions: SessionRegistry) => Promise<Session>,
  replica?: string | null,
): Promise<Session> {
  onThisReplica(context, replica);
  return createSessionFor(context.sessions, clientOf(context).id, () => create(context.sessions));
}

/** The `replica` argument of the mutations that create a session, as a description reads it. */
export const REPLICA_ARGUMENT =
  'In cluster mode, the replica (`replicas { id }`) the app runs on; the call is sent there. Default: the one receiving it.';

/** Another replica's call was forwarded to it by server/owner-routing.ts; one reaching here names this one. */
export function onThisReplica(context: GatewayContext, replica: string | null | undefined): void {
  if (replica == null || replica === context.cluster?.replicaId) return;
  throw new StagegraphError(
    'BAD_INPUT',
    context.cluster
      ? `Replica ${replica} is not this one (${context.cluster.replicaId}), and a forwarded call is not forwarded again.`
      : '`replica` applies only to a gateway serving with --cluster.',
  );
}
