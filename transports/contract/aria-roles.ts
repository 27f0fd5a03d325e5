/**
 * ARIA role vocabulary every transport family reads nodes with, so a page and a desktop app call the same
 * node the same. The page engine ships its snapshot code into the page as source, so it takes these lists
 * as data rather than import them there.
 */

/** Roles that hold a checked state (aria-checked), and so a mixed one. */
export const CHECKABLE_ROLES: ReadonlySet<string> = new Set([
  'checkbox',
  'radio',
  'switch',
  'menuitemcheckbox',
  'menuitemradio',
  'treeitem',
  'option',
]);

/** Roles whose value is a number in a range (aria-valuenow) rather than text. */
export const RANGE_ROLES: ReadonlySet<string> = new Set([
  'slider',
  'spinbutton',
  'progressbar',
  'scrollbar',
  'meter',
]);
