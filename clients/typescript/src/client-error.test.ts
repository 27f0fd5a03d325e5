import { describe, expect, it } from 'vitest';
import { StagegraphClientError } from './client-error.js';

describe('StagegraphClientError.fromGraphQL', () => {
  it("reads the registry's extensions and keeps every error of the answer", () => {
    const failed = {
      message: 'nothing matches',
      path: ['s0'],
      extensions: {
        code: 'SELECTOR_NO_MATCH',
        hint: 'read the outline',
        retryable: true,
        nextActions: ['query { session { activeWindow { snapshot { outline } } } }'],
        similarRefs: [{ ref: 'e2' }],
      },
    };
    const skipped = { message: 'skipped', path: ['s1'], extensions: { code: 'STEP_SKIPPED' } };
    const error = StagegraphClientError.fromGraphQL(failed, [failed, skipped]);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'StagegraphClientError',
      message: 'nothing matches',
      code: 'SELECTOR_NO_MATCH',
      hint: 'read the outline',
      retryable: true,
      nextActions: ['query { session { activeWindow { snapshot { outline } } } }'],
      similarRefs: [{ ref: 'e2' }],
      path: ['s0'],
    });
    expect(error.errors).toHaveLength(2);
  });

  it('answers UNKNOWN and empty lists when the extensions say nothing', () => {
    const error = StagegraphClientError.fromGraphQL({ message: 'odd' });
    expect(error).toMatchObject({
      code: 'UNKNOWN',
      hint: undefined,
      retryable: false,
      nextActions: [],
      path: [],
    });
  });
});
