import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { type Authenticate, unauthenticatedBody } from '../server/auth.js';
import { createBridgeServer } from './bridge-server.js';
import { fetchLink } from './graphql-link.js';
import { BRIDGE_VERSION } from './version.js';

export const MCP_PATH = '/mcp';

export interface McpRouteDeps {
  readonly graphqlPath: string;
  /** The gateway's own GraphQL handler (yoga's fetch): operations run in-process, as the caller. */
  readonly execute: (
    request: Request,
    serverContext: { req: IncomingMessage },
  ) => Promise<Response> | Response;
  readonly authenticate: Authenticate;
  /**
   * The gateway's one request limit (`--max-request-bytes`): the guard refuses a larger declared body
   * first; this holds a body sent without a length to the same size as it is read.
   */
  readonly maxRequestBytes: number;
  readonly log: (line: string) => void;
}

export interface McpRoute {
  (request: IncomingMessage, response: ServerResponse): boolean;
  /** Ends every MCP request still in flight. */
  close(): Promise<void>;
}

/**
 * `POST /mcp`: the bridge's tools over streamable HTTP, stateless (a server and transport per request, as
 * the SDK documents for stateless use). The request guard has already run (Host, Origin, JSON body); the
 * token is checked here like /graphql's, and every tool's operation carries the caller's Authorization
 * header into the gateway's own GraphQL handler, so governance and audit name the caller. Elicitation
 * needs a session across requests, so approvals here answer as usual (APPROVAL_*).
 */
export function mcpRoute(deps: McpRouteDeps): McpRoute {
  const open = new Set<StreamableHTTPServerTransport>();
  const route = (request: IncomingMessage, response: ServerResponse): boolean => {
    if ((request.url ?? '/').split('?')[0] !== MCP_PATH) return false;
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Only POST: this endpoint is stateless.' },
          id: null,
        }),
      );
      return true;
    }
    const authorization = request.headers.authorization;
    try {
      deps.authenticate(authorization, request.socket.remoteAddress);
    } catch (error) {
      if (!(error instanceof StagegraphError)) throw error;
      response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      response.end(unauthenticatedBody(error.message));
      return true;
    }
    const link = fetchLink(async (body, caller) => {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json',
      };
      if (caller) headers.authorization = caller;
      const graphql = new Request(`http://localhost${deps.graphqlPath}`, { method: 'POST', headers, body });
      return deps.execute(graphql, { req: request });
    }, authorization);
    const server = createBridgeServer({ link, version: BRIDGE_VERSION, log: deps.log });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      maxRequestBodySize: deps.maxRequestBytes,
    });
    open.add(transport);
    response.on('close', () => {
      open.delete(transport);
      void transport.close();
      void server.close();
    });
    void server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch((error: unknown) => {
        deps.log(`mcp request failed: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500).end();
      });
    return true;
  };
  return Object.assign(route, {
    async close() {
      await Promise.all([...open].map((transport) => transport.close()));
    },
  });
}
