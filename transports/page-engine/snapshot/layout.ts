/// <reference lib="dom" />

/**
 * In-page: how an element's box flows with the text around it (CSS-AAM) — the one rule by which both the
 * accessible names and the snapshot's text runs decide where one word ends and the next begins.
 * A self-contained factory: its source is shipped into the page whole.
 */
export function createLayout() {
  /** Its text runs into its neighbours' (display: inline, ruby). */
  const INLINE = 0;
  /** Inline, but laid out as a box of its own: its text stands apart (inline-block, replaced elements). */
  const ATOMIC = 1;
  /** Block-level (block, flex, grid, table-cell, list-item, contents, …): a line of its own. */
  const BLOCK = 2;
  // Replaced elements are atomic inlines even when their computed display is `inline` (an <img>, an <svg>).
  const REPLACED_TAGS = new Set(
    'AUDIO BUTTON CANVAS EMBED IFRAME IMG INPUT METER OBJECT PROGRESS SELECT svg TEXTAREA VIDEO'.split(' '),
  );
  // Inline by default. The walker reads the computed display of these only: any other element not emitted
  // already ends a text run, and a needless line break loses no word, where a missing one glues two.
  const INLINE_TAGS = new Set(
    'A ABBR B BDI BDO CITE CODE DATA DFN EM FONT I KBD MARK Q S SAMP SMALL SPAN STRONG SUB SUP TIME U VAR'.split(
      ' ',
    ),
  );

  // A name reads each child's flow once for every ancestor whose content it is part of (a cell's for the
  // row's name and for its own), and pseudo-element styles are dear to read: both are kept per pass.
  let flows = new Map<Element, number>();
  let pseudoRules = new Map<Node, boolean>();
  // Visibility and text flow read the same elements' styles in one pass: one declaration each.
  let styles = new Map<Element, CSSStyleDeclaration>();

  function beginPass(): void {
    flows = new Map();
    pseudoRules = new Map();
    styles = new Map();
  }

  /** Whether a sheet may hold a ::before or ::after rule; one that cannot be read (cross-origin) may. */
  function sheetMentionsPseudo(sheet: CSSStyleSheet): boolean {
    try {
      return rulesMentionPseudo(sheet.cssRules);
    } catch {
      return true;
    }
  }

  function rulesMentionPseudo(rules: CSSRuleList): boolean {
    for (const rule of rules) {
      const selector = (rule as CSSStyleRule).selectorText;
      if (selector && (selector.includes(':before') || selector.includes(':after'))) return true;
      const imported = (rule as CSSImportRule).styleSheet;
      if (imported && sheetMentionsPseudo(imported)) return true;
      // Grouping rules (@media, @supports, @layer) and nested style rules hold rules of their own.
      const nested = (rule as CSSGroupingRule).cssRules;
      if (nested && nested.length > 0 && rulesMentionPseudo(nested)) return true;
    }
    return false;
  }

  function treeMentionsPseudo(root: Document | ShadowRoot): boolean {
    let known = pseudoRules.get(root);
    if (known === undefined) {
      known = false;
      for (const sheet of root.styleSheets) known ||= sheetMentionsPseudo(sheet);
      for (const sheet of root.adoptedStyleSheets ?? []) known ||= sheetMentionsPseudo(sheet);
      pseudoRules.set(root, known);
    }
    return known;
  }

  /**
   * False when no style sheet that reaches the element has a ::before or ::after rule, so its generated
   * content need not be read (a shadow tree's elements are reached by its own sheets and by ::part rules
   * of the document's).
   */
  function mayHavePseudo(element: Element): boolean {
    const root = element.getRootNode() as Document | ShadowRoot;
    return (
      treeMentionsPseudo(root) ||
      (root !== element.ownerDocument && treeMentionsPseudo(element.ownerDocument))
    );
  }

  /** The computed style of an element or of one of its pseudo-elements, read in the element's own window. */
  function styleOf(element: Element, pseudo?: string): CSSStyleDeclaration {
    if (pseudo !== undefined)
      return (element.ownerDocument.defaultView ?? window).getComputedStyle(element, pseudo);
    let style = styles.get(element);
    if (!style) {
      style = (element.ownerDocument.defaultView ?? window).getComputedStyle(element);
      styles.set(element, style);
    }
    return style;
  }

  /** How `display` flows; `none` flows as inline, since nothing of it is there to separate. */
  function flowOfDisplay(display: string): number {
    if (display === 'inline' || display === 'none' || display.startsWith('ruby')) return INLINE;
    return display.startsWith('inline-') ? ATOMIC : BLOCK;
  }

  function flowOf(element: Element): number {
    let flow = flows.get(element);
    if (flow === undefined) {
      flow = flowOfDisplay(styleOf(element).display);
      if (flow === INLINE && REPLACED_TAGS.has(element.tagName)) flow = ATOMIC;
      flows.set(element, flow);
    }
    return flow;
  }

  /** flowOf for the walker's text runs: elements not inline by default count as blocks unread. */
  function textFlowOf(element: Element): number {
    return INLINE_TAGS.has(element.tagName) ? flowOf(element) : BLOCK;
  }

  const isReplaced = (element: Element) => REPLACED_TAGS.has(element.tagName);

  return {
    INLINE,
    ATOMIC,
    BLOCK,
    beginPass,
    styleOf,
    flowOf,
    flowOfDisplay,
    textFlowOf,
    isReplaced,
    mayHavePseudo,
  };
}

export type Layout = ReturnType<typeof createLayout>;
