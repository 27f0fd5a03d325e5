import { describe, expect, it } from 'vitest';
import { MutationRateLimiter } from './rate-limiter.js';

describe('MutationRateLimiter', () => {
  it('allows a burst, then refuses with a wait, then refills at the rate; clients are separate', () => {
    let now = 0;
    const limiter = new MutationRateLimiter({ perSecond: 10, burst: 3, now: () => now });
    for (let i = 0; i < 3; i += 1) limiter.take('a');
    expect(() => limiter.take('a')).toThrow(
      expect.objectContaining({ code: 'RATE_LIMITED', details: { retryAfterMs: 100 } }),
    );
    limiter.take('b');
    now += 100;
    expect(() => limiter.take('a')).not.toThrow();
  });
});
