import { CHECKABLE_ROLES } from '../../contract/aria-roles.js';
import type { NodeState } from '../../contract/window-driver.js';

/**
 * AT-SPI's state set (AtspiStateType: bit n of the two 32-bit words is state n) read as the page engine's
 * NodeState words, and the flags actionability checks need.
 */
export const STATE = {
  ACTIVE: 1,
  ARMED: 2,
  BUSY: 3,
  CHECKED: 4,
  COLLAPSED: 5,
  DEFUNCT: 6,
  EDITABLE: 7,
  ENABLED: 8,
  EXPANDABLE: 9,
  EXPANDED: 10,
  FOCUSABLE: 11,
  FOCUSED: 12,
  MODAL: 16,
  MULTI_LINE: 17,
  MULTISELECTABLE: 18,
  PRESSED: 20,
  SELECTABLE: 22,
  SELECTED: 23,
  SENSITIVE: 24,
  SHOWING: 25,
  SINGLE_LINE: 26,
  VISIBLE: 30,
  MANAGES_DESCENDANTS: 31,
  INDETERMINATE: 32,
  REQUIRED: 33,
  CHECKABLE: 41,
  READ_ONLY: 43,
} as const;

export type StateName = keyof typeof STATE;
export type StateWords = readonly [number, number];

export function hasState(words: StateWords, state: StateName): boolean {
  const bit = STATE[state];
  const word = bit < 32 ? words[0] : words[1];
  return ((word >>> (bit % 32)) & 1) === 1;
}

/** GetState's answer (a list of 32-bit words) as the two words a Cache item carries. */
export function stateWords(words: readonly number[]): StateWords {
  return [words[0] ?? 0, words[1] ?? 0];
}

/** Disabled in the page engine's sense: not ENABLED, or not SENSITIVE (GTK clears SENSITIVE alone). */
export function isDisabled(words: StateWords): boolean {
  return !hasState(words, 'ENABLED') || !hasState(words, 'SENSITIVE');
}

/**
 * Shown in the page engine's sense: VISIBLE and SHOWING (mapped on screen). A menu's items are VISIBLE but
 * not SHOWING while it is closed, yet their action still works — `inClosedMenu` lets them count as shown.
 */
export function isShown(words: StateWords, inClosedMenu: boolean): boolean {
  return hasState(words, 'VISIBLE') && (inClosedMenu || hasState(words, 'SHOWING'));
}

/** The NodeState words of a node of this (ARIA) role, in the page engine's order. */
export function nodeStates(words: StateWords, role: string): NodeState[] {
  const states: NodeState[] = [];
  if (isDisabled(words)) states.push('DISABLED');
  if (hasState(words, 'INDETERMINATE') && CHECKABLE_ROLES.has(role)) states.push('MIXED');
  else if (hasState(words, 'CHECKED') && role !== 'button') states.push('CHECKED');
  if (hasState(words, 'EXPANDABLE') || hasState(words, 'EXPANDED')) {
    states.push(hasState(words, 'EXPANDED') ? 'EXPANDED' : 'COLLAPSED');
  }
  if (hasState(words, 'SELECTED')) states.push('SELECTED');
  if (hasState(words, 'FOCUSED')) states.push('FOCUSED');
  if (hasState(words, 'REQUIRED')) states.push('REQUIRED');
  if (hasState(words, 'READ_ONLY') || (role === 'textbox' && !hasState(words, 'EDITABLE')))
    states.push('READONLY');
  // A GTK toggle button reports CHECKED or PRESSED when down: in ARIA it is a pressed button.
  if (role === 'button' && (hasState(words, 'PRESSED') || hasState(words, 'CHECKED'))) states.push('PRESSED');
  return states;
}
