import { describe, expect, it } from 'vitest';
import { caught } from '../../test/helpers/caught.js';
import { rawSnapshot, type TreeSpec } from '../../test/helpers/fabricated-snapshots.js';
import { REDACTED_VALUE } from '../../transports/contract/window-driver.js';
import { RECENT_SNAPSHOTS_PER_WINDOW, RefStore } from './ref-store.js';

const form = (children: TreeSpec[]): TreeSpec => ({ role: 'document', name: 'Form', key: 1, children });
const save = (key: number, name = 'Save'): TreeSpec => ({ role: 'button', name, key, interactive: true });

/** Rows 3 and 7, each with a cell holding "Delete" buttons of the given keys. */
function rows(row3: number[], row7: number[]): TreeSpec {
  const row = (n: number, buttonKeys: number[]): TreeSpec => ({
    role: 'row',
    name: `Row ${n}`,
    key: n * 100,
    children: [
      {
        role: 'cell',
        name: 'Delete',
        key: n * 100 + 1,
        children: buttonKeys.map((key) => save(key, 'Delete')),
      },
    ],
  });
  return form([row(3, row3), row(7, row7)]);
}

describe('RefStore.record', () => {
  it('names nodes e1, e2, ... in document order, uniquely across windows, with the graph in place', () => {
    const store = new RefStore('s1', { now: () => new Date(0) });
    const first = store.recordNow('w1', rawSnapshot(form([save(2), { role: 'text', name: 'hi', key: 3 }])));
    expect(first.nodes.map((node) => node.ref)).toEqual(['e1', 'e2', 'e3']);
    expect(first).toMatchObject({ id: 'w1#1', windowId: 'w1', documentId: 'doc-1', rendererReloaded: false });
    expect(first.takenAt).toEqual(new Date(0));
    expect(first.root.childRefs).toEqual(['e2', 'e3']);
    expect(first.parent('e2')?.ref).toBe('e1');
    const other = store.recordNow('w2', rawSnapshot(form([save(2)])));
    expect(other.nodes.map((node) => node.ref)).toEqual(['e4', 'e5']);
    expect(other.id).toBe('w2#1');
    expect(store.resolve('e5')).toEqual({ ref: 'e5', windowId: 'w2', documentId: 'doc-1', key: 2 });
  });

  it('keeps refs of known keys and issues fresh ones for new keys with no detached twin', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2)])));
    const next = store.recordNow('w1', rawSnapshot(form([save(2, 'Save all'), save(5)])));
    expect(next.nodes.map((node) => [node.ref, node.name])).toEqual([
      ['e1', 'Form'],
      ['e2', 'Save all'],
      ['e3', 'Save'],
    ]);
  });

  it('gives a re-rendered element (old key detached, twin under a new key) its old ref', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2)])));
    const next = store.recordNow('w1', rawSnapshot(form([save(9)]), { detached: [2] }));
    expect(next.nodes[1]?.ref).toBe('e2');
    expect(store.resolve('e2').key).toBe(9);
  });

  it('pairs twins by near ancestry: "Delete" of row 7 never takes the ref of row 3', () => {
    const store = new RefStore('s1');
    const before = store.recordNow('w1', rawSnapshot(rows([11], [21])));
    expect([before.node('e4')?.name, before.node('e7')?.name]).toEqual(['Delete', 'Delete']);
    // Row 3's button leaves for good while row 7's is re-rendered and row 7 gains a second one.
    const after = store.recordNow('w1', rawSnapshot(rows([], [41, 42]), { detached: [11, 21] }));
    expect(after.nodes.filter((node) => node.role === 'button').map((node) => node.ref)).toEqual([
      'e7',
      'e8',
    ]);
    expect(store.resolve('e7').key).toBe(41);
    expect(caught(() => store.resolve('e4')).details).toMatchObject({ reason: 'DETACHED' });
  });

  it('pairs identical twins in document order', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2), save(3), save(4)])));
    const next = store.recordNow(
      'w1',
      rawSnapshot(form([save(12), save(13), save(14)]), { detached: [4, 2, 3] }),
    );
    expect(next.nodes.map((node) => node.ref)).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(store.resolve('e2').key).toBe(12);
    expect(store.resolve('e4').key).toBe(14);
  });

  it('pairs a twin that appears a snapshot after the detachment was reported', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2)])));
    store.recordNow('w1', rawSnapshot(form([]), { detached: [2] }));
    expect(caught(() => store.resolve('e2')).code).toBe('REF_STALE');
    store.recordNow('w1', rawSnapshot(form([save(7)])));
    expect(store.resolve('e2').key).toBe(7);
  });

  it('revives a ref whose detached key comes back', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2)])));
    store.recordNow('w1', rawSnapshot(form([]), { detached: [2] }));
    const back = store.recordNow('w1', rawSnapshot(form([save(2)])));
    expect(back.nodes[1]?.ref).toBe('e2');
    expect(store.resolve('e2').key).toBe(2);
  });

  it('keeps refs of nodes merely outside a partial snapshot valid', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2), { role: 'text', name: 'note', key: 3 }])));
    const partial = store.recordNow('w1', rawSnapshot(form([save(2)])), { interactiveOnly: true });
    expect(partial.scope).toEqual({ interactiveOnly: true });
    expect(store.resolve('e3').key).toBe(3);
  });

  it('marks a new document as a renderer reload and every old ref stale', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2)])));
    const reloaded = store.recordNow('w1', rawSnapshot(form([save(2)]), { documentId: 'doc-2' }));
    expect(reloaded.rendererReloaded).toBe(true);
    expect(reloaded.nodes.map((node) => node.ref)).toEqual(['e3', 'e4']);
    const error = caught(() => store.resolve('e2'));
    expect(error.code).toBe('REF_STALE');
    expect(error.details).toMatchObject({
      reason: 'DOCUMENT_REPLACED',
      lastKnown: { role: 'button', name: 'Save' },
    });
    expect(error.similarRefs).toEqual([{ ref: 'e4', role: 'button', name: 'Save', score: 1 }]);
    expect(
      store.recordNow('w1', rawSnapshot(form([save(2)]), { documentId: 'doc-2' })).rendererReloaded,
    ).toBe(false);
  });

  it('redacts a secret value even if the walker forgot to', () => {
    const store = new RefStore('s1');
    const snapshot = store.recordNow(
      'w1',
      rawSnapshot(form([{ role: 'textbox', key: 2, value: 'hunter2', secret: true }])),
    );
    expect(snapshot.nodes[1]?.value).toBe(REDACTED_VALUE);
  });
});

describe('RefStore.resolve', () => {
  it('REF_STALE for a detached element, with what it was, near candidates and next actions', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2)])));
    store.recordNow('w1', rawSnapshot(form([save(3, 'Save draft')]), { detached: [2] }));
    const error = caught(() => store.resolve('e2'));
    expect(error.code).toBe('REF_STALE');
    expect(error.message).toBe(
      'Ref e2 (was button "Save") in window w1 is stale: its element has left the page and nothing took its place.',
    );
    expect(error.details).toMatchObject({ reason: 'DETACHED', windowId: 'w1' });
    expect(error.similarRefs).toEqual([expect.objectContaining({ ref: 'e3', name: 'Save draft' })]);
    expect(error.nextActions).toEqual([
      'query { session(id: "s1") { window(id: "w1") { snapshot(interactiveOnly: true) { outline } } } }',
      'query { session(id: "s1") { window(id: "w1") { find(role: "button", name: "Save") { ref role name } } } }',
    ]);
  });

  it('REF_NOT_FOUND for a ref never issued, with candidates for what the caller wanted', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2)])));
    const error = caught(() =>
      store.resolve('e99', { windowId: 'w1', wanted: { role: 'button', name: 'save' } }),
    );
    expect(error.code).toBe('REF_NOT_FOUND');
    expect(error.similarRefs).toEqual([{ ref: 'e2', role: 'button', name: 'Save', score: 1 }]);
    expect(caught(() => store.resolve('button-1')).message).toContain('Refs look like "e12"');
    expect(caught(() => store.resolve('e2', { windowId: 'w2' })).code).toBe('BAD_INPUT');
  });

  it('REF_STALE (FORGOTTEN) once the window is forgotten', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2)])));
    store.forgetWindow('w1');
    expect(caught(() => store.resolve('e2')).details).toMatchObject({ reason: 'FORGOTTEN' });
    expect(store.last('w1')).toBeUndefined();
  });
});

describe('RefStore.refFor', () => {
  it('names an element found by locator with its existing ref, or a fresh one', () => {
    const store = new RefStore('s1');
    store.recordNow('w1', rawSnapshot(form([save(2)])));
    const node = rawSnapshot(form([save(2)])).nodes[1]!;
    expect(store.refFor('w1', { documentId: 'doc-1', node })).toBe('e2');
    expect(store.refFor('w1', { documentId: 'doc-1', node: { ...node, key: 8 } })).toBe('e3');
    expect(store.refFor('w1', { documentId: 'doc-2', node })).toBe('e4');
    expect(caught(() => store.resolve('e2')).details).toMatchObject({ reason: 'DOCUMENT_REPLACED' });
    expect(
      store.recordNow('w1', rawSnapshot(form([save(2)]), { documentId: 'doc-2' })).rendererReloaded,
    ).toBe(true);
  });
});

describe('RefStore snapshots', () => {
  it(`keeps the last one per window and the last ${RECENT_SNAPSHOTS_PER_WINDOW} by id`, () => {
    const store = new RefStore('s1');
    for (let i = 0; i < RECENT_SNAPSHOTS_PER_WINDOW + 2; i += 1) store.recordNow('w1', rawSnapshot(form([])));
    const lastId = `w1#${RECENT_SNAPSHOTS_PER_WINDOW + 2}`;
    expect(store.last('w1')?.id).toBe(lastId);
    expect(store.snapshot(lastId).id).toBe(lastId);
    expect(store.snapshot('w1#3').id).toBe('w1#3');
    const error = caught(() => store.snapshot('w1#2'));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.details?.keptSnapshots).toHaveLength(RECENT_SNAPSHOTS_PER_WINDOW);
    expect(caught(() => store.snapshot('nope')).code).toBe('BAD_INPUT');
  });
});
