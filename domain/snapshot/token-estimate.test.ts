import { describe, expect, it } from 'vitest';
import { rawSnapshot } from '../../test/helpers/fabricated-snapshots.js';
import { outline } from './outline.js';
import { paginate } from './paginate.js';
import { RefStore } from './ref-store.js';
import { CHARS_PER_TOKEN, estimateNodeTokens, estimatePageNodeTokens } from './token-estimate.js';

const snapshot = new RefStore('s1').recordNow(
  'w1',
  rawSnapshot({
    role: 'document',
    name: 'Shop',
    children: [
      { role: 'button', name: 'Save draft', interactive: true },
      { role: 'textbox', name: 'Name', value: 'Ada', interactive: true },
    ],
  }),
);

describe('estimatePageNodeTokens', () => {
  it('prices a node as its outline line when neither nodes nor outline is selected', () => {
    const button = snapshot.node('e2')!;
    const line = 'e2 button "Save draft"';
    expect(estimatePageNodeTokens(snapshot, button, { fields: [] })).toBe(
      Math.ceil((line.length + 1) / CHARS_PER_TOKEN),
    );
  });

  it('prices the selected forms, and both when both are selected', () => {
    const field = snapshot.node('e3')!;
    const json = estimateNodeTokens(snapshot, field, ['ref', 'name']);
    const line = estimatePageNodeTokens(snapshot, field, { fields: [] });
    expect(estimatePageNodeTokens(snapshot, field, { fields: ['ref', 'name'] })).toBe(json);
    expect(estimatePageNodeTokens(snapshot, field, { fields: ['ref', 'name'], outline: true })).toBe(
      json + line,
    );
    expect(estimatePageNodeTokens(snapshot, field, { fields: [], outline: true })).toBe(line);
  });

  it('gives a page read for its estimate alone the price of its outline, not 0', () => {
    const page = paginate(snapshot, { fields: [] });
    const text = outline(snapshot, page.nodes);
    expect(page.estimatedTokens).toBeGreaterThan(0);
    // One token per CHARS_PER_TOKEN characters of the outline, give or take the rounding of each line.
    expect(page.estimatedTokens).toBeGreaterThanOrEqual(Math.ceil(text.length / CHARS_PER_TOKEN) - 3);
    expect(page.estimatedTokens).toBeLessThanOrEqual(Math.ceil(text.length / CHARS_PER_TOKEN) + 3);
  });
});
