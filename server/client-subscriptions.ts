import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Release } from '../domain/bounded/client-shares.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { clientKeys } from '../schema/client-keys.js';
import type { GatewayContext } from '../schema/context.js';
import { toGraphQLError } from './error-format.js';

/**
 * Charges a subscription to its client (schema/client-keys.ts) before it is set up (EventHub.admit), or
 * answers CLIENT_LIMIT.
 * The charge ends with the stream, or at once when the subscription answered an error instead of one.
 */
export function admitSubscription(context: GatewayContext): Release | ExecutionResult {
  try {
    return context.hub.admit(clientKeys(context));
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
