import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { ClientDirectory, ClientIdentity } from '../domain/governance/clients/client-identity.js';
import { ERROR_CODES } from '../errors/registry.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { isLoopbackHost } from '../transports/process/loopback.js';

/** Turns a presented token into a client, or throws UNAUTHENTICATED; one rule for HTTP and WebSocket. */
export type Authenticate = (
  authorization: string | null | undefined,
  remoteAddress: string | undefined,
) => ClientIdentity;

export function authenticator(directory: ClientDirectory): Authenticate {
  return (authorization, remoteAddress) =>
    directory.resolve(authorization, {
      loopback: remoteAddress !== undefined && isLoopbackPeer(remoteAddress),
    });
}

/** Peer addresses of IPv4 clients on a dual-stack socket read `::ffff:127.0.0.1`. */
function isLoopbackPeer(address: string): boolean {
  return isLoopbackHost(address.replace(/^::ffff:/, ''));
}

export function unauthenticatedBody(message: string): string {
  return JSON.stringify({
    errors: [
      {
        message,
        extensions: {
          code: 'UNAUTHENTICATED',
          hint: ERROR_CODES.UNAUTHENTICATED.hint,
          retryable: false,
          nextActions: [],
        },
      },
    ],
  });
}

/**
 * Identifies every HTTP GraphQL request by its token, refusing a missing or wrong one with 401 and a
 * registered code; the identity is kept for the request's context. The GraphiQL page never reaches
 * yoga (graphiql-page.ts serves it, without a token, so a person can paste one into its Headers tab).
 */
export function useClientAuth(
  authenticate: Authenticate,
  identities: WeakMap<Request, ClientIdentity>,
): Plugin {
  return {
    onRequest({ request, serverContext, endResponse, fetchAPI }) {
      const peer = (serverContext as { req?: IncomingMessage } | undefined)?.req?.socket.remoteAddress;
      try {
        identities.set(request, authenticate(request.headers.get('authorization'), peer));
      } catch (error) {
        if (!(error instanceof StagegraphError)) throw error;
        endResponse(
          new fetchAPI.Response(unauthenticatedBody(error.message), {
            status: 401,
            headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' },
          }),
        );
      }
    },
  };
}
