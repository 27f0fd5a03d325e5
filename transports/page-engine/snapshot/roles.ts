/// <reference lib="dom" />

/**
 * In-page: ARIA roles (explicit, else implicit per HTML-AAM), heading/list levels and interactivity.
 * A self-contained factory: its source is shipped into the page whole, so it references nothing outside.
 */
export function createRoles() {
  const VALID_ROLES = new Set(
    (
      'alert alertdialog application article banner blockquote button caption cell checkbox code columnheader ' +
      'combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure ' +
      'form generic grid gridcell group heading img insertion link list listbox listitem log main mark marquee ' +
      'math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph ' +
      'presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox ' +
      'separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term ' +
      'textbox time timer toolbar tooltip tree treegrid treeitem'
    ).split(' '),
  );
  const WIDGET_ROLES = new Set(
    (
      'button checkbox combobox gridcell link listbox menuitem menuitemcheckbox menuitemradio option radio ' +
      'scrollbar searchbox slider spinbutton switch tab textbox treeitem'
    ).split(' '),
  );
  // ARIA 1.2 roles whose name may come from their content; everything else is named only by attributes/labels.
  const NAME_FROM_CONTENT = new Set(
    (
      'button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox menuitemradio option ' +
      'radio row rowheader switch tab tooltip treeitem caption code definition deletion emphasis insertion ' +
      'mark strong subscript superscript term time'
    ).split(' '),
  );
  // Roles whose content text is not read as a name: their descendants' text still appears as `text` nodes.
  const COVERS_TEXT = new Set(
    'button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox menuitemradio option radio rowheader switch tab tooltip treeitem'.split(
      ' ',
    ),
  );
  const INPUT_ROLES: Record<string, string> = {
    button: 'button',
    submit: 'button',
    reset: 'button',
    image: 'button',
    file: 'button',
    color: 'button',
    checkbox: 'checkbox',
    radio: 'radio',
    range: 'slider',
    number: 'spinbutton',
    search: 'searchbox',
  };
  const SIMPLE_TAG_ROLES: Record<string, string> = {
    ARTICLE: 'article',
    BLOCKQUOTE: 'blockquote',
    BUTTON: 'button',
    CAPTION: 'caption',
    CODE: 'code',
    DATALIST: 'listbox',
    DD: 'definition',
    DEL: 'deletion',
    DETAILS: 'group',
    DFN: 'term',
    DIALOG: 'dialog',
    DT: 'term',
    EM: 'emphasis',
    FIELDSET: 'group',
    FIGURE: 'figure',
    HR: 'separator',
    IFRAME: 'iframe',
    INS: 'insertion',
    LI: 'listitem',
    MAIN: 'main',
    MARK: 'mark',
    MATH: 'math',
    MENU: 'list',
    METER: 'meter',
    NAV: 'navigation',
    OL: 'list',
    OPTGROUP: 'group',
    OPTION: 'option',
    OUTPUT: 'status',
    P: 'paragraph',
    PROGRESS: 'progressbar',
    SEARCH: 'search',
    STRONG: 'strong',
    SUB: 'subscript',
    SUMMARY: 'button',
    SUP: 'superscript',
    TABLE: 'table',
    TEXTAREA: 'textbox',
    TIME: 'time',
    TR: 'row',
    UL: 'list',
  };
  // header/footer are page landmarks only when not scoped to one of these (HTML-AAM).
  const SECTIONING = new Set(['ARTICLE', 'ASIDE', 'MAIN', 'NAV', 'SECTION']);

  function explicitRole(element: Element): string | null {
    if (!element.hasAttributes()) return null;
    const attribute = element.getAttribute('role');
    if (!attribute) return null;
    for (const token of attribute.trim().toLowerCase().split(/\s+/)) if (VALID_ROLES.has(token)) return token;
    return null;
  }

  function insideSectioning(element: Element): boolean {
    for (let node = element.parentElement; node; node = node.parentElement) {
      if (SECTIONING.has(node.tagName)) return true;
    }
    return false;
  }

  function cellRole(element: Element): string {
    const table = element.closest('table');
    const tableRole = table ? explicitRole(table) : null;
    if (element.tagName === 'TD')
      return tableRole === 'grid' || tableRole === 'treegrid' ? 'gridcell' : 'cell';
    const scope = element.getAttribute('scope');
    if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
    if (scope === 'col' || scope === 'colgroup') return 'columnheader';
    if (element.parentElement?.parentElement?.tagName === 'THEAD') return 'columnheader';
    // A th among td cells heads its row; a row of th only heads columns.
    const row = element.parentElement;
    if (row) for (const sibling of row.children) if (sibling.tagName === 'TD') return 'rowheader';
    return 'columnheader';
  }

  /** Rows, cells and list items of a presentational table or list are presentational too (ARIA 1.2). */
  function ownerIsPresentational(element: Element): boolean {
    const owner = element.tagName === 'LI' ? element.parentElement : element.closest('table');
    const role = owner ? explicitRole(owner) : null;
    return role === 'presentation' || role === 'none';
  }

  /** The implicit role of an element by its tag and attributes; null for generic and role-less elements. */
  function implicitRole(element: Element, hasName: (element: Element) => boolean): string | null {
    const tag = element.tagName;
    const simple = SIMPLE_TAG_ROLES[tag];
    if (simple) return simple;
    switch (tag) {
      case 'A':
      case 'AREA':
        return element.hasAttribute('href') ? 'link' : null;
      case 'H1':
      case 'H2':
      case 'H3':
      case 'H4':
      case 'H5':
      case 'H6':
        return 'heading';
      case 'IMG': {
        const alt = element.getAttribute('alt');
        return alt === '' && !element.hasAttribute('title') && !element.hasAttribute('aria-label')
          ? 'presentation'
          : 'img';
      }
      case 'INPUT': {
        const type = (element as HTMLInputElement).type;
        if (type === 'hidden') return null;
        const role = INPUT_ROLES[type];
        if (role) return role;
        return element.hasAttribute('list') ? 'combobox' : 'textbox';
      }
      case 'SELECT': {
        const select = element as HTMLSelectElement;
        return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
      }
      case 'TD':
      case 'TH':
        return cellRole(element);
      case 'HEADER':
        return insideSectioning(element) ? null : 'banner';
      case 'FOOTER':
        return insideSectioning(element) ? null : 'contentinfo';
      case 'ASIDE':
        return insideSectioning(element) && !hasName(element) ? null : 'complementary';
      case 'SECTION':
        return hasName(element) ? 'region' : null;
      case 'FORM':
        return hasName(element) ? 'form' : null;
      case 'SVG':
      case 'svg':
        return hasName(element) ? 'img' : null;
      case 'ADDRESS':
      case 'HGROUP':
        return 'group';
    }
    return null;
  }

  function isFocusable(element: Element): boolean {
    if (element.hasAttribute('tabindex')) return Number(element.getAttribute('tabindex')) >= 0;
    return isNativeControl(element) || (element as HTMLElement).isContentEditable === true;
  }

  function isNativeControl(element: Element): boolean {
    switch (element.tagName) {
      case 'A':
      case 'AREA':
        return element.hasAttribute('href');
      case 'BUTTON':
      case 'SELECT':
      case 'TEXTAREA':
      case 'SUMMARY':
        return true;
      case 'INPUT':
        return (element as HTMLInputElement).type !== 'hidden';
    }
    return false;
  }

  /**
   * The role the walker reports, or null when the element is not emitted (generic, presentational).
   * Presentation is ignored on focusable elements (ARIA's conflict resolution).
   */
  function roleOf(element: Element, hasName: (element: Element) => boolean): string | null {
    const explicit = explicitRole(element);
    if (explicit && explicit !== 'presentation' && explicit !== 'none') return explicit;
    if (explicit && !isFocusable(element)) return null;
    const implicit = implicitRole(element, hasName);
    if (implicit === 'presentation') return null;
    if (
      (implicit === 'row' ||
        implicit === 'cell' ||
        implicit === 'listitem' ||
        implicit === 'columnheader' ||
        implicit === 'rowheader') &&
      ownerIsPresentational(element)
    )
      return null;
    return implicit;
  }

  /** Interactive: what an agent acts on. Options of a native select are chosen through the select. */
  function isInteractive(element: Element, role: string): boolean {
    if (element.tagName === 'OPTION' && element.closest('select')) return false;
    if (WIDGET_ROLES.has(role) || isNativeControl(element)) return true;
    if ((element as HTMLElement).isContentEditable && !element.parentElement?.isContentEditable) return true;
    return element.hasAttribute('tabindex') && Number(element.getAttribute('tabindex')) >= 0;
  }

  function levelOf(element: Element, role: string): number | undefined {
    if (role !== 'heading' && role !== 'listitem' && role !== 'treeitem' && role !== 'row') return undefined;
    const explicit = Number(element.getAttribute('aria-level'));
    if (explicit > 0) return explicit;
    if (role === 'heading') {
      const match = /^H([1-6])$/.exec(element.tagName);
      return match ? Number(match[1]) : 2;
    }
    if (role === 'listitem') {
      let level = 0;
      for (let node = element.parentElement; node; node = node.parentElement) {
        if (node.tagName === 'UL' || node.tagName === 'OL' || node.tagName === 'MENU') level += 1;
      }
      return Math.max(level, 1);
    }
    return undefined;
  }

  return {
    roleOf,
    isInteractive,
    levelOf,
    nameFromContent: (role: string) => NAME_FROM_CONTENT.has(role),
    coversText: (role: string) => COVERS_TEXT.has(role),
  };
}

export type Roles = ReturnType<typeof createRoles>;
