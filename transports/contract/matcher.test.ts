import { describe, expect, it } from 'vitest';
import { satisfies } from './matcher.js';

describe('satisfies', () => {
  it.each([
    ['abc', { equals: 'abc' }, true],
    ['abc', { contains: 'b' }, true],
    ['abc', { regex: '^a.c$' }, true],
    ['abc', { contains: 'b', not: true }, false],
    [3, { min: 1, max: 3 }, true],
    [4, { max: 3 }, false],
    [true, {}, true],
    [false, { not: true }, true],
  ] as const)('%j with %j is %s', (actual, matcher, expected) => {
    expect(satisfies(actual, matcher)).toBe(expected);
  });
});
