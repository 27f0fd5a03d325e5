import { describe, expect, it, vi } from 'vitest';
import { SubscriberQueue } from './subscriber-queue.js';

describe('SubscriberQueue', () => {
  it('hands a pushed event straight to a waiting reader', async () => {
    const queue = new SubscriberQueue<string>(2);
    const next = queue.next();
    queue.push('a');
    expect(await next).toEqual({ value: { event: 'a', droppedBefore: 0 }, done: false });
  });

  it('drops the oldest when the reader stalls and tells it how many it lost', async () => {
    const queue = new SubscriberQueue<number>(3);
    for (let i = 1; i <= 10; i += 1) queue.push(i);
    expect(queue.pending).toBe(3);
    expect((await queue.next()).value).toEqual({ event: 8, droppedBefore: 7 });
    expect((await queue.next()).value).toEqual({ event: 9, droppedBefore: 0 });
    expect(queue.droppedTotal).toBe(7);
  });

  it('stays bounded under a long stall', () => {
    const queue = new SubscriberQueue<number>(100);
    for (let i = 0; i < 200_000; i += 1) queue.push(i);
    expect(queue.pending).toBe(100);
    expect(queue.droppedTotal).toBe(199_900);
  });

  it('closing ends a pending read and runs teardown once', async () => {
    const onClose = vi.fn();
    const queue = new SubscriberQueue<number>(2, onClose);
    const next = queue.next();
    await queue.return();
    queue.close();
    expect(await next).toEqual({ value: undefined, done: true });
    expect(onClose).toHaveBeenCalledTimes(1);
    queue.push(1);
    expect(queue.pending).toBe(0);
  });
});
