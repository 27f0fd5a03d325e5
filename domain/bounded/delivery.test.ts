import { describe, expect, it } from 'vitest';
import { SubscriberQueue } from './subscriber-queue.js';

describe('deliveries', () => {
  it('are one object per event for subscribers that lost nothing, and their own after a loss', async () => {
    const reading = new SubscriberQueue<{ n: number }>(10);
    const alsoReading = new SubscriberQueue<{ n: number }>(10);
    const stalled = new SubscriberQueue<{ n: number }>(2);
    const events = [1, 2, 3, 4].map((n) => ({ n }));
    for (const event of events) for (const queue of [reading, alsoReading, stalled]) queue.push(event);
    const first = (await reading.next()).value;
    expect((await alsoReading.next()).value).toBe(first);
    expect(first).toEqual({ event: events[0], droppedBefore: 0 });
    expect(Object.isFrozen(first)).toBe(true);

    const afterLoss = (await stalled.next()).value;
    expect(afterLoss).toEqual({ event: events[2], droppedBefore: 2 });
    const sameEventNoLoss = [(await reading.next()).value, (await reading.next()).value][1];
    expect(sameEventNoLoss).toEqual({ event: events[2], droppedBefore: 0 });
    expect(afterLoss).not.toBe(sameEventNoLoss);
    expect((await stalled.next()).value).toBe((await reading.next()).value);
  });

  it('of primitive events are plain values, equal but not shared', async () => {
    const a = new SubscriberQueue<string>(2);
    const b = new SubscriberQueue<string>(2);
    a.push('x');
    b.push('x');
    expect((await a.next()).value).toEqual((await b.next()).value);
  });
});
