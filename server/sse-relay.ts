import { type ExecutionResult, type GraphQLFormattedError, print } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { StagegraphError } from '../errors/stagegraph-error.js';
import type { GatewayContext } from '../schema/context.js';
import { toGraphQLError } from './error-format.js';
import { FORWARDED_BY_HEADER } from './owner-routing.js';
import { RelayedErrors, type SubscriptionRelay } from './subscription-relay.js';

/** What yoga puts in the context of an HTTP request; graphql-ws's operations carry neither. */
interface HttpContext {
  readonly request?: Request;
  readonly params?: GraphQLParams;
}

/**
 * The relay over SSE: a `screencast` or `snapshotChanges` subscription sent over HTTP for a session another
 * replica owns runs on the owner through the same SubscriptionRelay as over graphql-ws, with its bounds
 * (connect deadline, lease watch, back-pressure, its socket closed with the subscription). graphql-ws
 * relays its own before they reach yoga's envelope. Placed after useClientSubscriptions, which charges it
 * to its client; the plugins after this one (error masking) never see the owner's results, sent as the
 * owner sent them.
 */
export function useSseRelay(relay: SubscriptionRelay): Plugin<GatewayContext> {
  return {
    async onSubscribe({ args, setResultAndStopExecution }) {
      const { request, params } = args.contextValue as HttpContext;
      if (!request) return;
      const payload = {
        query: params?.query ?? print(args.document),
        operationName: args.operationName ?? null,
        variables: (args.variableValues as Record<string, unknown> | null | undefined) ?? null,
      };
      const forwarded = request.headers.get(FORWARDED_BY_HEADER) !== null;
      const route = await relay.route(args.document, payload, forwarded);
      if (!route) return;
      const authorization = request.headers.get('authorization') ?? undefined;
      // Released by useClientSubscriptions when the stream ends.
      const results = relay.open(route, payload, authorization, () => undefined);
      const ending = endingInErrors(results);
      // A client that goes away may leave yoga's stream unread; the relay ends with its request.
      request.signal.addEventListener('abort', () => void ending.return?.(), { once: true });
      setResultAndStopExecution(ending);
    },
  };
}

/**
 * SSE has no `error` event: a relay that ends with an error (the owner's, SESSION_LOST, SESSION_REMOTE)
 * sends it as a last result, then completes, as yoga answers a subscription refused before it started.
 */
export function endingInErrors(
  results: AsyncIterableIterator<unknown>,
): AsyncIterableIterator<ExecutionResult> {
  let ended = false;
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]() {
      return iterator;
    },
    async next() {
      if (ended) return { value: undefined, done: true };
      try {
        const result = await results.next();
        if (result.done) ended = true;
        return result as IteratorResult<ExecutionResult>;
      } catch (error) {
        ended = true;
        const errors = errorsOf(error);
        if (!errors) throw error;
        // The owner's errors are already in the wire form, as graphql-ws sends them.
        return { value: { errors } as unknown as ExecutionResult, done: false };
      }
    },
    async return() {
      ended = true;
      await results.return?.();
      return { value: undefined, done: true };
    },
  };
  return iterator;
}

function errorsOf(error: unknown): readonly GraphQLFormattedError[] | null {
  if (error instanceof RelayedErrors) return error.errors;
  if (error instanceof StagegraphError) return [toGraphQLError(error).toJSON()];
  return null;
}
