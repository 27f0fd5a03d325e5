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

  /** boxOf's bits beside the flow (the low two bits): display none, display contents, visibility not visible. */
  const NO_BOX = 4;
  const CONTENTS = 8;
  const HIDDEN = 16;
  const FLOW_BITS = 3;

  // Visibility, the names and the text runs all ask about the same elements in one pass (a row's name reads
  // its cells before the walk reaches them), and each computed-style property read is dear: an element's
  // display and visibility are read once per pass and kept as bits, not as a live declaration.
  let boxes = new Map<Element, number>();
  let sheetFacts = new Map<Node, number>();

  function beginPass(): void {
    boxes = new Map();
    sheetFacts = new Map();
  }

  /** sheetFacts' bits: a rule with a ::before or ::after selector; a rule that sets content-visibility. */
  const PSEUDO_RULES = 1;
  const CONTENT_VISIBILITY_RULES = 2;
  const ALL_FACTS = PSEUDO_RULES | CONTENT_VISIBILITY_RULES;

  /** What a sheet may hold; one that cannot be read (cross-origin) may hold anything. */
  function sheetFactsOf(sheet: CSSStyleSheet): number {
    try {
      return rulesFacts(sheet.cssRules);
    } catch {
      return ALL_FACTS;
    }
  }

  function rulesFacts(rules: CSSRuleList): number {
    let facts = 0;
    for (const rule of rules) {
      const selector = (rule as CSSStyleRule).selectorText;
      if (selector && (selector.includes(':before') || selector.includes(':after'))) facts |= PSEUDO_RULES;
      if ((rule as CSSStyleRule).style?.getPropertyValue('content-visibility'))
        facts |= CONTENT_VISIBILITY_RULES;
      const imported = (rule as CSSImportRule).styleSheet;
      if (imported) facts |= sheetFactsOf(imported);
      // Grouping rules (@media, @supports, @layer) and nested style rules hold rules of their own.
      const nested = (rule as CSSGroupingRule).cssRules;
      if (nested && nested.length > 0) facts |= rulesFacts(nested);
      if (facts === ALL_FACTS) return facts;
    }
    return facts;
  }

  function treeFacts(root: Document | ShadowRoot): number {
    let facts = sheetFacts.get(root);
    if (facts === undefined) {
      facts = 0;
      for (const sheet of root.styleSheets) facts |= sheetFactsOf(sheet);
      for (const sheet of root.adoptedStyleSheets ?? []) facts |= sheetFactsOf(sheet);
      sheetFacts.set(root, facts);
    }
    return facts;
  }

  /**
   * Whether a sheet that reaches the element has one of `facts`: a shadow tree's elements are reached by
   * its own sheets and by ::part rules of the document's.
   */
  function sheetsMayHave(element: Element, facts: number): boolean {
    const root = element.getRootNode() as Document | ShadowRoot;
    return (
      (treeFacts(root) & facts) !== 0 ||
      (root !== element.ownerDocument && (treeFacts(element.ownerDocument) & facts) !== 0)
    );
  }

  /** False when no style sheet that reaches the element has a ::before or ::after rule. */
  function mayHavePseudo(element: Element): boolean {
    return sheetsMayHave(element, PSEUDO_RULES);
  }

  /**
   * content-visibility:hidden on the element (its contents are skipped). Read only where it can be set:
   * a style attribute, hidden=until-found (the UA sheet's), or a sheet with a content-visibility rule.
   */
  function hidesContents(element: Element): boolean {
    const attributed =
      element.hasAttributes() && (element.hasAttribute('style') || element.hasAttribute('hidden'));
    if (!attributed && !sheetsMayHave(element, CONTENT_VISIBILITY_RULES)) return false;
    return computedStyle(element).contentVisibility === 'hidden';
  }

  function computedStyle(element: Element, pseudo?: string): CSSStyleDeclaration {
    return (element.ownerDocument.defaultView ?? window).getComputedStyle(element, pseudo);
  }

  /** The computed style of one of the element's pseudo-elements, read in the element's own window. */
  function pseudoStyleOf(element: Element, pseudo: '::before' | '::after'): CSSStyleDeclaration {
    return computedStyle(element, pseudo);
  }

  /** The element's display and visibility as bits: its flow, NO_BOX, CONTENTS, HIDDEN. */
  function boxOf(element: Element): number {
    let box = boxes.get(element);
    if (box === undefined) {
      const style = computedStyle(element);
      const display = style.display;
      box = flowOfDisplay(display);
      if (display === 'none') box |= NO_BOX;
      else if (display === 'contents') box |= CONTENTS;
      if (style.visibility !== 'visible') box |= HIDDEN;
      boxes.set(element, box);
    }
    return box;
  }

  /** How `display` flows; `none` flows as inline, since nothing of it is there to separate. */
  function flowOfDisplay(display: string): number {
    if (display === 'inline' || display === 'none' || display.startsWith('ruby')) return INLINE;
    return display.startsWith('inline-') ? ATOMIC : BLOCK;
  }

  function flowOf(element: Element): number {
    const flow = boxOf(element) & FLOW_BITS;
    return flow === INLINE && REPLACED_TAGS.has(element.tagName) ? ATOMIC : flow;
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
    NO_BOX,
    CONTENTS,
    HIDDEN,
    beginPass,
    boxOf,
    pseudoStyleOf,
    hidesContents,
    flowOf,
    flowOfDisplay,
    textFlowOf,
    isReplaced,
    mayHavePseudo,
  };
}

export type Layout = ReturnType<typeof createLayout>;
