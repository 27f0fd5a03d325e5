/**
 * Characters that change how the text around them is shown without being seen: controls (C0, DEL, C1)
 * and format characters — the bidirectional embeddings, overrides, isolates and marks (U+202A–202E,
 * U+2066–2069, U+200E–200F, U+061C), zero-width spaces, the byte-order mark, tag characters — and the
 * line and paragraph separators.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
/**
 * Left as they are: tab and line feed lay text out; ZWNJ and ZWJ reorder nothing, and Persian words and
 * emoji sequences need them.
 */
const KEPT = new Set(['\t', '\n', '\u200c', '\u200d']);

/**
 * How every string an app, a page, an agent or a policy supplied is put on the observer page: each
 * invisible control shown as a visible mark (`⟨U+202E⟩`), so a right-to-left override in a window title
 * can neither reverse the page's own text after it nor make an approval card read "account" for another
 * string. Text in elements goes through AppText, which also isolates it (`<bdi>`); attributes (accessible
 * names, alt text) and option labels take this string. Linear in the text.
 */
export function shownText(text: string | null | undefined): string {
  if (!text) return '';
  return text.replace(HIDDEN, (hidden) => (KEPT.has(hidden) ? hidden : `⟨U+${codePoint(hidden)}⟩`));
}

function codePoint(character: string): string {
  return (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}
