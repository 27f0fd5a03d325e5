/// <reference lib="dom" />
import type { Layout } from './layout.js';

/**
 * In-page: whether an element is exposed. A child of an element known to lay its children out as boxes
 * is read from its own computed style (the declaration the text flow reads too); any other element uses
 * `checkVisibility()` (a layout-tree read that walks the ancestors), falling back to computed style only
 * for the rare elements it rejects, to tell display:contents and visibility:hidden (whose children may
 * still show) from subtrees that are gone.
 * A self-contained factory: its source is shipped into the page whole.
 */
export function createVisibility(layout: Layout) {
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

  /**
   * Elements that cannot host a shadow root (so no closed one can hide their children) and lay out each
   * child whose display gives it a box: not replaced, not a select or details, not a void element.
   */
  const PLAIN_CONTAINERS = new Set(
    (
      'A ABBR ADDRESS B BDI BDO BUTTON CAPTION CITE CODE DATA DD DEL DFN DL DT EM FIELDSET FIGCAPTION FIGURE ' +
      'FORM HGROUP I INS KBD LABEL LEGEND LI MARK MENU OL PRE Q S SAMP SMALL STRONG SUB SUMMARY SUP TABLE ' +
      'TBODY TD TFOOT TH THEAD TIME TR U UL VAR'
    ).split(' '),
  );

  // The walker and the name computation ask about the same elements (a row's name reads its cells before
  // the walk reaches them); checkVisibility() walks the ancestors each time, so answers are kept per pass.
  let known = new Map<Element, number>();
  /** Visible plain containers whose content-visibility does not skip their contents. */
  let rendersChildren = new Set<Element>();

  function beginPass(): void {
    known = new Map();
    rendersChildren = new Set();
  }

  function noteVisible(element: Element): void {
    if (PLAIN_CONTAINERS.has(element.tagName) && !layout.hidesContents(element)) rendersChildren.add(element);
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
    const parent = element.parentElement;
    if (parent !== null && rendersChildren.has(parent)) {
      // checkVisibility's answer without its ancestor walk: the parent has a box and shows its contents,
      // so the child has a box unless its display gives none, and shows unless its visibility hides it.
      const kind = kindOfBox(layout.boxOf(element));
      if (kind === VISIBLE) noteVisible(element);
      return kind;
    }
    if (element.checkVisibility({ visibilityProperty: true })) {
      noteVisible(element);
      return VISIBLE;
    }
    const kind = kindOfBox(layout.boxOf(element));
    // content-visibility:hidden (closed <details>, hidden=until-found) or a box-less element: none of it shows.
    return kind === VISIBLE ? GONE : kind;
  }

  function kindOfBox(box: number): number {
    if (box & layout.NO_BOX) return GONE;
    if (box & layout.HIDDEN) return INVISIBLE;
    if (box & layout.CONTENTS) return CONTENTS;
    return VISIBLE;
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
