import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  describeStray,
  logThrottle,
  STRAY_ERROR_LOG_LIMIT,
  STRAY_ERROR_LOG_WINDOW_MS,
} from './stray-errors.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('describeStray', () => {
  it('names the error, the first line of its message and where it was thrown, and nothing else of it', () => {
    const error = Object.assign(
      new TypeError('cannot read x\nCall log:\n  - <launching> app --token=secret'),
      {
        logs: 'secret too',
      },
    );
    const described = describeStray(error);
    expect(described).toMatch(/^TypeError: cannot read x \(at .*stray-errors\.test\.ts:\d+:\d+\)$/);
    expect(described).not.toContain('secret');
  });

  it('cuts a long first line, and does not print what is thrown that is not an Error', () => {
    expect(describeStray(new Error('x'.repeat(10_000))).length).toBeLessThan(1_000);
    expect(describeStray('a token thrown as a string')).toBe('a thrown string (not an Error)');
  });
});

describe('logThrottle', () => {
  it('logs a window at most, then says how many it left out when the next window starts', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const note = logThrottle((line) => lines.push(line));
    for (let i = 0; i < STRAY_ERROR_LOG_LIMIT + 5; i += 1) note(`stray ${i}`);
    expect(lines).toHaveLength(STRAY_ERROR_LOG_LIMIT);

    vi.advanceTimersByTime(STRAY_ERROR_LOG_WINDOW_MS);
    note('stray after the window');
    expect(lines.slice(STRAY_ERROR_LOG_LIMIT)).toEqual([
      '5 more stray errors in the last window were not logged',
      'stray after the window',
    ]);
  });
});
