import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ClientKey, Release } from '../domain/bounded/client-shares.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import type { GatewayContext } from '../schema/context.js';
import { toGraphQLError } from './error-format.js';

/** The context of an operation on a graphql-ws connection: graphql-ws.ts puts the socket in it. */
interface ConnectionContext extends GatewayContext {
  readonly socket?: object;
}

/**
 * Who a subscription is charged to, for its share of the server's subscriptions (EventHub's
 * MAX_SUBSCRIPTIONS_PER_CLIENT):
 * - over graphql-ws, its connection: one socket cannot hold them all, whoever it is;
 * - and its token, over any transport: a token holder cannot escape its share by opening more sockets
 *   or SSE streams.
 * Without tokens (the loopback default) every client is `anonymous-loopback`, so the token says nothing
 * about who is who: a graphql-ws connection is then charged to itself alone, and anonymous SSE streams,
 * which cannot be told apart (each is its own request), share one share between them. So one socket
 * cannot lock out another, and SSE cannot take what WebSocket clients need.
 */
export function subscriptionClient(context: GatewayContext): ClientKey[] {
  const { client, socket } = context as ConnectionContext;
  const anonymous = client === undefined || client.role === 'anonymous-loopback';
  if (socket === undefined) return [anonymous ? 'anonymous-loopback' : client.id];
  return anonymous ? [socket] : [socket, client.id];
}

/**
 * Charges a subscription to its client before it is set up (EventHub.admit), or answers CLIENT_LIMIT.
 * The charge ends with the stream, or at once when the subscription answered an error instead of one.
 */
export function admitSubscription(context: GatewayContext): Release | ExecutionResult {
  try {
    return context.hub.admit(subscriptionClient(context));
  } catch (error) {
    if (error instanceof StagegraphError) return { errors: [toGraphQLError(error)] };
    throw error;
  }
}

/**
 * Every subscription that runs through yoga's envelope (SSE, and graphql-ws's unshared ones) is charged
 * to its client here; SharedSubscriptions charges the ones it maps itself.
 */
export function useClientSubscriptions(): Plugin<GatewayContext> {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const admitted = admitSubscription(args.contextValue);
      if (typeof admitted !== 'function') {
        setResultAndStopExecution(admitted);
        return undefined;
      }
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) {
            admitted();
            return undefined;
          }
          // graphql's subscribe answers a failed setup as a result, never by throwing, so every charge
          // ends here or with the stream.
          return { onEnd: admitted };
        },
      };
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
