import { describe, expect, it } from 'vitest';
import { ariaRole, atspiRoleName, isInteractiveRole, isSecretRole, namedFromContent } from './atspi-roles.js';
import { hasState, isDisabled, isShown, nodeStates, STATE, type StateWords } from './atspi-states.js';

/** The two wire words of a state set holding these states. */
function words(...states: (keyof typeof STATE)[]): StateWords {
  const out: [number, number] = [0, 0];
  for (const state of states) {
    const bit = STATE[state];
    out[bit < 32 ? 0 : 1] = (out[bit < 32 ? 0 : 1] | (1 << (bit % 32))) >>> 0;
  }
  return out;
}

describe('AT-SPI roles in ARIA words', () => {
  it('names role numbers as GetRoleName does, and maps them as the page engine names roles', () => {
    const seen: Record<number, [string, string]> = {
      7: ['check box', 'checkbox'],
      8: ['check menu item', 'menuitemcheckbox'],
      11: ['combo box', 'combobox'],
      16: ['dialog', 'dialog'],
      20: ['filler', 'generic'],
      23: ['frame', 'window'],
      29: ['label', 'text'],
      32: ['list item', 'listitem'],
      33: ['menu', 'menu'],
      34: ['menu bar', 'menubar'],
      35: ['menu item', 'menuitem'],
      37: ['page tab', 'tab'],
      39: ['panel', 'generic'],
      40: ['password text', 'textbox'],
      43: ['push button', 'button'],
      49: ['scroll pane', 'generic'],
      50: ['separator', 'separator'],
      52: ['spin button', 'spinbutton'],
      61: ['text', 'textbox'],
      68: ['viewport', 'generic'],
      69: ['window', 'window'],
      75: ['application', 'generic'],
      88: ['link', 'link'],
      98: ['list box', 'listbox'],
    };
    for (const [role, [name, aria]] of Object.entries(seen)) {
      expect(atspiRoleName(Number(role))).toBe(name);
      expect(ariaRole(Number(role))).toBe(aria);
    }
    expect(atspiRoleName(9999)).toBe('unknown');
    expect(isSecretRole(40)).toBe(true);
    expect(isSecretRole(61)).toBe(false);
  });

  it('counts list items as interactive only when selectable, and menus only with an action', () => {
    expect(isInteractiveRole('button', false, true)).toBe(true);
    expect(isInteractiveRole('listitem', false, false)).toBe(false);
    expect(isInteractiveRole('listitem', true, false)).toBe(true);
    expect(isInteractiveRole('menu', false, true)).toBe(true);
    expect(isInteractiveRole('menu', false, false)).toBe(false);
    expect(isInteractiveRole('text', false, false)).toBe(false);
    expect(namedFromContent('listitem')).toBe(true);
    expect(namedFromContent('textbox')).toBe(false);
  });
});

describe('AT-SPI states', () => {
  it('reads the bits of both words', () => {
    // The fixture's Submit button, as its Cache item reports it.
    const submit: StateWords = [0x43000900, 0];
    for (const state of ['VISIBLE', 'SHOWING', 'SENSITIVE', 'FOCUSABLE', 'ENABLED'] as const) {
      expect(hasState(submit, state)).toBe(true);
    }
    expect(hasState(submit, 'CHECKED')).toBe(false);
    expect(hasState(words('REQUIRED'), 'REQUIRED')).toBe(true);
    expect(hasState(words('READ_ONLY'), 'READ_ONLY')).toBe(true);
  });

  it('is disabled without ENABLED or without SENSITIVE, and shown when VISIBLE and SHOWING', () => {
    expect(isDisabled(words('ENABLED', 'SENSITIVE'))).toBe(false);
    expect(isDisabled(words('ENABLED'))).toBe(true);
    expect(isDisabled(words('SENSITIVE'))).toBe(true);
    expect(isShown(words('VISIBLE', 'SHOWING'), false)).toBe(true);
    expect(isShown(words('VISIBLE'), false)).toBe(false);
    expect(isShown(words('VISIBLE'), true)).toBe(true);
    expect(isShown(words('SHOWING'), true)).toBe(false);
  });

  it('gives NodeState words in the page engine order', () => {
    expect(nodeStates(words('ENABLED', 'SENSITIVE', 'CHECKED', 'FOCUSED'), 'checkbox')).toEqual([
      'CHECKED',
      'FOCUSED',
    ]);
    expect(nodeStates(words('INDETERMINATE', 'CHECKED'), 'checkbox')).toEqual(['DISABLED', 'MIXED']);
    expect(nodeStates(words('ENABLED', 'SENSITIVE', 'EXPANDABLE'), 'menu')).toEqual(['COLLAPSED']);
    expect(nodeStates(words('ENABLED', 'SENSITIVE', 'EXPANDABLE', 'EXPANDED'), 'menu')).toEqual(['EXPANDED']);
    expect(nodeStates(words('ENABLED', 'SENSITIVE'), 'textbox')).toEqual(['READONLY']);
    expect(nodeStates(words('ENABLED', 'SENSITIVE', 'EDITABLE', 'REQUIRED'), 'textbox')).toEqual([
      'REQUIRED',
    ]);
    expect(nodeStates(words('ENABLED', 'SENSITIVE', 'CHECKED'), 'button')).toEqual(['PRESSED']);
  });
});
