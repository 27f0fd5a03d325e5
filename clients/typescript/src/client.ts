import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type ExecutionResult, type GraphQLFormattedError, print } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import { StagegraphClientError } from './client-error.js';
import type {
  ExpectMutation,
  ExpectMutationVariables,
  LaunchInput,
  LaunchMutation,
  StopMutation,
} from './generated/graphql.js';
import { ExpectDocument } from './operations/actions.js';
import { LaunchDocument, StopDocument } from './operations/lifecycle.js';
import { type Step, type StepKind, stepsDocument } from './steps.js';

export interface StagegraphClientOptions {
  /** The gateway's GraphQL URL, e.g. http://127.0.0.1:4700/graphql. */
  readonly url: string;
  /** Sent as `Authorization: Bearer <token>` (HTTP) and in connectionParams (WebSocket). */
  readonly token?: string | undefined;
  /** Default: `url` with ws: for http:. */
  readonly wsUrl?: string;
  /** A WebSocket constructor; default the global one, else the `ws` package (Node 20 has no global). */
  readonly webSocketImpl?: unknown;
}

/** Variables are required exactly when the operation declares a required one. */
type VariablesOf<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

export interface StepOutcome {
  readonly index: number;
  readonly kind: StepKind;
  readonly ok: boolean;
  /** The element an action acted on. */
  readonly target?: { ref: string; role: string; name: string } | null;
  /** An expect step's actual value. */
  readonly actual?: string;
  /** Why it failed; code STEP_SKIPPED when an earlier step failed and this one did not run. */
  readonly error?: StagegraphClientError;
}

export interface ActResult {
  readonly ok: boolean;
  readonly steps: readonly StepOutcome[];
  /** The first step that failed (not one skipped after it). */
  readonly failure?: StepOutcome;
  /** What the last action changed, once the window settled, as outline lines (empty when nothing did). */
  readonly diff: string | null;
}

export type LaunchedSession = NonNullable<LaunchMutation['launch']>;
export type ExpectInput = ExpectMutationVariables;
export type ExpectOutcome = NonNullable<ExpectMutation['expect']>;

export interface StagegraphClient {
  /** One query or mutation over HTTP; throws StagegraphClientError on any error of the answer. */
  request<R, V>(document: TypedDocumentNode<R, V>, ...variables: VariablesOf<V>): Promise<R>;
  /** The raw answer, partial data and errors both, for callers that read each step's outcome. */
  execute<R = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<ExecutionResult<R>>;
  /** A subscription over graphql-ws, as an async iterator of its events; `return()` (or break) ends it. */
  subscribe<R, V>(document: TypedDocumentNode<R, V>, ...variables: VariablesOf<V>): AsyncIterableIterator<R>;
  /** Starts an app; throws when it cannot be launched. */
  launch(input: LaunchInput): Promise<LaunchedSession>;
  /** Runs the steps as ONE multi-step mutation and answers every step's outcome. */
  act(session: string | undefined, steps: readonly Step[]): Promise<ActResult>;
  /** Waits until a condition holds; throws EXPECTATION_FAILED (with the last actual value) when it does not. */
  expect(input: ExpectInput): Promise<ExpectOutcome>;
  stop(session?: string): Promise<NonNullable<StopMutation['stop']> | null>;
  /** Closes the WebSocket, ending every subscription. */
  close(): Promise<void>;
}

export function createStagegraphClient(options: StagegraphClientOptions): StagegraphClient {
  const authorization = options.token ? `Bearer ${options.token}` : undefined;
  let socket: Promise<Client> | undefined;

  const execute = async <R>(query: string, variables?: Record<string, unknown>) => {
    let response: Response;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
    } catch (error) {
      throw new StagegraphClientError(`cannot reach ${options.url}: ${(error as Error).message}`, {
        code: 'NETWORK_ERROR',
        retryable: true,
      });
    }
    const text = await response.text();
    try {
      return JSON.parse(text) as ExecutionResult<R>;
    } catch {
      throw new StagegraphClientError(
        `HTTP ${response.status} without a GraphQL answer: ${text.slice(0, 200)}`,
        {
          code: 'HTTP_ERROR',
        },
      );
    }
  };

  const request = async <R>(query: string, variables?: Record<string, unknown>): Promise<R> => {
    const result = await execute<R>(query, variables);
    const errors = (result.errors ?? []) as readonly GraphQLFormattedError[];
    if (errors[0]) throw StagegraphClientError.fromGraphQL(errors[0], errors);
    return result.data as R;
  };

  const connect = (): Promise<Client> => {
    socket ??= webSocketImpl(options.webSocketImpl).then((impl) =>
      createClient({
        url: options.wsUrl ?? options.url.replace(/^http/, 'ws'),
        webSocketImpl: impl,
        retryAttempts: 0,
        ...(authorization ? { connectionParams: { authorization } } : {}),
      }),
    );
    return socket;
  };

  async function* subscription<R>(query: string, variables?: Record<string, unknown>) {
    const events = (await connect()).iterate<R>({ query, variables: variables ?? {} });
    try {
      for await (const event of events) {
        const errors = (event.errors ?? []) as readonly GraphQLFormattedError[];
        if (errors[0]) throw StagegraphClientError.fromGraphQL(errors[0], errors);
        yield event.data as R;
      }
    } catch (error) {
      throw subscriptionError(error);
    } finally {
      await events.return?.();
    }
  }

  return {
    request: (document, ...[variables]) => request(print(document), variables as Record<string, unknown>),
    execute,
    subscribe: (document, ...[variables]) =>
      subscription(print(document), variables as Record<string, unknown>),
    async launch(input) {
      const { launch } = await request<LaunchMutation>(print(LaunchDocument), { input });
      if (!launch) throw new StagegraphClientError('launch answered no session', { code: 'LAUNCH_FAILED' });
      return launch;
    },
    async act(session, steps) {
      const document = stepsDocument(session, steps);
      const result = await execute<Record<string, unknown>>(document.query, document.variables);
      const errors = (result.errors ?? []) as readonly GraphQLFormattedError[];
      if (!result.data) {
        throw StagegraphClientError.fromGraphQL(errors[0] ?? { message: 'no data and no error' }, errors);
      }
      return actResult(document.kinds, document.aliases, result.data, errors);
    },
    async expect(input) {
      const { expect } = await request<ExpectMutation>(print(ExpectDocument), input);
      return expect as ExpectOutcome;
    },
    async stop(session) {
      return (await request<StopMutation>(print(StopDocument), { id: session })).stop ?? null;
    },
    async close() {
      if (socket) await (await socket).dispose();
      socket = undefined;
    },
  };
}

function actResult(
  kinds: readonly StepKind[],
  aliases: readonly string[],
  data: Record<string, unknown>,
  errors: readonly GraphQLFormattedError[],
): ActResult {
  let diff: string | null = null;
  const steps = aliases.map((alias, index): StepOutcome => {
    const kind = kinds[index] as StepKind;
    const error = errors.find((candidate) => candidate.path?.[0] === alias);
    const value = data[alias] as
      | { target?: StepOutcome['target']; actual?: string; diff?: { outline: string } | null }
      | null
      | undefined;
    if (error || !value) {
      return {
        index,
        kind,
        ok: false,
        error: StagegraphClientError.fromGraphQL(
          error ?? { message: `step ${index} answered nothing` },
          errors,
        ),
      };
    }
    if (value.diff) diff = value.diff.outline;
    return {
      index,
      kind,
      ok: true,
      ...(value.target !== undefined ? { target: value.target } : {}),
      ...(value.actual !== undefined ? { actual: value.actual } : {}),
    };
  });
  const failure = steps.find((step) => !step.ok && step.error?.code !== 'STEP_SKIPPED');
  return { ok: steps.every((step) => step.ok), steps, diff, ...(failure ? { failure } : {}) };
}

/** graphql-ws ends a subscription with the server's GraphQL errors, or with the socket's close event. */
function subscriptionError(error: unknown): unknown {
  if (error instanceof StagegraphClientError) return error;
  if (Array.isArray(error) && error[0]) return StagegraphClientError.fromGraphQL(error[0], error);
  if (error && typeof error === 'object' && 'code' in error && 'reason' in error) {
    const { code, reason } = error as { code: number; reason: string };
    const registryCode = /^([A-Z_]+):/.exec(reason)?.[1];
    return new StagegraphClientError(`the subscription socket closed (${code}): ${reason}`, {
      code: registryCode ?? 'CONNECTION_CLOSED',
    });
  }
  return error;
}

async function webSocketImpl(given: unknown): Promise<unknown> {
  if (given) return given;
  if ('WebSocket' in globalThis) return globalThis.WebSocket;
  return (await import('ws')).default;
}
