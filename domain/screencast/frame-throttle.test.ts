import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameThrottle } from './frame-throttle.js';

describe('FrameThrottle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes the first value at once and at most one per interval after it, ending on the newest', () => {
    const passed: number[] = [];
    const throttle = new FrameThrottle<number>(
      100,
      (value) => passed.push(value),
      () => Date.now(),
    );
    throttle.push(1);
    expect(passed).toEqual([1]);
    throttle.push(2);
    throttle.push(3);
    expect(passed).toEqual([1]);
    vi.advanceTimersByTime(100);
    expect(passed).toEqual([1, 3]);
    // Quiet for longer than the interval: the next one passes at once.
    vi.advanceTimersByTime(500);
    throttle.push(4);
    expect(passed).toEqual([1, 3, 4]);
  });

  it('passes nothing once cancelled, not even what waited', () => {
    const passed: number[] = [];
    const throttle = new FrameThrottle<number>(
      100,
      (value) => passed.push(value),
      () => Date.now(),
    );
    throttle.push(1);
    throttle.push(2);
    throttle.cancel();
    vi.advanceTimersByTime(1_000);
    throttle.push(3);
    expect(passed).toEqual([1]);
  });
});
