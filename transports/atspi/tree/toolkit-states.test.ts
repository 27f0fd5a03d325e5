import { describe, expect, it } from 'vitest';
import { hasState, isDisabled, isShown, STATE, type StateWords } from './atspi-states.js';
import { canonicalStates, propertyReads, toolkitOf } from './toolkit-states.js';

const words = (...states: (keyof typeof STATE)[]): StateWords => {
  const set = [0, 0];
  for (const state of states) set[STATE[state] < 32 ? 0 : 1]! |= 1 << (STATE[state] % 32);
  return [set[0]! >>> 0, set[1]! >>> 0];
};

describe('toolkit states', () => {
  it('names the toolkit family from what the app reports (as pyatspi read the fixtures)', () => {
    expect(toolkitOf('gtk', '3.24.38').family).toBe('gtk3');
    expect(toolkitOf('GTK', '4.8.3').family).toBe('gtk4');
    expect(toolkitOf('Qt', '5.15.8').family).toBe('qt');
    expect(toolkitOf('Chromium', '120.0').family).toBe('chromium');
    expect(toolkitOf('', '').family).toBe('other');
  });

  it('reads a GTK4 button (SENSITIVE, VISIBLE, FOCUSABLE, no ENABLED or SHOWING) as enabled and shown', () => {
    const button = words('SENSITIVE', 'VISIBLE', 'FOCUSABLE');
    expect(isDisabled(button) || !isShown(button, false)).toBe(true);
    const read = canonicalStates(button, 'gtk4');
    expect(isDisabled(read)).toBe(false);
    expect(isShown(read, false)).toBe(true);
    expect(hasState(read, 'FOCUSABLE')).toBe(true);
  });

  it('keeps an insensitive GTK4 widget disabled, and leaves other toolkits words as they are', () => {
    expect(isDisabled(canonicalStates(words('VISIBLE', 'FOCUSABLE'), 'gtk4'))).toBe(true);
    const gtk3 = words('SENSITIVE', 'VISIBLE');
    expect(canonicalStates(gtk3, 'gtk3')).toEqual(gtk3);
    expect(isDisabled(canonicalStates(gtk3, 'gtk3'))).toBe(true);
    expect(canonicalStates(gtk3, 'qt')).toEqual(gtk3);
  });

  it('reads Qt 5 and 6 as AT-SPI means them (as pyatspi read the Qt fixture), one property at a time', () => {
    const button = words('ENABLED', 'SENSITIVE', 'FOCUSABLE', 'SHOWING', 'VISIBLE');
    expect(canonicalStates(button, 'qt')).toEqual(button);
    expect(isDisabled(button) || !isShown(button, false)).toBe(false);
    // A disabled QPushButton clears ENABLED and SENSITIVE together and stays shown.
    const disabled = words('FOCUSABLE', 'SHOWING', 'VISIBLE');
    expect(isDisabled(canonicalStates(disabled, 'qt'))).toBe(true);
    expect(isShown(canonicalStates(disabled, 'qt'), false)).toBe(true);
    // An item of a closed QMenu: neither VISIBLE nor SHOWING, so not shown until its menu opens.
    expect(isShown(canonicalStates(words('ENABLED', 'SENSITIVE'), 'qt'), true)).toBe(false);
    expect(toolkitOf('Qt', '6.4.2').family).toBe('qt');
    expect(propertyReads('qt')).toBe('each');
    expect(propertyReads('gtk3')).toBe('all');
  });
});
