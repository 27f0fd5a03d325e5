import { describe, expect, it } from 'vitest';
import { TransportError } from '../contract/transport-error.js';
import { evalFailureMessage, settleEval } from './eval-settle.js';

describe('settleEval', () => {
  it('passes on the outcome the run reported', async () => {
    const reported = { status: 'not-serializable', message: 'result is a function' } as const;
    expect(await settleEval(Promise.resolve(reported))).toEqual(reported);
  });

  it.each([
    [
      'Playwright, on a page',
      new Error("page.evaluate: SyntaxError: Unexpected token '}'\n    at eval (<anonymous>)"),
    ],
    [
      'Playwright, in the main process',
      new Error("electronApplication.evaluate: SyntaxError: Unexpected token '}'\n    at x.js:1:2"),
    ],
    [
      'the inspector',
      new TransportError('protocol', "SyntaxError: Unexpected token '}'", { method: 'Runtime.evaluate' }),
    ],
  ])('turns code that does not compile into EVAL_FAILED with the same message from %s', async (_, error) => {
    expect(await settleEval(Promise.reject(error))).toEqual({
      status: 'failed',
      message: "SyntaxError: Unexpected token '}'",
    });
  });

  it.each(['closed', 'timeout', 'crashed'] as const)('keeps a %s connection its own error', async (kind) => {
    const error = new TransportError(kind, 'it went.', { method: 'Runtime.evaluate' });
    await expect(settleEval(Promise.reject(error))).rejects.toBe(error);
  });
});

describe('evalFailureMessage', () => {
  it('takes the first line that names an error, else the first line, never a stack', () => {
    expect(
      evalFailureMessage(new Error('page.evaluate: stopped\nTypeError: x is not a function\n  at a')),
    ).toBe('TypeError: x is not a function');
    expect(evalFailureMessage(new Error('page.evaluate: Target page has been closed\n  at b'))).toBe(
      'Target page has been closed',
    );
    expect(evalFailureMessage('a thrown string')).toBe('a thrown string');
  });
});
