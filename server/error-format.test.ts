import { GraphQLError } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { maskError } from './error-format.js';

describe('maskError', () => {
  it('keeps an expected failure with its code, hint and next actions', () => {
    const error = new GraphQLError('wrapped', {
      path: ['session'],
      originalError: new StagegraphError('SESSION_NOT_FOUND', 'No session has id "x".', {
        nextActions: ['query { sessions { id } }'],
      }),
    });
    const masked = maskError(error, vi.fn()) as GraphQLError;
    expect(masked.message).toBe('No session has id "x".');
    expect(masked.path).toEqual(['session']);
    expect(masked.extensions).toMatchObject({
      code: 'SESSION_NOT_FOUND',
      retryable: false,
      nextActions: ['query { sessions { id } }'],
    });
    expect(masked.extensions.hint).toMatch(/sessions/);
  });

  it('carries similar refs beside the code when a target missed', () => {
    const similarRefs = [{ ref: 'e4', role: 'button', name: 'Submit', score: 0.8 }];
    const missed = new StagegraphError(
      'SELECTOR_NO_MATCH',
      'No element matches role button named "Sbumit".',
      {
        similarRefs,
      },
    );
    expect((maskError(missed, vi.fn()) as GraphQLError).extensions).toMatchObject({
      code: 'SELECTOR_NO_MATCH',
      similarRefs,
    });
  });

  it('passes GraphQL validation errors through untouched', () => {
    const validation = new GraphQLError('Cannot query field "nope" on type "Query".');
    expect(maskError(validation, vi.fn())).toBe(validation);
  });

  it('hides an unexpected error behind INTERNAL and logs the original', () => {
    const log = vi.fn();
    const bug = new TypeError('cannot read properties of undefined (secret path /home/me/.token)');
    const masked = maskError(new GraphQLError('x', { originalError: bug }), log) as GraphQLError;
    expect(masked.message).toBe('Unexpected error.');
    expect(JSON.stringify(masked.toJSON())).not.toMatch(/secret|TypeError|at /);
    expect(masked.extensions.code).toBe('INTERNAL');
    expect(log).toHaveBeenCalledWith(bug);
  });
});
