import type { Session } from '../domain/sessions/session.js';
import type { SessionRegistry } from '../domain/sessions/session-registry.js';
import { createSessionFor } from '../domain/sessions/session-shares.js';
import { clientOf, type GatewayContext } from './context.js';

/**
 * For the mutations that create a session: `create` runs as the requesting client's, held to the
 * server's limit of live sessions and to the client's share of it (domain/sessions/session-shares.ts).
 */
export function sessionOfClient(
  context: GatewayContext,
  create: (sessions: SessionRegistry) => Promise<Session>,
): Promise<Session> {
  return createSessionFor(context.sessions, clientOf(context).id, () => create(context.sessions));
}
