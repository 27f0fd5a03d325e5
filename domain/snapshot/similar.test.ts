import { describe, expect, it } from 'vitest';
import { rawSnapshot, tablePage } from '../../test/helpers/fabricated-snapshots.js';
import { RefStore } from './ref-store.js';
import { MAX_SIMILAR, similarRefs } from './similar.js';

const snapshot = new RefStore('s1').recordNow(
  'w1',
  rawSnapshot({
    role: 'document',
    children: [
      { role: 'button', name: 'Delete', interactive: true },
      { role: 'link', name: 'Delete account', interactive: true },
      { role: 'text', name: 'Delete' },
      { role: 'button', name: 'Cancel', interactive: true },
      { role: 'heading', name: 'Quarterly report' },
    ],
  }),
);

describe('similarRefs', () => {
  it('forgives typos and case, prefers an equal role, and ignores an equal role with an unlike name', () => {
    expect(similarRefs({ role: 'button', name: 'delet' }, snapshot).map((c) => [c.ref, c.score])).toEqual([
      ['e2', 0.889],
      ['e4', 0.622],
      ['e3', 0.467],
    ]);
  });

  it('offers the names a swapped-letter typo of one word was meant for ("Svae" → "Save draft")', () => {
    const page = new RefStore('s2').recordNow(
      'w1',
      rawSnapshot({
        role: 'document',
        children: [
          { role: 'button', name: 'Save file', interactive: true },
          { role: 'button', name: 'Save draft', interactive: true },
          { role: 'button', name: 'Add task', interactive: true },
        ],
      }),
    );
    expect(similarRefs({ role: 'button', name: 'Svae' }, page).map((c) => [c.name, c.score])).toEqual([
      ['Save file', 0.6],
      ['Save draft', 0.6],
    ]);
  });

  it('ranks an interactive node above a text node of the same name', () => {
    expect(similarRefs({ name: 'Delete' }, snapshot).map((c) => c.ref)).toEqual(['e2', 'e4', 'e3']);
  });

  it('matches reordered words', () => {
    expect(similarRefs({ name: 'report quarterly' }, snapshot)[0]?.ref).toBe('e6');
  });

  it('offers nothing for nothing, and nothing below the noise floor', () => {
    expect(similarRefs({}, snapshot)).toEqual([]);
    expect(similarRefs({ name: 'xyzzy' }, snapshot)).toEqual([]);
  });

  it(`returns at most ${MAX_SIMILAR}, best first, from a 50,000-node page`, () => {
    const big = new RefStore('s1').recordNow('w1', tablePage(5_000));
    const found = similarRefs({ role: 'checkbox', name: 'Select user 4321' }, big);
    expect(found).toHaveLength(MAX_SIMILAR);
    expect(found[0]).toMatchObject({ name: 'Select user 4321', score: 1 });
    expect(found.every((candidate) => candidate.role === 'checkbox')).toBe(true);
  });
});
