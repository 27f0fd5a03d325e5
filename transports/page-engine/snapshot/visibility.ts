/// <reference lib="dom" />

/**
 * In-page: whether an element is exposed, using `checkVisibility()` (a cheap layout-tree read) and falling
 * back to computed style only for the rare elements it rejects, to tell display:contents and
 * visibility:hidden (whose children may still show) from subtrees that are gone.
 * A self-contained factory: its source is shipped into the page whole.
 */
export function createVisibility() {
  /** Nothing of it or below it is exposed. */
  const GONE = 0;
  /** The element itself is hidden (visibility:hidden) but a descendant may override that. */
  const INVISIBLE = 1;
  /** Exposed and rendering a box. */
  const VISIBLE = 2;
  /** Exposed without a box of its own (display:contents, slots). */
  const CONTENTS = 3;
  const NEVER_RENDERED = new Set([
    'SCRIPT',
    'STYLE',
    'TEMPLATE',
    'NOSCRIPT',
    'HEAD',
    'TITLE',
    'META',
    'LINK',
  ]);

  // The walker and the name computation ask about the same elements (a row's name reads its cells before
  // the walk reaches them); checkVisibility() walks the ancestors each time, so answers are kept per pass.
  let known = new Map<Element, number>();

  function beginPass(): void {
    known = new Map();
  }

  function classify(element: Element): number {
    const cached = known.get(element);
    if (cached !== undefined) return cached;
    const kind = classifyNow(element);
    known.set(element, kind);
    return kind;
  }

  function classifyNow(element: Element): number {
    if (NEVER_RENDERED.has(element.tagName)) return GONE;
    if (
      element.hasAttributes() &&
      (element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('inert'))
    )
      return GONE;
    if (element.checkVisibility({ visibilityProperty: true })) return VISIBLE;
    const style = getComputedStyle(element);
    if (style.display === 'none') return GONE;
    if (style.visibility !== 'visible') return INVISIBLE;
    if (style.display === 'contents') return CONTENTS;
    // content-visibility:hidden (closed <details>, hidden=until-found) or a box-less element: none of it shows.
    return GONE;
  }

  /** Hidden as accname's step 2A means it: not rendered, or aria-hidden anywhere above. */
  function hiddenForName(element: Element): boolean {
    if (element.closest('[aria-hidden=true]')) return true;
    const kind = classify(element);
    return kind === GONE || kind === INVISIBLE;
  }

  return { GONE, INVISIBLE, VISIBLE, CONTENTS, beginPass, classify, hiddenForName };
}

export type Visibility = ReturnType<typeof createVisibility>;
