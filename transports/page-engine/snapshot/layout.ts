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

  /** The computed style of an element or of one of its pseudo-elements, read in the element's own window. */
  function styleOf(element: Element, pseudo?: string): CSSStyleDeclaration {
    return (element.ownerDocument.defaultView ?? window).getComputedStyle(element, pseudo);
  }

  /** How `display` flows; `none` flows as inline, since nothing of it is there to separate. */
  function flowOfDisplay(display: string): number {
    if (display === 'inline' || display === 'none' || display.startsWith('ruby')) return INLINE;
    return display.startsWith('inline-') ? ATOMIC : BLOCK;
  }

  function flowOf(element: Element): number {
    const flow = flowOfDisplay(styleOf(element).display);
    return flow === INLINE && REPLACED_TAGS.has(element.tagName) ? ATOMIC : flow;
  }

  /** flowOf for the walker's text runs: elements not inline by default count as blocks unread. */
  function textFlowOf(element: Element): number {
    return INLINE_TAGS.has(element.tagName) ? flowOf(element) : BLOCK;
  }

  const isReplaced = (element: Element) => REPLACED_TAGS.has(element.tagName);

  return { INLINE, ATOMIC, BLOCK, styleOf, flowOf, flowOfDisplay, textFlowOf, isReplaced };
}

export type Layout = ReturnType<typeof createLayout>;
