import type { IndexedLine, IndexedWord, TextIndex } from './text-index.js';

/**
 * The index as a reader is shown it: every word's and line's text through `scrub` (the policy's redaction,
 * the one typed secrets and audit arguments pass), so an e-mail address painted on a canvas reads as the
 * same `[REDACTED:email]` it would in a log. A line is scrubbed whole: a pattern may span its words.
 */
export function shownIndex(index: TextIndex, scrub: (text: string) => string): TextIndex {
  const word = (w: IndexedWord): IndexedWord => ({ ...w, text: scrub(w.text) });
  const line = (l: IndexedLine): IndexedLine => ({ ...l, text: scrub(l.text), words: l.words.map(word) });
  return { ...index, words: index.words.map(word), lines: index.lines.map(line) };
}
