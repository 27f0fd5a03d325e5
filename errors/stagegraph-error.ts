import { ERROR_CODES, type ErrorCode } from './registry.js';

export interface SimilarRef {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
  /** 1 for an exact role and name match, towards 0 as they differ. */
  readonly score: number;
}

export interface StagegraphErrorOptions {
  /** Overrides the registry's hint when the situation allows a sharper one. */
  hint?: string;
  /** Ready-to-send GraphQL operations that are the sensible next step. */
  nextActions?: readonly string[];
  /** Candidates when a ref or locator missed: the nearest nodes of a fresh read by role and name. */
  similarRefs?: readonly SimilarRef[];
  /** Free-form facts for the caller (e.g. `stderrTail`, `liveSessions`); must hold no secrets. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The one error type every layer throws for expected failures. It carries no GraphQL dependency so
 * transports can throw it; the server turns it into `extensions { code, hint, retryable, nextActions }`.
 */
export class StagegraphError extends Error {
  readonly code: ErrorCode;
  readonly hint: string;
  readonly retryable: boolean;
  readonly nextActions: readonly string[];
  readonly details: Record<string, unknown> | undefined;
  readonly similarRefs: readonly SimilarRef[] | undefined;

  constructor(code: ErrorCode, message: string, options: StagegraphErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StagegraphError';
    this.code = code;
    this.hint = options.hint ?? ERROR_CODES[code].hint;
    this.retryable = ERROR_CODES[code].retryable;
    this.nextActions = options.nextActions ?? [];
    this.details = options.details;
    this.similarRefs = options.similarRefs;
  }
}
