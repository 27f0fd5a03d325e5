import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ring-buffer.js';

describe('RingBuffer', () => {
  it('keeps everything until full, oldest first', () => {
    const ring = new RingBuffer<number>(3);
    ring.push(1);
    ring.push(2);
    expect(ring.toArray()).toEqual([1, 2]);
    expect(ring.overflowed).toBe(0);
  });

  it('drops the oldest past capacity and counts them', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 1; i <= 10; i += 1) ring.push(i);
    expect(ring.toArray()).toEqual([8, 9, 10]);
    expect(ring.size).toBe(3);
    expect(ring.overflowed).toBe(7);
  });

  it('refuses a capacity that cannot hold anything', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });
});
