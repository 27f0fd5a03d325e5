import { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { ERROR_CODES } from '../errors/registry.js';
import { StagegraphError } from '../errors/stagegraph-error.js';

/** The wire form of a StagegraphError: the message plus what a client needs to act on it. */
export function toGraphQLError(error: StagegraphError, path?: readonly (string | number)[]): GraphQLError {
  return createGraphQLError(error.message, {
    ...(path ? { path } : {}),
    extensions: {
      code: error.code,
      hint: error.hint,
      retryable: error.retryable,
      nextActions: error.nextActions,
      ...(error.similarRefs ? { similarRefs: error.similarRefs } : {}),
      ...(error.details ? { details: error.details } : {}),
    },
  });
}

function stagegraphCause(error: unknown): StagegraphError | undefined {
  if (error instanceof StagegraphError) return error;
  if (error instanceof GraphQLError) return stagegraphCause(error.originalError);
  return undefined;
}

/**
 * Yoga's `maskError`: expected failures keep their code and guidance; GraphQL's own errors (syntax,
 * validation) pass as they are; anything else is logged here and leaves as a bare INTERNAL error.
 */
export function maskError(error: unknown, log: (error: unknown) => void = console.error): Error {
  const expected = stagegraphCause(error);
  if (expected) return toGraphQLError(expected, error instanceof GraphQLError ? error.path : undefined);
  if (error instanceof GraphQLError && !error.originalError) return error;
  log(error instanceof GraphQLError ? error.originalError : error);
  return createGraphQLError('Unexpected error.', {
    ...(error instanceof GraphQLError && error.path ? { path: error.path } : {}),
    extensions: {
      code: 'INTERNAL',
      hint: ERROR_CODES.INTERNAL.hint,
      retryable: ERROR_CODES.INTERNAL.retryable,
      nextActions: [],
    },
  });
}
