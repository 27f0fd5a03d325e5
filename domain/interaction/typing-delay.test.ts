import { describe, expect, it } from 'vitest';
import { checkTypingDelay, TYPE_DELAY_MAX_MS } from './typing-delay.js';

describe('the pause between typed keys', () => {
  it('lets typing through that finishes within the timeout', () => {
    expect(() => checkTypingDelay('hello', undefined, 5_000, 30_000)).not.toThrow();
    expect(() => checkTypingDelay('hello', 0, 5_000, 30_000)).not.toThrow();
    expect(() => checkTypingDelay('hello', 1_000, 5_000, 30_000)).not.toThrow();
  });

  it('refuses a pause out of range, naming the range', () => {
    for (const delayMs of [-1, TYPE_DELAY_MAX_MS + 1, 1.5]) {
      expect(() => checkTypingDelay('a', delayMs, 30_000, 30_000)).toThrowError(
        expect.objectContaining({ code: 'BAD_INPUT', details: { delayMs, max: TYPE_DELAY_MAX_MS } }),
      );
    }
  });

  it('refuses typing that would outlast the timeout, and says what delay would fit', () => {
    expect(() => checkTypingDelay('héllo wörld', 600, 5_000, 30_000)).toThrowError(
      expect.objectContaining({
        code: 'BAD_INPUT',
        details: { characters: 11, delayMs: 600, timeoutMs: 5_000, fitsDelayMs: 454 },
      }),
    );
  });
});
