import type { GraphQLFormattedError } from 'graphql';

/**
 * An error the gateway answered, with what its registry says about it: branch on `code` (never on the
 * message), show `hint`, and try one of `nextActions` (ready GraphQL operations).
 */
export class StagegraphClientError extends Error {
  override readonly name = 'StagegraphClientError';
  /** The registry code (SELECTOR_NO_MATCH, POLICY_DENIED, ...); HTTP_ERROR or NETWORK_ERROR when none came back. */
  readonly code: string;
  readonly hint: string | undefined;
  readonly retryable: boolean;
  readonly nextActions: readonly string[];
  readonly similarRefs: readonly unknown[];
  /** Where in the answer it happened: a step's field (or alias) for a multi-step operation. */
  readonly path: readonly (string | number)[];
  /** Every error of the answer, this one first. */
  readonly errors: readonly GraphQLFormattedError[];

  constructor(
    message: string,
    details: {
      code: string;
      hint?: string | undefined;
      retryable?: boolean;
      nextActions?: readonly string[];
      similarRefs?: readonly unknown[];
      path?: readonly (string | number)[];
      errors?: readonly GraphQLFormattedError[];
    },
  ) {
    super(message);
    this.code = details.code;
    this.hint = details.hint;
    this.retryable = details.retryable ?? false;
    this.nextActions = details.nextActions ?? [];
    this.similarRefs = details.similarRefs ?? [];
    this.path = details.path ?? [];
    this.errors = details.errors ?? [];
  }

  /** The error a GraphQL error's extensions describe; `all` is every error of the same answer. */
  static fromGraphQL(
    error: GraphQLFormattedError,
    all: readonly GraphQLFormattedError[] = [error],
  ): StagegraphClientError {
    const extensions = (error.extensions ?? {}) as Record<string, unknown>;
    return new StagegraphClientError(error.message, {
      code: typeof extensions.code === 'string' ? extensions.code : 'UNKNOWN',
      hint: typeof extensions.hint === 'string' ? extensions.hint : undefined,
      retryable: extensions.retryable === true,
      nextActions: Array.isArray(extensions.nextActions) ? (extensions.nextActions as string[]) : [],
      similarRefs: Array.isArray(extensions.similarRefs) ? extensions.similarRefs : [],
      path: error.path ?? [],
      errors: all,
    });
  }
}
