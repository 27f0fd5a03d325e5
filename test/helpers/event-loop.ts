import { setImmediate } from 'node:timers/promises';

/**
 * Which settles first: `work`, or a turn of the event loop asked for just after it started. Work done in
 * one go (however it is wrapped in promises) settles first; work that yields to the event loop does not.
 */
export async function firstToSettle(work: Promise<unknown>): Promise<'work' | 'turn'> {
  const order: ('work' | 'turn')[] = [];
  const done = work.then(() => order.push('work'));
  const turned = setImmediate().then(() => order.push('turn'));
  await Promise.all([done, turned]);
  return order[0] as 'work' | 'turn';
}
