import { describe, expect, it } from 'vitest';
import { TwinPool } from './twin-pool.js';

describe('TwinPool', () => {
  it('hands out twins oldest first, skipping the ones no longer waiting', () => {
    const gone = new Set<string>();
    const pool = new TwinPool<{ id: string }>((item) => !gone.has(item.id));
    for (const id of ['a', 'b', 'c']) pool.add('delete', { id });
    pool.add('save', { id: 's' });
    gone.add('b');
    expect(pool.slots).toBe(4);
    expect(pool.take('delete')?.id).toBe('a');
    expect(pool.take('delete')?.id).toBe('c');
    expect(pool.take('delete')).toBeUndefined();
    expect(pool.take('save')?.id).toBe('s');
    expect(pool.isEmpty).toBe(true);
    expect(pool.slots).toBe(0);
  });

  it('keeps a bucket that never empties bounded', () => {
    const pool = new TwinPool<{ id: number }>(() => true);
    pool.add('row', { id: 0 });
    for (let i = 1; i <= 10_000; i += 1) {
      pool.add('row', { id: i });
      expect(pool.take('row')?.id).toBe(i - 1);
    }
    expect(pool.slots).toBe(1);
  });
});
