import { GraphQLError } from 'graphql';
import { createGraphQLError, isAsyncIterable, type Plugin, processRegularResult } from 'graphql-yoga';
import { ERROR_CODES, type ErrorCode, isErrorCode } from '../errors/registry.js';
import { StagegraphError } from '../errors/stagegraph-error.js';

/**
 * A client's own mistake is echoed in the message (graphql-js quotes a variable's whole value); past this
 * the message is cut, so a megabyte argument of the wrong type is not sent back whole.
 */
export const MAX_ERROR_MESSAGE_LENGTH = 1_000;

/**
 * The codes yoga gives the requests it cannot read, and ours for them. OPERATION_RESOLUTION_FAILURE is a
 * document whose operation cannot be chosen (none named among several).
 */
const YOGA_CODES: Readonly<Record<string, ErrorCode>> = {
  BAD_REQUEST: 'BAD_REQUEST',
  OPERATION_RESOLUTION_FAILURE: 'BAD_REQUEST',
  GRAPHQL_PARSE_FAILED: 'GRAPHQL_PARSE_FAILED',
  GRAPHQL_VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
  REQUEST_ENTITY_TOO_LARGE: 'REQUEST_TOO_LARGE',
};

/** HTTP statuses of the refusals raised while reading a request, before any GraphQL ran. */
const READING_STATUS: Partial<Record<ErrorCode, number>> = { BAD_REQUEST: 400, REQUEST_TOO_LARGE: 413 };

/** The wire form of a StagegraphError: the message plus what a client needs to act on it. */
export function toGraphQLError(
  error: StagegraphError,
  path?: readonly (string | number)[],
  httpStatus?: number,
): GraphQLError {
  return createGraphQLError(error.message, {
    ...(path ? { path } : {}),
    extensions: {
      // Yoga answers with it over HTTP and drops it from the body.
      ...(httpStatus ? { http: { status: httpStatus } } : {}),
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
 * Yoga's `maskError`, and the one classification of every failure over HTTP, SSE, graphql-ws and /mcp:
 * expected failures keep their code and guidance; a request the client got wrong (unreadable, not
 * GraphQL, not fitting the schema, variables of the wrong type) gets its registered code; anything else is
 * our bug, logged here and sent as a bare INTERNAL error.
 */
export function maskError(error: unknown, log: (error: unknown) => void = console.error): Error {
  const expected = stagegraphCause(error);
  // Resolvers' errors arrive wrapped with their path; one thrown bare was raised reading the request.
  if (expected && error === expected)
    return toGraphQLError(expected, undefined, READING_STATUS[expected.code]);
  if (expected) return toGraphQLError(expected, error instanceof GraphQLError ? error.path : undefined);
  if (error instanceof GraphQLError) {
    if (isFormatted(error)) return error;
    const code = requestErrorCode(error);
    if (code) return requestError(error, code);
  }
  log(error instanceof GraphQLError ? (error.originalError ?? error) : error);
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

/** Already in our wire form (masked once, or raised with toGraphQLError). */
function isFormatted(error: GraphQLError): boolean {
  // graphql-jit's errors (compiled queries' variables) leave `extensions` undefined.
  const { code, hint } = error.extensions ?? {};
  return typeof code === 'string' && isErrorCode(code) && typeof hint === 'string';
}

/**
 * The code of a GraphQL error the request caused, or undefined when it is not one. Errors raised while a
 * field resolves carry its path and are never the request's; those without one come from reading,
 * parsing, validating the request or coercing its variables (graphql-js starts every coercion message
 * with `Variable "$`), or from choosing its operation.
 */
function requestErrorCode(error: GraphQLError): ErrorCode | undefined {
  const given = yogaCode(error);
  if (given) return given;
  if (error.path !== undefined) return undefined;
  if (error.message.startsWith('Syntax Error:')) return 'GRAPHQL_PARSE_FAILED';
  if (error.message.startsWith('Variable "$')) return 'VARIABLES_INVALID';
  // A request-level error wrapping a plain Error is a bug of ours (a scalar's parser throwing) unless
  // graphql-js said it was the variables; one of its own is about the operation chosen.
  return error.originalError === undefined || error.originalError instanceof GraphQLError
    ? 'BAD_REQUEST'
    : undefined;
}

function yogaCode(error: GraphQLError): ErrorCode | undefined {
  const given = error.extensions?.code;
  return typeof given === 'string' && Object.hasOwn(YOGA_CODES, given) ? YOGA_CODES[given] : undefined;
}

/** A client's mistake in our wire form: its message (cut) and locations kept, never retryable. */
function requestError(error: GraphQLError, code: ErrorCode): GraphQLError {
  const message =
    error.message.length > MAX_ERROR_MESSAGE_LENGTH
      ? `${error.message.slice(0, MAX_ERROR_MESSAGE_LENGTH)}…`
      : error.message;
  const http = error.extensions?.http;
  return createGraphQLError(message, {
    ...(error.nodes ? { nodes: error.nodes } : {}),
    ...(error.source ? { source: error.source } : {}),
    ...(error.positions ? { positions: error.positions } : {}),
    extensions: {
      code,
      hint: ERROR_CODES[code].hint,
      retryable: ERROR_CODES[code].retryable,
      nextActions: nextActionsFor(message),
      // Yoga's HTTP status for the error (400, 405, 413); yoga drops it from what it sends.
      ...(http ? { http } : {}),
    },
  });
}

/** graphql-js names the type a wrong name belongs to: `on type "Query"`, `by type "TargetInput"`, `on field "Mutation.fill"`. */
const NAMED_TYPE = /(?:on|by) type "(\w+)"|on field "(\w+)\./;

/** Where the message names the type that holds the wrong name, the introspection that lists its names. */
function nextActionsFor(message: string): string[] {
  const named = NAMED_TYPE.exec(message);
  const type = named?.[1] ?? named?.[2];
  return type
    ? [`{ __type(name: "${type}") { name kind fields { name } inputFields { name } enumValues { name } } }`]
    : [];
}

/**
 * Gives parse and validation failures their registered codes where they happen, over HTTP and graphql-ws
 * alike (both parse and validate through yoga's envelope). Yoga answers validation errors without
 * passing them through maskError, and graphql-ws sends what onSubscribe returns as it is.
 */
export function useRequestErrorFormat(): Plugin {
  return {
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (result instanceof Error) replaceParseResult(formatRequestFailure(result, 'GRAPHQL_PARSE_FAILED'));
      };
    },
    onValidate() {
      return ({ valid, result, setResult }) => {
        if (!valid)
          setResult(result.map((error) => formatRequestFailure(error, 'GRAPHQL_VALIDATION_FAILED')));
      };
    },
    // Yoga answers a bare 406 when the Accept header names no type that can carry the result (a
    // subscription asked for as JSON), and leaves the subscription it started running.
    onResultProcess({ result, resultProcessor, setResult, setResultProcessor }) {
      if (resultProcessor) return;
      if (isAsyncIterable(result)) void result[Symbol.asyncIterator]().return?.();
      const refusal = new StagegraphError(
        'BAD_REQUEST',
        'The Accept header names no type that can carry this answer: a subscription over HTTP needs `Accept: text/event-stream`, a query or mutation `Accept: application/json`.',
      );
      setResult({ errors: [toGraphQLError(refusal, undefined, 406)] });
      setResultProcessor(processRegularResult, 'application/json');
    },
  };
}

/** A failure of reading or checking the request, in our wire form; anything but a GraphQL or our own error is left for maskError. */
function formatRequestFailure<T extends Error>(error: T, code: ErrorCode): T | GraphQLError {
  const expected = stagegraphCause(error);
  if (expected) return toGraphQLError(expected);
  if (!(error instanceof GraphQLError) || isFormatted(error)) return error;
  return requestError(error, yogaCode(error) ?? code);
}
