import { describe, expect, it } from 'vitest';
import { labelMatches, menuLabel, qtAcceleratorOf } from './menu-label.js';

describe('menu labels', () => {
  it('trims the padding an Xfce editor leaves, and takes a tab-written accelerator apart', () => {
    expect(menuLabel('Save As...      ', false)).toEqual({ label: 'Save As...', accelerator: null });
    expect(menuLabel('&Open\tCtrl+O', false)).toEqual({ label: '&Open', accelerator: 'Ctrl+O' });
  });

  it('removes mnemonics only for toolkits that leave them in, keeping a doubled underscore as one', () => {
    expect(menuLabel('_Open File…', true).label).toBe('Open File…');
    expect(menuLabel('snake__case', true).label).toBe('snake_case');
    expect(menuLabel('snake_case', false).label).toBe('snake_case');
  });

  it('matches a step as written, trimmed or without underscores', () => {
    expect(labelMatches('Save As...', 'Save As...      ')).toBe(true);
    expect(labelMatches('Save As...', 'Save _As...')).toBe(true);
    expect(labelMatches('snake_case', 'snake_case')).toBe(true);
    expect(labelMatches('Save As...', 'Save')).toBe(false);
  });

  it("reads a Qt key binding's shortcut as the accelerator, its Alt+letter mnemonic as none", () => {
    expect(qtAcceleratorOf('Ctrl+O', 'Open File…')).toBe('Ctrl+O');
    expect(qtAcceleratorOf('Ctrl+Shift+S', 'Save As…')).toBe('Ctrl+Shift+S');
    expect(qtAcceleratorOf('Alt+C', 'Clear')).toBeNull();
    expect(qtAcceleratorOf('Alt+F4', 'Quit')).toBe('Alt+F4');
    expect(qtAcceleratorOf('', 'About')).toBeNull();
  });
});
