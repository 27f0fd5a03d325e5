import { describe, expect, it } from 'vitest';
import { effectOf } from './effect-summary.js';

describe('effectOf', () => {
  it('counts the diff an action answered with', () => {
    const diff = {
      from: 'n1',
      to: 'n2',
      url: 'app://x',
      documentReplaced: false,
      added: [{}, {}],
      removed: [{}],
      changed: [],
    };
    expect(effectOf({ windowId: 'w1', diff })).toEqual({
      added: 2,
      removed: 1,
      changed: 0,
      documentReplaced: false,
    });
  });

  it('claims nothing when no diff was read, or the result is not an action outcome', () => {
    expect(effectOf({ windowId: 'w1', diff: null })).toBeUndefined();
    expect(effectOf({ diff: { added: 3 } })).toBeUndefined();
    expect(effectOf(null)).toBeUndefined();
    expect(effectOf('ok')).toBeUndefined();
  });
});
