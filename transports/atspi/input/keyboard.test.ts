import { describe, expect, it } from 'vitest';
import type { StagegraphError } from '../../../errors/stagegraph-error.js';
import { keysymOfChar, keysymOfKey, splitKeyCombo } from './keyboard.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as StagegraphError).code;
  }
}

describe('Playwright key names as X keysyms', () => {
  it('splits combos the way Playwright does, a trailing + being the key', () => {
    expect(splitKeyCombo('Control+a')).toEqual({ modifiers: ['Control'], key: 'a' });
    expect(splitKeyCombo('Control+Shift+Tab')).toEqual({ modifiers: ['Control', 'Shift'], key: 'Tab' });
    expect(splitKeyCombo('Shift++')).toEqual({ modifiers: ['Shift'], key: '+' });
    expect(splitKeyCombo('+')).toEqual({ modifiers: [], key: '+' });
  });

  it('refuses unknown modifiers and an empty key with BAD_INPUT', () => {
    expect(codeOf(() => splitKeyCombo('Hyper+a'))).toBe('BAD_INPUT');
    expect(codeOf(() => splitKeyCombo('Control+'))).toBe('BAD_INPUT');
  });

  it('names keys by key, code, character or X name', () => {
    expect(keysymOfKey('Enter')).toBe(0xff0d);
    expect(keysymOfKey('ArrowDown')).toBe(0xff54);
    expect(keysymOfKey('F5')).toBe(0xffc2);
    expect(keysymOfKey('F12')).toBe(0xffc9);
    expect(keysymOfKey('KeyA')).toBe(0x61);
    expect(keysymOfKey('Digit7')).toBe(0x37);
    expect(keysymOfKey('Numpad3')).toBe(0xffb3);
    expect(keysymOfKey('a')).toBe(0x61);
    expect(keysymOfKey('A')).toBe(0x41);
    expect(keysymOfKey('KP_Enter')).toBe(0xff8d);
    expect(codeOf(() => keysymOfKey('NoSuchKey'))).toBe('BAD_INPUT');
  });

  it('gives Latin-1 characters their own code and the rest Unicode keysyms', () => {
    expect(keysymOfChar('ö')).toBe(0xf6);
    expect(keysymOfChar('€')).toBe(0x10020ac);
    expect(keysymOfChar('😀')).toBe(0x1000000 + 0x1f600);
    expect(keysymOfChar('\n')).toBe(0xff0d);
  });
});
