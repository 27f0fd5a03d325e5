import { describe, expect, it } from 'vitest';
import { firstToSettle } from '../../test/helpers/event-loop.js';
import { inTurns } from './in-turns.js';

function* counting(to: number, taken: number[]): Generator<void, number> {
  for (let step = 1; step <= to; step += 1) {
    taken.push(step);
    yield;
  }
  return to;
}

describe('inTurns', () => {
  it('takes every step, giving the event loop a turn between two', async () => {
    const taken: number[] = [];
    const run = inTurns(counting(3, taken));
    expect(await firstToSettle(run)).toBe('turn');
    expect(await run).toBe(3);
    expect(taken).toEqual([1, 2, 3]);
  });

  it('stops at the step before which the check throws', async () => {
    const taken: number[] = [];
    let checks = 0;
    const run = inTurns(counting(5, taken), () => {
      checks += 1;
      if (checks === 3) throw new Error('gone');
    });
    await expect(run).rejects.toThrow('gone');
    expect(taken).toEqual([1, 2]);
  });
});
