import { RANGE_ROLES } from '../../contract/aria-roles.js';

/**
 * AT-SPI roles in the page engine's ARIA vocabulary, so snapshots, role targets and outlines read a desktop
 * window as they read a page. Structural containers (filler, panel, viewport, scroll pane …) map to
 * `generic`, which a snapshot leaves out unless it is named — as the DOM walker leaves out plain divs.
 */

/** AT-SPI's role names (atspi-constants.h, AtspiRole), indexed by role number: what GetRoleName answers. */
const ATSPI_ROLE_NAMES = [
  'invalid',
  'accelerator label',
  'alert',
  'animation',
  'arrow',
  'calendar',
  'canvas',
  'check box',
  'check menu item',
  'color chooser',
  'column header',
  'combo box',
  'date editor',
  'desktop icon',
  'desktop frame',
  'dial',
  'dialog',
  'directory pane',
  'drawing area',
  'file chooser',
  'filler',
  'focus traversable',
  'font chooser',
  'frame',
  'glass pane',
  'html container',
  'icon',
  'image',
  'internal frame',
  'label',
  'layered pane',
  'list',
  'list item',
  'menu',
  'menu bar',
  'menu item',
  'option pane',
  'page tab',
  'page tab list',
  'panel',
  'password text',
  'popup menu',
  'progress bar',
  'push button',
  'radio button',
  'radio menu item',
  'root pane',
  'row header',
  'scroll bar',
  'scroll pane',
  'separator',
  'slider',
  'spin button',
  'split pane',
  'status bar',
  'table',
  'table cell',
  'table column header',
  'table row header',
  'tearoff menu item',
  'terminal',
  'text',
  'toggle button',
  'tool bar',
  'tool tip',
  'tree',
  'tree table',
  'unknown',
  'viewport',
  'window',
  'extended',
  'header',
  'footer',
  'paragraph',
  'ruler',
  'application',
  'autocomplete',
  'editbar',
  'embedded',
  'entry',
  'chart',
  'caption',
  'document frame',
  'heading',
  'page',
  'section',
  'redundant object',
  'form',
  'link',
  'input method window',
  'table row',
  'tree item',
  'document spreadsheet',
  'document presentation',
  'document text',
  'document web',
  'document email',
  'comment',
  'list box',
  'grouping',
  'image map',
  'notification',
  'info bar',
  'level bar',
  'title bar',
  'block quote',
  'audio',
  'video',
  'definition',
  'article',
  'landmark',
  'log',
  'marquee',
  'math',
  'rating',
  'timer',
  'static',
  'math fraction',
  'math root',
  'subscript',
  'superscript',
  'description list',
  'description term',
  'description value',
  'footnote',
  'content deletion',
  'content insertion',
  'mark',
  'suggestion',
  'push button menu',
  'switch',
] as const;

/** AT-SPI role name → ARIA role; a role not listed is `generic`. */
const ARIA_ROLES: Readonly<Record<string, string>> = {
  alert: 'dialog',
  'check box': 'checkbox',
  'check menu item': 'menuitemcheckbox',
  'column header': 'columnheader',
  'combo box': 'combobox',
  dialog: 'dialog',
  'file chooser': 'dialog',
  'font chooser': 'dialog',
  'color chooser': 'dialog',
  frame: 'window',
  window: 'window',
  'internal frame': 'window',
  label: 'text',
  static: 'text',
  'accelerator label': 'text',
  caption: 'caption',
  icon: 'img',
  image: 'img',
  list: 'list',
  'list item': 'listitem',
  'list box': 'listbox',
  menu: 'menu',
  'popup menu': 'menu',
  'menu bar': 'menubar',
  'menu item': 'menuitem',
  'tearoff menu item': 'menuitem',
  'radio menu item': 'menuitemradio',
  'page tab': 'tab',
  'page tab list': 'tablist',
  'password text': 'textbox',
  text: 'textbox',
  entry: 'textbox',
  terminal: 'textbox',
  autocomplete: 'combobox',
  'progress bar': 'progressbar',
  'level bar': 'meter',
  'push button': 'button',
  'push button menu': 'button',
  'toggle button': 'button',
  'radio button': 'radio',
  'row header': 'rowheader',
  'table row header': 'rowheader',
  'table column header': 'columnheader',
  'scroll bar': 'scrollbar',
  separator: 'separator',
  slider: 'slider',
  dial: 'slider',
  'spin button': 'spinbutton',
  'status bar': 'status',
  table: 'table',
  'table cell': 'cell',
  'table row': 'row',
  'tool bar': 'toolbar',
  'tool tip': 'tooltip',
  tree: 'tree',
  'tree table': 'treegrid',
  'tree item': 'treeitem',
  header: 'banner',
  footer: 'contentinfo',
  paragraph: 'paragraph',
  heading: 'heading',
  link: 'link',
  form: 'form',
  grouping: 'group',
  notification: 'alert',
  'info bar': 'status',
  'block quote': 'blockquote',
  definition: 'definition',
  article: 'article',
  landmark: 'region',
  log: 'log',
  marquee: 'marquee',
  math: 'math',
  timer: 'timer',
  subscript: 'subscript',
  superscript: 'superscript',
  'description term': 'term',
  'description value': 'definition',
  'content deletion': 'deletion',
  'content insertion': 'insertion',
  mark: 'mark',
  comment: 'note',
  'document frame': 'document',
  'document web': 'document',
  'document text': 'document',
  'document spreadsheet': 'document',
  'document presentation': 'document',
  'document email': 'document',
  switch: 'switch',
};

/**
 * What an agent acts on, whatever its state. List items count only when selectable, and a `menu` only when
 * it has an action: GTK gives a menu bar's File entry the role menu, and activating it opens it.
 */
const INTERACTIVE_ROLES = new Set([
  'button',
  'checkbox',
  'combobox',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'radio',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'treeitem',
]);

/** Roles named by their content when the toolkit gives them no name (accname's name from content). */
const NAME_FROM_CONTENT = new Set([
  'button',
  'cell',
  'checkbox',
  'columnheader',
  'link',
  'listitem',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'radio',
  'row',
  'rowheader',
  'switch',
  'tab',
  'treeitem',
]);

/** Roles that a label names through LABELLED_BY (a mnemonic label beside an entry, a combo, a spin button). */
const LABELLED_ROLES = new Set(['textbox', 'combobox', 'spinbutton', 'slider', 'listbox', 'tree', 'table']);

export function atspiRoleName(role: number): string {
  return ATSPI_ROLE_NAMES[role] ?? 'unknown';
}

export function ariaRole(role: number): string {
  return ARIA_ROLES[atspiRoleName(role)] ?? 'generic';
}

export function isInteractiveRole(ariaRoleName: string, selectable: boolean, hasAction: boolean): boolean {
  return (
    INTERACTIVE_ROLES.has(ariaRoleName) ||
    (ariaRoleName === 'listitem' && selectable) ||
    (ariaRoleName === 'menu' && hasAction)
  );
}

export function namedFromContent(ariaRoleName: string): boolean {
  return NAME_FROM_CONTENT.has(ariaRoleName);
}

export function namedByLabel(ariaRoleName: string): boolean {
  return LABELLED_ROLES.has(ariaRoleName);
}

/** AT-SPI roles whose value is a secret by nature, whatever the agent said. */
export function isSecretRole(role: number): boolean {
  return atspiRoleName(role) === 'password text';
}

/** Roles whose value is AT-SPI's Value interface (a number) rather than their text. */
export function isRangeRole(ariaRoleName: string): boolean {
  return RANGE_ROLES.has(ariaRoleName);
}
