import { describe, expect, it } from 'vitest';
import { rawSnapshot, type TreeSpec } from '../../test/helpers/fabricated-snapshots.js';
import type { RawSnapshot, RawSplice } from '../../transports/contract/window-driver.js';
import { diff } from './diff.js';
import { RefStore } from './ref-store.js';

/** Rows of a list: a listitem (key 10·n) holding a button (key 10·n + 1). */
const item = (n: number, name = `Item ${n}`, key = 10 * n): TreeSpec => ({
  role: 'listitem',
  name,
  key,
  children: [{ role: 'button', name: `Open ${name}`, key: key + 1, interactive: true }],
});
const page = (items: TreeSpec[]): TreeSpec => ({
  role: 'document',
  name: 'List',
  key: 1,
  children: [{ role: 'list', name: '', key: 2, children: items }],
});

/** `next` as a transport would hand it over after splicing only `splices` into `base`. */
function spliced(base: RawSnapshot, next: RawSnapshot, splices: RawSplice[]): RawSnapshot {
  return { ...next, incremental: { base, splices } };
}

describe('RefStore.record of a spliced snapshot', () => {
  it('gives the same refs and the same diff as a whole pass, twins re-paired in document order', () => {
    const items = [1, 2, 3, 4, 5].map((n) => item(n));
    const base = rawSnapshot(page(items));
    // Item 2 is re-rendered (new keys, its old ones detached) and item 4 renamed; the list is described again.
    const next = rawSnapshot(page([item(1), item(2, 'Item 2', 70), item(3), item(4, 'Item four'), item(5)]), {
      detached: [20, 21],
    });
    // Indexes: 0 document, 1 list, then two nodes per item from 2.
    const splices: RawSplice[] = [
      { from: 1, removed: 1, at: 1, inserted: 1 },
      { from: 4, removed: 2, at: 4, inserted: 2 },
      { from: 8, removed: 2, at: 8, inserted: 2 },
    ];
    const fast = new RefStore('s');
    const slow = new RefStore('s');
    const fastBefore = fast.recordNow('w', base);
    const slowBefore = slow.recordNow('w', base);
    const fastAfter = fast.recordNow('w', spliced(base, next, splices));
    const slowAfter = slow.recordNow('w', next);
    expect(fastAfter.nodes).toEqual(slowAfter.nodes);
    expect(fastAfter.node(fastBefore.nodes[4]!.ref)?.name).toBe('Item 2');
    expect(diff(fastBefore, fastAfter)).toEqual(diff(slowBefore, slowAfter));
    expect(diff(fastBefore, fastAfter).changed.map((entry) => entry.changes)).toEqual([
      { name: 'Item four' },
      { name: 'Open Item four' },
    ]);
  });

  it('reconciles the whole snapshot when its base is not the one recorded last', () => {
    const base = rawSnapshot(page([item(1)]));
    const other = rawSnapshot(page([item(1), item(2)]));
    const store = new RefStore('s');
    store.recordNow('w', base);
    store.recordNow('w', other);
    const next = rawSnapshot(page([item(1, 'Renamed')]));
    const after = store.recordNow('w', spliced(base, next, [{ from: 2, removed: 2, at: 2, inserted: 2 }]));
    expect(after.nodes.map((node) => node.name)).toEqual(['List', '', 'Renamed', 'Open Renamed']);
  });
});
