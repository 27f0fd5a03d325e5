import { describe, expect, it } from 'vitest';
import { caught } from '../../test/helpers/caught.js';
import { rawSnapshot, type TreeSpec, tablePage } from '../../test/helpers/fabricated-snapshots.js';
import { diff } from './diff.js';
import { RefStore } from './ref-store.js';

const box = { x: 0, y: 0, width: 10, height: 10 };
const page = (children: TreeSpec[]): TreeSpec => ({ role: 'document', key: 1, children });

describe('diff', () => {
  it('lists added, removed and changed nodes by ref, each change with only the fields that differ', () => {
    const store = new RefStore('s1');
    const before = store.recordNow(
      'w1',
      rawSnapshot(
        page([
          { role: 'checkbox', name: 'Agree', key: 2, states: ['FOCUSED', 'CHECKED'], bbox: box },
          { role: 'textbox', name: 'Email', key: 3, value: 'a@b' },
          { role: 'button', name: 'Send', key: 4 },
        ]),
      ),
    );
    const after = store.recordNow(
      'w1',
      rawSnapshot(
        page([
          { role: 'checkbox', name: 'Agree', key: 2, states: ['CHECKED', 'FOCUSED'], bbox: { ...box, y: 1 } },
          { role: 'textbox', name: 'Email', key: 3, value: 'a@b.c', description: 'Invalid' },
          { role: 'status', name: 'Sent', key: 5 },
        ]),
        { detached: [4] },
      ),
    );
    expect(diff(before, after)).toEqual({
      from: 'w1#1',
      to: 'w1#2',
      url: 'file:///fixture.html',
      documentReplaced: false,
      added: [after.node('e5')],
      removed: [{ ref: 'e4', role: 'button', name: 'Send' }],
      changed: [
        {
          ref: 'e3',
          node: after.node('e3'),
          changes: { value: 'a@b.c', description: 'Invalid' },
          before: { value: 'a@b', description: null },
        },
      ],
    });
    expect(diff(before, after, { bbox: true }).changed[0]).toEqual({
      ref: 'e2',
      node: after.node('e2'),
      changes: { bbox: { ...box, y: 1 } },
      before: { bbox: box },
    });
  });

  it('after a reload, removes everything and adds everything, and says so', () => {
    const store = new RefStore('s1');
    const before = store.recordNow('w1', rawSnapshot(page([{ role: 'button', name: 'Go', key: 2 }])));
    const after = store.recordNow(
      'w1',
      rawSnapshot(page([{ role: 'button', name: 'Go', key: 2 }]), { documentId: 'doc-2' }),
    );
    const changes = diff(before, after);
    expect(changes.documentReplaced).toBe(true);
    expect(changes.removed.map((node) => node.ref)).toEqual(['e1', 'e2']);
    expect(changes.added.map((node) => node.ref)).toEqual(['e3', 'e4']);
    expect(changes.changed).toEqual([]);
  });

  it('refuses snapshots of different windows or scopes', () => {
    const store = new RefStore('s1');
    const full = store.recordNow('w1', rawSnapshot(page([])));
    const partial = store.recordNow('w1', rawSnapshot(page([])), { interactiveOnly: true });
    const other = store.recordNow('w2', rawSnapshot(page([])));
    expect(caught(() => diff(full, partial)).code).toBe('BAD_INPUT');
    expect(caught(() => diff(full, other)).code).toBe('BAD_INPUT');
    expect(
      diff(partial, store.recordNow('w1', rawSnapshot(page([])), { interactiveOnly: true })).changed,
    ).toEqual([]);
  });

  it('stays tiny after one click on the 5,000-row page, even when the page scrolled', () => {
    const store = new RefStore('s1');
    const before = store.recordNow('w1', tablePage(5_000));
    const after = store.recordNow('w1', tablePage(5_000, { checkedRows: [2_500], scrollY: 120 }));
    const changes = diff(before, after);
    expect(changes.added).toEqual([]);
    expect(changes.removed).toEqual([]);
    expect(changes.changed).toHaveLength(1);
    expect(changes.changed[0]).toMatchObject({
      changes: { states: ['CHECKED'] },
      before: { states: [] },
      node: { role: 'checkbox', name: 'Select user 2500' },
    });
  });
});
