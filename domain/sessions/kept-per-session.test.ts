import { describe, expect, it } from 'vitest';
import { keptPerSession } from './kept-per-session.js';

describe('keptPerSession', () => {
  it('makes one state per session, on first use', () => {
    let made = 0;
    const stateOf = keptPerSession(() => {
      made += 1;
      return { made };
    });
    const a = {};
    const b = {};
    expect(made).toBe(0);
    expect(stateOf(a)).toBe(stateOf(a));
    expect(stateOf(b)).not.toBe(stateOf(a));
    expect(made).toBe(2);
  });
});
