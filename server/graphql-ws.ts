import type { Server } from 'node:http';
import { type ExecutionArgs, type ExecutionResult, GraphQLError, getOperationAST } from 'graphql';
import type { OperationResult, SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import type { ClientIdentity } from '../domain/governance/clients/client-identity.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import type { GatewayContext } from '../schema/context.js';
import type { Authenticate } from './auth.js';
import { BatchedSendWebSocket } from './batched-sends.js';
import { admitSubscription } from './client-subscriptions.js';
import { maskError } from './error-format.js';
import { FORWARDED_BY_HEADER, type OwnersAnswer } from './owner-routing.js';
import { type UpgradeGuard, verifyUpgrade } from './refusal.js';
import { jsonNestsWithin, MAX_JSON_NESTING } from './request-parsing.js';
import { SharedSubscriptions } from './shared-subscriptions.js';
import { RelayedErrors, type RelayRoute, type SubscriptionRelay } from './subscription-relay.js';

/** graphql-ws close code for a refused connection_init (the protocol's "Forbidden"). */
const CLOSE_FORBIDDEN = 4403;
/** graphql-ws's own default ping interval. */
const DEFAULT_KEEP_ALIVE_MS = 12_000;
/** RFC 6455's close code for a message over the size the endpoint accepts; ws closes with it past maxPayload. */
const CLOSE_MESSAGE_TOO_BIG = 1009;
/** graphql-ws's close code for a client's protocol violation. */
const CLOSE_BAD_REQUEST = 4400;
/**
 * Messages only a server may send. graphql-ws throws on one from a client, logs the stack as a fault of the
 * server's and closes with 4500, its internal error: they are refused as the violation they are first.
 */
const SERVER_ONLY_MESSAGES = new Set(['next', 'error', 'connection_ack']);

/** A subscription to be relayed to its session's owner, with what the owner is sent. */
interface Relayed {
  readonly route: RelayRoute;
  readonly payload: SubscribePayload;
  readonly authorization: string | undefined;
}

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
    /** The most bytes one message may carry; a larger one closes the socket with 1009 unread. */
    maxPayload: number;
    /** Where an unexpected error of a shared subscription's event goes once masked (the server's log). */
    logUnexpected?: (cause: unknown) => void;
    /** In cluster mode: the subscriptions whose events stay on their session's owner are relayed there. */
    relay?: SubscriptionRelay;
    /** In cluster mode: a query or mutation of another replica's session is answered by its owner. */
    owners?: OwnersAnswer;
  },
): { close(): Promise<void> } {
  const { keepAliveMs = DEFAULT_KEEP_ALIVE_MS, logUnexpected, guard, maxPayload, relay, owners } = options;
  const wsServer = new WebSocketServer({
    server,
    path,
    maxPayload,
    WebSocket: limitedSocket(maxPayload),
    ...(guard ? { verifyClient: verifyUpgrade(guard) } : {}),
  });
  // yoga's maskError always returns a GraphQLError (its own, or a new one): the shape graphql-ws sends.
  const shared = new SharedSubscriptions((error) => maskError(error, logUnexpected) as GraphQLError);
  // Identified once, in connection_init; every operation on the socket runs as that client.
  const clients = new WeakMap<object, ClientIdentity>();
  // Aborted when the socket closes: what its operations still wait for (an approval) is withdrawn.
  const closed = new WeakMap<object, AbortSignal>();
  const closedSignal = (socket: object) => closed.get(socket) ?? new AbortController().signal;
  // Keyed by the arguments onSubscribe returned: graphql-ws hands the same object to subscribe and onNext.
  const relayed = new WeakMap<ExecutionArgs, Relayed>();
  // A query or mutation its session's owner answered, keyed the same way: execute sends the owner's answer.
  const answered = new WeakMap<ExecutionArgs, ExecutionResult>();
  // Registered before graphql-ws's own listener, so the socket knows its TCP socket before any send.
  wsServer.on('connection', (socket: BatchedSendWebSocket, request) => {
    socket.writesTo(request.socket);
    const gone = new AbortController();
    socket.once('close', () => gone.abort('the client disconnected'));
    closed.set(socket, gone.signal);
  });
  const disposable = useServer(
    {
      execute: (args) => answered.get(args) ?? (args.rootValue as EnvelopedRoot).execute(args),
      subscribe: (args) => {
        const relaying = relayed.get(args);
        if (relay && relaying) return relayedStream(relay, relaying, args);
        return shared.subscribe(args, (enveloped) =>
          (enveloped.rootValue as EnvelopedRoot).subscribe(enveloped),
        );
      },
      onConnect: async (ctx) => {
        const presented = presentedCredential(ctx.connectionParams);
        try {
          await relay?.assertForwardedFrom(ctx.extra.request.headers);
          const client = authenticate(presented, ctx.extra.request.socket.remoteAddress);
          clients.set(ctx.extra.socket, client);
          return true;
        } catch (error) {
          if (!(error instanceof StagegraphError)) throw error;
          ctx.extra.socket.close(CLOSE_FORBIDDEN, closeReason(`${error.code}: ${error.message}`));
          return false;
        }
      },
      // Variables that do not fit come back from yoga's executor with their HTTP status attached; a relayed
      // or forwarded result is the owner's, sent as the owner sent it.
      onNext: (_ctx, _id, _payload, args, result) =>
        relayed.has(args) || answered.has(args)
          ? result
          : result.errors?.some((error) => error.extensions?.http)
            ? { ...result, errors: result.errors.map((error) => withoutHttp(error as GraphQLError)) }
            : undefined,
      // A subscription whose stream fails (a session's stream across replicas losing Redis) ends with an
      // `error` message; graphql-ws would send the bare message, without the code and guidance.
      // Only such failures are wrapped (with their cause); what onSubscribe refused is sent as it was.
      // A relayed subscription's `error` from the owner is sent on as the owner sent it.
      onError: (_ctx, _id, _payload, errors) =>
        errors.flatMap((error) =>
          error.originalError instanceof RelayedErrors
            ? error.originalError.errors
            : error.originalError
              ? withoutHttp(maskError(error, logUnexpected) as GraphQLError).toJSON()
              : error.toJSON(),
        ),
      // A document that does not parse, validate or name its operation is answered with an `error`
      // message for its id (graphql-ws's PROTOCOL.md); throwing here would close the socket (4500) and
      // every other subscription on it.
      onSubscribe: async (ctx, _id, payload) => {
        try {
          const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
            ...ctx,
            req: ctx.extra.request,
            socket: ctx.extra.socket,
            params: payload,
            client: clients.get(ctx.extra.socket),
            abandoned: closed.get(ctx.extra.socket),
            authorization: presentedCredential(ctx.connectionParams) ?? null,
          });
          const document = parse(payload.query);
          const errors = validate(schema, document);
          if (errors.length > 0) return errors.map(withoutHttp);
          const operationName = payload.operationName ?? null;
          const operation = getOperationAST(document, operationName);
          if (!operation)
            throw new GraphQLError(
              operationName
                ? `Unknown operation named "${operationName}".`
                : 'Must provide operation name if query contains multiple operations.',
            );
          const args = {
            schema,
            operationName,
            document,
            variableValues: payload.variables ?? null,
            contextValue: await contextFactory(),
            rootValue: { execute, subscribe } satisfies EnvelopedRoot,
          } satisfies ExecutionArgs;
          const { headers } = ctx.extra.request;
          // A connection another replica opened for one of its callers: what it sends runs here.
          const forwarded = headers[FORWARDED_BY_HEADER] !== undefined;
          const authorization = presentedCredential(ctx.connectionParams);
          if (operation.operation === 'subscription') {
            const route = await relay?.route(document, payload, forwarded);
            if (route) relayed.set(args, { route, payload, authorization });
          } else if (owners && !forwarded) {
            const caller = { authorization: authorization ?? null, signal: closedSignal(ctx.extra.socket) };
            const answer = await owners(schema, document, payload, caller);
            if (answer) answered.set(args, answer);
          }
          return args;
        } catch (error) {
          return [withoutHttp(maskError(error, logUnexpected) as GraphQLError)];
        }
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

/** A close frame's reason holds at most 123 bytes (RFC 6455, 5.5); the code at its start always fits. */
function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

/** The credential a client presented in connection_init. */
function presentedCredential(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const presented = params?.authorization ?? params?.token;
  return typeof presented === 'string' ? presented : undefined;
}

/** Charged to its client here as any subscription is (client-subscriptions.ts), then run on the owner. */
function relayedStream(relay: SubscriptionRelay, relaying: Relayed, args: ExecutionArgs): OperationResult {
  const admitted = admitSubscription(args.contextValue as GatewayContext);
  if (typeof admitted !== 'function') return admitted;
  // The owner's results, formatted there: onNext sends them unchanged.
  return relay.open(
    relaying.route,
    relaying.payload,
    relaying.authorization,
    admitted,
  ) as AsyncIterableIterator<ExecutionResult>;
}

/** Yoga's HTTP status travels in `extensions.http`, which yoga drops from HTTP answers; graphql-ws would send it. */
function withoutHttp(error: GraphQLError): GraphQLError {
  if (!error.extensions || !('http' in error.extensions)) return error;
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    extensions,
  });
}

/**
 * ws closes a socket whose message is over maxPayload with 1009 and no reason, and emits the error, which
 * graphql-ws would log as a fault of ours: the reason names the code and the limit instead, and the
 * client's mistake is not logged. A message nested deeper than the variables may be is closed the same
 * way before graphql-ws parses it (JSON.parse of a mebibyte of `[` holds the thread 0.4 s); its id is
 * not known without parsing it, so it cannot be answered in the protocol.
 */
function limitedSocket(maxPayload: number): typeof BatchedSendWebSocket {
  const reason = `REQUEST_TOO_LARGE: a message is over ${maxPayload} bytes (--max-request-bytes)`;
  const tooDeep = `REQUEST_TOO_LARGE: a message nests deeper than ${MAX_JSON_NESTING} levels`;
  return class LimitedWebSocket extends BatchedSendWebSocket {
    override close(code?: number, data?: string | Buffer): void {
      super.close(code, code === CLOSE_MESSAGE_TOO_BIG && data === undefined ? reason : data);
    }

    override emit(event: string | symbol, ...args: unknown[]): boolean {
      const [first] = args;
      if (event === 'error' && (first as { code?: unknown })?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
        return true;
      if (event === 'message' && first instanceof Uint8Array && !jsonNestsWithin(first, MAX_JSON_NESTING)) {
        this.close(CLOSE_MESSAGE_TOO_BIG, tooDeep);
        return true;
      }
      const type = event === 'message' && first instanceof Uint8Array ? messageType(first) : undefined;
      if (type !== undefined && SERVER_ONLY_MESSAGES.has(type)) {
        this.close(CLOSE_BAD_REQUEST, `Invalid message received: a client may not send ${type}`);
        return true;
      }
      return super.emit(event, ...args);
    }
  };
}

/** The `type` of a graphql-ws message, or undefined when it is not a JSON object with a string type. */
function messageType(frame: Uint8Array): string | undefined {
  try {
    const type: unknown = (
      JSON.parse(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString()) as {
        type?: unknown;
      } | null
    )?.type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}
