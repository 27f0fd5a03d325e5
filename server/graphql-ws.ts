import type { Server } from 'node:http';
import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { OperationResult } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import type { ClientIdentity } from '../domain/governance/client-identity.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import type { GatewayContext } from '../schema/context.js';
import type { Authenticate } from './auth.js';
import { BatchedSendWebSocket } from './batched-sends.js';
import { maskError } from './error-format.js';
import { type UpgradeGuard, verifyUpgrade } from './refusal.js';
import { SharedSubscriptions } from './shared-subscriptions.js';

/** graphql-ws close code for a refused connection_init (the protocol's "Forbidden"). */
const CLOSE_FORBIDDEN = 4403;
/** graphql-ws's own default ping interval. */
const DEFAULT_KEEP_ALIVE_MS = 12_000;

interface EnvelopedRoot {
  execute: (args: ExecutionArgs) => OperationResult;
  subscribe: (args: ExecutionArgs) => OperationResult;
}

/**
 * graphql-ws on the same HTTP server and path as yoga, executing through `yoga.getEnveloped` so the
 * schema, context and error masking are identical over both transports. Subscriptions marked to share
 * their per-event execution are mapped by SharedSubscriptions; frames leave in one write per tick.
 */
export function attachGraphqlWs(
  server: Server,
  yoga: YogaServerInstance<Record<string, unknown>, GatewayContext>,
  path: string,
  authenticate: Authenticate,
  options: {
    /** Refuses upgrades from foreign origins and hosts before the handshake (request-guard). */
    guard?: UpgradeGuard;
    keepAliveMs?: number | undefined;
    /** Where an unexpected error of a shared subscription's event goes once masked (the server's log). */
    logUnexpected?: (cause: unknown) => void;
  } = {},
): { close(): Promise<void> } {
  const { keepAliveMs = DEFAULT_KEEP_ALIVE_MS, logUnexpected, guard } = options;
  const wsServer = new WebSocketServer({
    server,
    path,
    WebSocket: BatchedSendWebSocket,
    ...(guard ? { verifyClient: verifyUpgrade(guard) } : {}),
  });
  // yoga's maskError always returns a GraphQLError (its own, or a new one): the shape graphql-ws sends.
  const shared = new SharedSubscriptions((error) => maskError(error, logUnexpected) as GraphQLError);
  // Identified once, in connection_init; every operation on the socket runs as that client.
  const clients = new WeakMap<object, ClientIdentity>();
  // Aborted when the socket closes: what its operations still wait for (an approval) is withdrawn.
  const closed = new WeakMap<object, AbortSignal>();
  // Registered before graphql-ws's own listener, so the socket knows its TCP socket before any send.
  wsServer.on('connection', (socket: BatchedSendWebSocket, request) => {
    socket.writesTo(request.socket);
    const gone = new AbortController();
    socket.once('close', () => gone.abort('the client disconnected'));
    closed.set(socket, gone.signal);
  });
  const disposable = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args),
      subscribe: (args) =>
        shared.subscribe(args, (enveloped) => (enveloped.rootValue as EnvelopedRoot).subscribe(enveloped)),
      onConnect: (ctx) => {
        const presented = ctx.connectionParams?.authorization ?? ctx.connectionParams?.token;
        try {
          const client = authenticate(
            typeof presented === 'string' ? presented : undefined,
            ctx.extra.request.socket.remoteAddress,
          );
          clients.set(ctx.extra.socket, client);
          return true;
        } catch (error) {
          if (!(error instanceof StagegraphError)) throw error;
          ctx.extra.socket.close(CLOSE_FORBIDDEN, `UNAUTHENTICATED: ${error.message}`);
          return false;
        }
      },
      onSubscribe: async (ctx, _id, payload) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
          client: clients.get(ctx.extra.socket),
          abandoned: closed.get(ctx.extra.socket),
        });
        const args: ExecutionArgs = {
          schema,
          operationName: payload.operationName ?? null,
          document: parse(payload.query),
          variableValues: payload.variables ?? null,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe } satisfies EnvelopedRoot,
        };
        const errors = validate(args.schema, args.document);
        return errors.length > 0 ? errors : args;
      },
    },
    wsServer,
    keepAliveMs,
  );
  return {
    async close() {
      for (const client of wsServer.clients) client.terminate();
      await disposable.dispose();
    },
  };
}
