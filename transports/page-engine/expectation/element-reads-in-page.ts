/// <reference lib="dom" />
import type { ExpectKind } from '../../contract/window-driver.js';
import type { Engine } from '../snapshot/install.js';

/**
 * In-page: an element's text, value and states with the semantics of the Playwright calls the gateway's
 * expectations made (innerText, inputValue, isVisible/isHidden, isEnabled/isDisabled, isChecked), ported
 * from Playwright 1.65's injected script: its retargeting (a label reads as its control), its visibility
 * (a styled, non-empty box; display:contents by its children), its disabled state (native, fieldset,
 * optgroup, inherited aria-disabled on roles that take it) and checked state, and its failures (a read it
 * would throw on answers FAILED). Roles are the snapshot walker's, which agree with Playwright's on
 * these role lists; the checked roles are the contract's CHECKABLE_ROLES (Playwright's kAriaCheckedRoles).
 * A self-contained factory: its source is shipped into the page whole, so that list arrives as an argument.
 */
export function createElementReads(engineGlobal: string, ariaCheckedRoles: readonly string[]) {
  /** A read Playwright would have failed: its error kept the expectation's previous value. */
  const FAILED: { readonly failed: true } = { failed: true };
  const XHTML = 'http://www.w3.org/1999/xhtml';
  const ARIA_DISABLED_ROLES = [
    'application',
    'button',
    'composite',
    'gridcell',
    'group',
    'input',
    'link',
    'menuitem',
    'scrollbar',
    'separator',
    'tab',
    'checkbox',
    'columnheader',
    'combobox',
    'grid',
    'listbox',
    'menu',
    'menubar',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'radio',
    'radiogroup',
    'row',
    'rowheader',
    'searchbox',
    'select',
    'slider',
    'spinbutton',
    'switch',
    'tablist',
    'textbox',
    'toolbar',
    'tree',
    'treegrid',
    'treeitem',
  ];

  function upperTag(element: Element): string {
    return element.tagName.toUpperCase();
  }

  /** Playwright's retarget(): a label's control, a control's nearest button-like ancestor. */
  function retarget(element: Element, followLabel: boolean): Element {
    let at = element;
    if (!at.matches('input, textarea, select') && !(at as HTMLElement).isContentEditable)
      at = at.closest('button, [role=button], [role=checkbox], [role=radio]') ?? at;
    if (
      followLabel &&
      !at.matches(
        'a, input, textarea, button, select, option, optgroup, [role=link], [role=button], [role=checkbox], [role=radio]',
      ) &&
      !(at as HTMLElement).isContentEditable
    ) {
      const label = at.closest('label');
      if (label?.control) at = label.control;
    }
    return at;
  }

  function textNodeVisible(node: Text): boolean {
    const range = (node.ownerDocument as Document).createRange();
    range.selectNode(node);
    const rect = range.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  }

  /** Playwright's isElementVisible (computeBox): a styled, non-empty box, or display:contents with one. */
  function isVisible(element: Element): boolean {
    const style = element.ownerDocument.defaultView?.getComputedStyle(element);
    if (!style) return true;
    if (style.display === 'contents') {
      for (let child = element.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 1 && isVisible(child as Element)) return true;
        if (child.nodeType === 3 && textNodeVisible(child as Text)) return true;
      }
      return false;
    }
    if (!element.checkVisibility()) return false;
    if (style.visibility !== 'visible') return false;
    const rect = element.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  }

  /** The role as the walker computes it (Playwright asks its own; the two agree on these role lists). */
  function roleOf(element: Element): string {
    const engine = (window as unknown as Record<string, Engine | undefined>)[engineGlobal];
    if (!engine) return '';
    const { node } = JSON.parse(engine.walker.describe(element)) as { node: unknown[] };
    return String(node[2]);
  }

  function ariaDisabledInChain(element: Element): boolean {
    for (let at: Element | null = element; at; ) {
      const attribute = (at.getAttribute('aria-disabled') ?? '').toLowerCase();
      if (attribute === 'true') return true;
      if (attribute === 'false') return false;
      const up: Node | null = at.parentNode;
      at = up?.nodeType === 11 ? (up as ShadowRoot).host : (at.parentElement ?? null);
    }
    return false;
  }

  /** Playwright's getAriaDisabled: natively disabled, or aria-disabled (inherited) on a role that takes it. */
  function isDisabled(element: Element): boolean {
    const tag = upperTag(element);
    if (['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'OPTGROUP'].includes(tag)) {
      if (element.hasAttribute('disabled')) return true;
      if (tag === 'OPTION' && element.closest('OPTGROUP[DISABLED]')) return true;
      const fieldset = element.closest('FIELDSET[DISABLED]');
      if (fieldset) {
        const legend = fieldset.querySelector(':scope > LEGEND');
        if (!legend?.contains(element)) return true;
      }
    }
    return ariaDisabledInChain(element) && ARIA_DISABLED_ROLES.includes(roleOf(element));
  }

  /** Playwright's checked state: a checkbox or radio input's, or aria-checked on a role that takes it. */
  function checkedOf(element: Element): boolean | typeof FAILED {
    if (upperTag(element) === 'INPUT' && ['checkbox', 'radio'].includes((element as HTMLInputElement).type))
      return (element as HTMLInputElement).checked;
    if (!ariaCheckedRoles.includes(roleOf(element))) return FAILED;
    return (element.getAttribute('aria-checked') ?? '').toLowerCase() === 'true';
  }

  /** The value of `kind` for `element` (null: nothing matched; `pastEnd`: a locator's nth past the end). */
  function read(
    kind: ExpectKind,
    element: Element | null,
    pastEnd: boolean,
  ): string | boolean | typeof FAILED {
    if (pastEnd && kind !== 'VISIBLE' && kind !== 'HIDDEN') return FAILED;
    switch (kind) {
      case 'VISIBLE':
        return element ? isVisible(element) : false;
      case 'HIDDEN':
        return element ? !isVisible(element) : true;
      case 'ENABLED':
        return element ? !isDisabled(retarget(element, true)) : false;
      case 'DISABLED':
        return element ? isDisabled(retarget(element, true)) : false;
      case 'CHECKED':
        return element ? checkedOf(retarget(element, true)) : false;
      case 'TEXT':
        if (!element) return '';
        return element.namespaceURI === XHTML ? (element as HTMLElement).innerText : FAILED;
      case 'VALUE': {
        if (!element) return '';
        const control = retarget(element, true);
        return ['INPUT', 'TEXTAREA', 'SELECT'].includes(control.nodeName)
          ? (control as HTMLInputElement).value
          : FAILED;
      }
      default:
        return FAILED;
    }
  }

  return { read, FAILED };
}

export type ElementReads = ReturnType<typeof createElementReads>;
