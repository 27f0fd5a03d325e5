import { describe, expect, it } from 'vitest';
import { fieldChanges } from './field-changes.js';

describe('fieldChanges', () => {
  it('writes each changed field before and after as text, an empty set of states as ""', () => {
    expect(
      fieldChanges(
        { states: [], value: null, level: 1, bbox: { x: 0, y: 0, width: 5, height: 5 } },
        { states: ['CHECKED', 'FOCUSED'], value: 'on', level: 2, bbox: null },
      ),
    ).toEqual([
      { field: 'states', before: '', after: 'CHECKED FOCUSED' },
      { field: 'value', before: null, after: 'on' },
      { field: 'level', before: '1', after: '2' },
      { field: 'bbox', before: '0,0,5,5', after: null },
    ]);
  });
});
