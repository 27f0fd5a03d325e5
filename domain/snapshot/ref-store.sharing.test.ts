import { describe, expect, it } from 'vitest';
import { rawSnapshot, type TreeSpec } from '../../test/helpers/fabricated-snapshots.js';
import { diff } from './diff.js';
import { NODES_PER_STEP } from './reconcile-nodes.js';
import { RefStore } from './ref-store.js';

/** Rows of a list: a listitem (key 10·n) holding a button (key 10·n + 1). */
const item = (n: number, name = `Item ${n}`): TreeSpec => ({
  role: 'listitem',
  name,
  key: 10 * n,
  children: [{ role: 'button', name: `Open ${name}`, key: 10 * n + 1, interactive: true }],
});
const page = (items: TreeSpec[], title = 'List'): TreeSpec => ({
  role: 'document',
  name: title,
  key: 1,
  children: [{ role: 'list', name: '', key: 2, children: items }],
});
const numbers = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

describe('RefStore whole passes share unchanged nodes with the window’s last snapshot', () => {
  it('gives an unchanged page the last snapshot’s node objects, every one', () => {
    const store = new RefStore('s');
    const first = store.recordNow('w', rawSnapshot(page(numbers(3).map((n) => item(n)))));
    // A fresh walk of the same page: new raw objects, equal facts.
    const second = store.recordNow('w', rawSnapshot(page(numbers(3).map((n) => item(n)))));
    expect(second.nodes).toHaveLength(first.nodes.length);
    for (const [index, node] of second.nodes.entries()) expect(node).toBe(first.nodes[index]);
  });

  it('gives a changed node, and a parent whose children changed, nodes of their own', () => {
    const store = new RefStore('s');
    const first = store.recordNow('w', rawSnapshot(page(numbers(3).map((n) => item(n)))));
    const second = store.recordNow(
      'w',
      rawSnapshot(page([item(1), item(2, 'Item two'), item(3), item(4)], 'List')),
    );
    const changed = new Set(['Item two', 'Open Item two', 'Item 4', 'Open Item 4', '']);
    for (const node of second.nodes) {
      const before = first.node(node.ref);
      // The list gained a child; item 2 and its button were renamed; item 4 is new.
      if (changed.has(node.name)) expect(node).not.toBe(before);
      else expect(node).toBe(before);
    }
    // What a reader sees is what a pass without sharing gives.
    const unshared = new RefStore('s');
    unshared.recordNow('w', rawSnapshot(page(numbers(3).map((n) => item(n)))));
    const alone = unshared.recordNow(
      'w',
      rawSnapshot(page([item(1), item(2, 'Item two'), item(3), item(4)])),
    );
    expect(second.nodes).toEqual(alone.nodes);
    expect(diff(first, second).changed.map((entry) => entry.changes)).toEqual([
      { name: 'Item two' },
      { name: 'Open Item two' },
    ]);
  });

  it('shares nothing with a snapshot of another document', () => {
    const store = new RefStore('s');
    const first = store.recordNow('w', rawSnapshot(page([item(1)]), { documentId: 'd1' }));
    const second = store.recordNow('w', rawSnapshot(page([item(1)]), { documentId: 'd2' }));
    for (const node of second.nodes) expect(first.nodes).not.toContain(node);
  });

  it('shares across the steps of a stepped record of a page larger than one step', async () => {
    const rows = Math.ceil(NODES_PER_STEP / 2) + 10;
    const store = new RefStore('s');
    const first = await store.record(
      'w',
      rawSnapshot(page(numbers(rows).map((n) => item(n)))),
      {},
      store.actions.mark,
    );
    const second = await store.record(
      'w',
      rawSnapshot(page(numbers(rows).map((n) => item(n)))),
      {},
      store.actions.mark,
    );
    expect(second.nodes.length).toBeGreaterThan(NODES_PER_STEP);
    expect(second.nodes.every((node, index) => node === first.nodes[index])).toBe(true);
  });
});
