import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { NODES_PER_ROW, rawSnapshot, tablePage } from '../../test/helpers/fabricated-snapshots.js';
import { MAX_REFS_PER_WINDOW, RefStore } from './ref-store.js';

/** The 5,000-row bench page: 50,002 nodes. */
const ROWS = 5_000;
const SIZE = ROWS * NODES_PER_ROW + 2;

function staleReason(store: RefStore, ref: string): unknown {
  try {
    store.resolve(ref);
  } catch (error) {
    if (error instanceof StagegraphError && error.code === 'REF_STALE') return error.details?.reason;
    throw error;
  }
  return 'LIVE';
}

describe('RefStore at the bench page size', () => {
  it('keeps every ref across a whole re-render of a 50,000-node page', () => {
    const store = new RefStore('s1');
    const first = tablePage(ROWS);
    const before = store.recordNow('w1', first);
    expect(before.nodes).toHaveLength(SIZE);
    const rerendered = tablePage(ROWS, { firstKey: SIZE + 1, detached: first.nodes.map((node) => node.key) });
    const after = store.recordNow('w1', rerendered);
    expect(after.nodes.map((node) => node.ref)).toEqual(before.nodes.map((node) => node.ref));
    expect(store.resolve(after.nodes[SIZE - 1]!.ref).key).toBe(2 * SIZE);
    expect(store.refCount('w1')).toBe(SIZE);
  });

  it('keeps every ref across an unchanged re-snapshot of a 50,000-node page', () => {
    const store = new RefStore('s1');
    const before = store.recordNow('w1', tablePage(ROWS));
    const after = store.recordNow('w1', tablePage(ROWS, { checkedRows: [4_321] }));
    expect(after.nodes.map((node) => node.ref)).toEqual(before.nodes.map((node) => node.ref));
  });
});

describe(`RefStore stays within ${MAX_REFS_PER_WINDOW} refs per window`, () => {
  it('forgets the oldest stale refs of a churning page first', () => {
    const store = new RefStore('s1');
    // Every round replaces 1,000 buttons with 1,000 differently named ones: nothing pairs.
    const round = (n: number) =>
      rawSnapshot(
        {
          role: 'document',
          key: 0,
          children: Array.from({ length: 1_000 }, (_, i) => ({
            role: 'button',
            name: `Item ${n}-${i}`,
            key: n * 1_000 + i + 1,
          })),
        },
        { detached: n === 0 ? [] : Array.from({ length: 1_000 }, (_, i) => (n - 1) * 1_000 + i + 1) },
      );
    const rounds = Math.ceil(MAX_REFS_PER_WINDOW / 1_000) + 20;
    for (let n = 0; n < rounds; n += 1) store.recordNow('w1', round(n));
    expect(store.refCount('w1')).toBe(MAX_REFS_PER_WINDOW);
    expect(staleReason(store, 'e2')).toBe('FORGOTTEN');
    expect(staleReason(store, `e${(rounds - 2) * 1_000 + 2}`)).toBe('DETACHED');
    expect(staleReason(store, store.last('w1')!.nodes[1]!.ref)).toBe('LIVE');
  });

  it('forgets unseen live refs when a page never reports detachment', () => {
    const store = new RefStore('s1');
    const first = store.recordNow('w1', tablePage(ROWS));
    const second = store.recordNow('w1', tablePage(ROWS, { firstKey: SIZE + 1 }));
    const third = store.recordNow('w1', tablePage(ROWS, { firstKey: 2 * SIZE + 1 }));
    expect(store.refCount('w1')).toBe(MAX_REFS_PER_WINDOW);
    expect(staleReason(store, first.nodes[1]!.ref)).toBe('FORGOTTEN');
    for (const snapshot of [second, third])
      expect(staleReason(store, snapshot.nodes.at(-1)!.ref)).toBe('LIVE');
  });
});
