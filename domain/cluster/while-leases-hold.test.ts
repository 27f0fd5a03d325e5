import { describe, expect, it } from 'vitest';
import { WhileLeasesHold } from './while-leases-hold.js';

describe('answers remembered while the leases they rest on hold', () => {
  it('answers until the moment given, then forgets', () => {
    const memo = new WhileLeasesHold<string>();
    memo.remember('b-s1', 'b', 1_000, 0);
    expect(memo.get('b-s1', 999)).toBe('b');
    expect(memo.get('b-s1', 1_000)).toBeUndefined();
    expect(memo.size).toBe(0);
  });

  it('keeps nothing whose moment is already past, and drops what it held under that key', () => {
    const memo = new WhileLeasesHold<string>();
    memo.remember('b-s1', 'b', 1_000, 0);
    memo.remember('b-s1', 'b', 500, 500);
    expect(memo.get('b-s1', 600)).toBeUndefined();
  });

  it('forgets every value a failure names', () => {
    const memo = new WhileLeasesHold<string>();
    memo.remember('b-s1', 'b', 1_000, 0);
    memo.remember('c-s1', 'c', 1_000, 0);
    memo.remember('b-s2', 'b', 1_000, 0);
    memo.forgetWhere((owner) => owner === 'b');
    expect(['b-s1', 'c-s1', 'b-s2'].map((id) => memo.get(id, 1))).toEqual([undefined, 'c', undefined]);
  });

  it('holds at most its bound, forgetting the oldest first', () => {
    const memo = new WhileLeasesHold<number>(3);
    for (let i = 0; i < 5; i += 1) memo.remember(`s${i}`, i, 10_000, 0);
    expect(memo.size).toBe(3);
    expect([0, 1, 2, 3, 4].map((i) => memo.get(`s${i}`, 1))).toEqual([undefined, undefined, 2, 3, 4]);
  });
});
