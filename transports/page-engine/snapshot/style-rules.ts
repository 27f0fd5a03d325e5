/// <reference lib="dom" />

/** Which selectors the page's style sheets use that let a change restyle more than the changed element. */
export interface StyleRuleFlags {
  /** `:has()`: a descendant's change restyles an ancestor. */
  readonly has: boolean;
  /** `:empty`: a child's arrival or departure restyles its parent. */
  readonly empty: boolean;
  /** `:focus-within`: a focus change restyles every ancestor of the focused element. */
  readonly focusWithin: boolean;
}

/**
 * In-page: reads the document's style sheets (and adopted ones) for selectors that reach beyond the changed
 * element, remembering each sheet's answer so a repeated read costs one lookup per sheet. A sheet whose rules
 * cannot be read (another origin's) is taken to use them all.
 * A self-contained factory: its source is shipped into the page whole.
 */
export function createStyleRules() {
  const sheetFlags = new WeakMap<CSSStyleSheet, StyleRuleFlags>();

  function flagsOf(sheet: CSSStyleSheet): StyleRuleFlags {
    const known = sheetFlags.get(sheet);
    if (known) return known;
    let flags: StyleRuleFlags;
    try {
      let text = '';
      for (const rule of sheet.cssRules) text += rule.cssText;
      flags = {
        has: text.includes(':has('),
        empty: text.includes(':empty'),
        focusWithin: text.includes(':focus-within'),
      };
    } catch {
      flags = { has: true, empty: true, focusWithin: true };
    }
    sheetFlags.set(sheet, flags);
    return flags;
  }

  function scan(): StyleRuleFlags {
    const found = { has: false, empty: false, focusWithin: false };
    for (const sheet of [...document.styleSheets, ...(document.adoptedStyleSheets ?? [])]) {
      const flags = flagsOf(sheet);
      found.has ||= flags.has;
      found.empty ||= flags.empty;
      found.focusWithin ||= flags.focusWithin;
    }
    return found;
  }

  return { scan };
}

export type StyleRules = ReturnType<typeof createStyleRules>;
