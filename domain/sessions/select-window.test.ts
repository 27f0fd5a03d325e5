import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { selectWindow } from './select-window.js';

const windows = [
  { id: 'w1', title: 'Stagegraph Fixture', url: 'file:///app/index.html' },
  { id: 'w2', title: 'Second Window', url: 'file:///app/second.html' },
];

describe('selectWindow', () => {
  it.each([
    [{ id: 'w2' }, 'w2'],
    [{ titleContains: 'Second' }, 'w2'],
    [{ urlContains: 'index.html' }, 'w1'],
    [{ index: 1 }, 'w2'],
    [{ index: 0, titleContains: 'Fixture' }, 'w1'],
  ])('%j picks %s', (selector, expected) => {
    expect(selectWindow('s1', windows, selector).id).toBe(expected);
  });

  it('names the open windows when nothing matches', () => {
    try {
      selectWindow('s1', windows, { titleContains: 'Settings' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(StagegraphError);
      const failure = error as StagegraphError;
      expect(failure.code).toBe('WINDOW_NOT_FOUND');
      expect(failure.nextActions[0]).toContain('windows { id title url }');
      expect(failure.details?.openWindows).toHaveLength(2);
    }
  });

  it('refuses an empty selector', () => {
    expect(() => selectWindow('s1', windows, { id: null })).toThrow(/at least one/);
  });
});
