/// <reference lib="dom" />

/**
 * In-page: a node's states (window-driver's NodeState) and its value. A self-contained factory: its
 * source is shipped into the page whole, so the contract's role lists (aria-roles.ts) arrive as arguments.
 */
export function createStates(checkableRoles: readonly string[], rangeRoles: readonly string[]) {
  const TEXT_VALUE_TYPES = new Set(['text', 'search', 'email', 'tel', 'url', 'number', 'range', '']);
  const CHECKABLE_ROLES = new Set(checkableRoles);
  const RANGE_ROLES = new Set(rangeRoles);
  const FORM_CONTROL_TAGS = new Set([
    'BUTTON',
    'INPUT',
    'SELECT',
    'TEXTAREA',
    'OPTION',
    'OPTGROUP',
    'FIELDSET',
  ]);

  /**
   * `disabledAbove` is true when an ancestor has aria-disabled=true (the walker tracks it on the way down,
   * so no per-node ancestor walk). Native disabled, including a disabled fieldset's, is read from :disabled.
   */
  function statesOf(
    element: Element,
    role: string,
    focused: Element | null,
    disabledAbove: boolean,
  ): string[] {
    const states: string[] = [];
    const attributed = element.hasAttributes();
    if (
      disabledAbove ||
      (attributed && element.getAttribute('aria-disabled') === 'true') ||
      (FORM_CONTROL_TAGS.has(element.tagName) && element.matches(':disabled'))
    )
      states.push('DISABLED');
    const tag = element.tagName;
    if (tag === 'INPUT') {
      const input = element as HTMLInputElement;
      if (input.type === 'checkbox' || input.type === 'radio') {
        if (input.indeterminate && input.type === 'checkbox') states.push('MIXED');
        else if (input.checked) states.push('CHECKED');
      }
    } else if (attributed && CHECKABLE_ROLES.has(role)) {
      const checked = element.getAttribute('aria-checked');
      if (checked === 'true') states.push('CHECKED');
      else if (checked === 'mixed') states.push('MIXED');
    }
    const expanded = attributed ? element.getAttribute('aria-expanded') : null;
    if (expanded === 'true') states.push('EXPANDED');
    else if (expanded === 'false') states.push('COLLAPSED');
    else if (tag === 'SUMMARY' && element.parentElement?.tagName === 'DETAILS')
      states.push((element.parentElement as HTMLDetailsElement).open ? 'EXPANDED' : 'COLLAPSED');
    if (
      tag === 'OPTION'
        ? (element as HTMLOptionElement).selected
        : attributed && element.getAttribute('aria-selected') === 'true'
    )
      states.push('SELECTED');
    if (element === focused) states.push('FOCUSED');
    if (
      (element as HTMLInputElement).required === true ||
      (attributed && element.getAttribute('aria-required') === 'true')
    )
      states.push('REQUIRED');
    if (
      ((tag === 'INPUT' || tag === 'TEXTAREA') && (element as HTMLInputElement).readOnly) ||
      (attributed && element.getAttribute('aria-readonly') === 'true')
    )
      states.push('READONLY');
    if (!attributed) return states;
    const pressed = element.getAttribute('aria-pressed');
    if (pressed === 'true') states.push('PRESSED');
    else if (pressed === 'mixed') states.push('MIXED');
    return states;
  }

  function selectedLabels(select: HTMLSelectElement): string {
    if (!select.multiple) return select.options[select.selectedIndex]?.label ?? '';
    const labels: string[] = [];
    for (const option of select.selectedOptions) labels.push(option.label);
    return labels.join(', ');
  }

  /** The value a control shows; undefined for nodes without one. Secrets are handled by the walker. */
  function controlValue(element: Element, role: string): string | undefined {
    switch (element.tagName) {
      case 'INPUT': {
        const input = element as HTMLInputElement;
        if (input.type === 'password') return input.value;
        return TEXT_VALUE_TYPES.has(input.type) || input.hasAttribute('list') ? input.value : undefined;
      }
      case 'TEXTAREA':
        return (element as HTMLTextAreaElement).value;
      case 'SELECT':
        return selectedLabels(element as HTMLSelectElement);
      case 'PROGRESS': {
        const progress = element as HTMLProgressElement;
        return progress.position < 0 ? undefined : String(progress.value);
      }
      case 'METER':
        return String((element as HTMLMeterElement).value);
    }
    if (RANGE_ROLES.has(role)) {
      return element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow') ?? undefined;
    }
    const editable = element as HTMLElement;
    if (editable.isContentEditable && !editable.parentElement?.isContentEditable)
      return (editable.textContent ?? '').replace(/\s+/g, ' ').trim();
    return undefined;
  }

  /** Password fields are secret by nature, whatever the agent said. */
  function isSecretByNature(element: Element): boolean {
    return element.tagName === 'INPUT' && (element as HTMLInputElement).type === 'password';
  }

  /** The deep focused element: through open shadow roots and same-origin iframes. */
  function deepActiveElement(): Element | null {
    let active: Element | null = document.activeElement;
    for (;;) {
      if (!active) return null;
      const shadowActive = active.shadowRoot?.activeElement;
      if (shadowActive) {
        active = shadowActive;
        continue;
      }
      if (active.tagName === 'IFRAME') {
        const inner = (active as HTMLIFrameElement).contentDocument?.activeElement;
        if (inner && inner !== inner.ownerDocument.body) {
          active = inner;
          continue;
        }
      }
      return active === document.body ? null : active;
    }
  }

  return { statesOf, controlValue, isSecretByNature, deepActiveElement };
}

export type States = ReturnType<typeof createStates>;
