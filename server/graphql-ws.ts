import type { Server } from 'node:http';
import type { ExecutionArgs } from 'graphql';
import type { OperationResult } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import type { GatewayContext } from '../schema/context.js';
import { tokenMatches } from './auth.js';

/** graphql-ws close code for a refused connection_init (the protocol's "Forbidden"). */
const CLOSE_FORBIDDEN = 4403;

interface EnvelopedRoot {
  execute: (args: ExecutionArgs) => OperationResult;
  subscribe: (args: ExecutionArgs) => OperationResult;
}

/**
 * graphql-ws on the same HTTP server and path as yoga, executing through `yoga.getEnveloped` so the
 * schema, context and error masking are identical over both transports.
 */
export function attachGraphqlWs(
  server: Server,
  yoga: YogaServerInstance<Record<string, unknown>, GatewayContext>,
  path: string,
  token: string | undefined,
): { close(): Promise<void> } {
  const wsServer = new WebSocketServer({ server, path });
  const disposable = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args),
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args),
      onConnect: (ctx) => {
        if (!token) return true;
        const presented = ctx.connectionParams?.authorization ?? ctx.connectionParams?.token;
        if (tokenMatches(token, typeof presented === 'string' ? presented : undefined)) return true;
        ctx.extra.socket.close(CLOSE_FORBIDDEN, 'UNAUTHENTICATED: missing or wrong token in connection_init');
        return false;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
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
  );
  return {
    async close() {
      for (const client of wsServer.clients) client.terminate();
      await disposable.dispose();
    },
  };
}
