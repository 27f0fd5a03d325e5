import { describe, expect, it } from 'vitest';
import { caught } from '../../test/helpers/caught.js';
import { rawSnapshot } from '../../test/helpers/fabricated-snapshots.js';
import { cursorSnapshotId, paginate } from './paginate.js';
import { RefStore } from './ref-store.js';
import { CHARS_PER_TOKEN, estimateNodeTokens } from './token-estimate.js';

const store = new RefStore('s1');
/** Document e1, then buttons e2..e11 named "Button 0".."Button 9". */
const snapshot = store.recordNow(
  'w1',
  rawSnapshot({
    role: 'document',
    children: Array.from({ length: 10 }, (_, i) => ({
      role: 'button',
      name: `Button ${i}`,
      interactive: true,
    })),
  }),
);
const fields = ['ref', 'role', 'name'] as const;

describe('estimateNodeTokens', () => {
  it('prices the JSON of the selected fields, plus a separator, at CHARS_PER_TOKEN', () => {
    const node = snapshot.node('e2')!;
    const json = '{"ref":"e2","role":"button","name":"Button 0"}';
    expect(estimateNodeTokens(snapshot, node, fields)).toBe(Math.ceil((json.length + 1) / CHARS_PER_TOKEN));
    expect(estimateNodeTokens(snapshot, node, ['ref'])).toBe(
      Math.ceil('{"ref":"e2"},'.length / CHARS_PER_TOKEN),
    );
    expect(estimateNodeTokens(snapshot, snapshot.root, ['children'])).toBeGreaterThan(
      estimateNodeTokens(snapshot, node, ['children']),
    );
    expect(estimateNodeTokens(snapshot, snapshot.root, ['text'])).toBeGreaterThan(25);
  });
});

describe('paginate', () => {
  it('pages in document order with an opaque cursor', () => {
    const page1 = paginate(snapshot, { first: 4, fields });
    expect(page1.nodes.map((node) => node.ref)).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(page1).toMatchObject({ hasMore: true, truncated: false });
    expect(cursorSnapshotId(page1.endCursor!)).toBe(snapshot.id);
    const page2 = paginate(snapshot, { first: 100, after: page1.endCursor, fields });
    expect(page2.nodes.map((node) => node.ref)).toEqual(['e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11']);
    expect(page2).toMatchObject({ hasMore: false, truncated: false });
    expect(page2.estimatedTokens).toBe(
      page2.nodes.reduce((sum, node) => sum + estimateNodeTokens(snapshot, node, fields), 0),
    );
  });

  it('stops before the token budget would be exceeded and says so', () => {
    const perButton = estimateNodeTokens(snapshot, snapshot.node('e2')!, fields);
    const root = estimateNodeTokens(snapshot, snapshot.root, fields);
    const page = paginate(snapshot, { budgetTokens: root + 2 * perButton + 1, fields });
    expect(page.nodes.map((node) => node.ref)).toEqual(['e1', 'e2', 'e3']);
    expect(page).toMatchObject({ hasMore: true, truncated: true, estimatedTokens: root + 2 * perButton });
    const starved = paginate(snapshot, { budgetTokens: 1, after: page.endCursor, fields });
    expect(starved).toMatchObject({ nodes: [], truncated: true, hasMore: true, endCursor: page.endCursor });
  });

  it('refuses a cursor of another snapshot, a forged cursor and nonsense bounds', () => {
    const cursor = paginate(snapshot, { first: 1, fields }).endCursor!;
    const later = store.recordNow('w1', rawSnapshot({ role: 'document' }));
    const error = caught(() => paginate(later, { after: cursor, fields }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.details).toMatchObject({ cursorSnapshotId: snapshot.id, snapshotId: later.id });
    expect(caught(() => paginate(snapshot, { after: 'bm9wZQ', fields })).code).toBe('BAD_INPUT');
    expect(caught(() => cursorSnapshotId('%%%')).code).toBe('BAD_INPUT');
    expect(caught(() => paginate(snapshot, { first: -1, fields })).code).toBe('BAD_INPUT');
    expect(caught(() => paginate(snapshot, { first: 1.5, fields })).code).toBe('BAD_INPUT');
    expect(caught(() => paginate(snapshot, { budgetTokens: 0, fields })).code).toBe('BAD_INPUT');
    expect(paginate(snapshot, { first: 0, fields })).toMatchObject({
      nodes: [],
      hasMore: true,
      endCursor: null,
    });
  });
});
