import type { IndexedLine, IndexedWord, TextIndex } from './text-index.js';

/**
 * The index as a reader is shown it: every word's and line's text through `scrub` (the policy's redaction,
 * the one typed secrets and audit arguments pass), so an e-mail address painted on a canvas reads as the
 * same `[REDACTED:email]` it would in a log. A line is scrubbed whole: a pattern may span its words. A word
 * is listed twice (in `words` and in its line), and text repeats ("the", a label on every row): each
 * distinct word is scrubbed once.
 */
export function shownIndex(index: TextIndex, scrub: (text: string) => string): TextIndex {
  const shown = new Map<IndexedWord, IndexedWord>();
  const texts = new Map<string, string>();
  const word = (w: IndexedWord): IndexedWord => {
    let scrubbed = shown.get(w);
    if (!scrubbed) {
      let text = texts.get(w.text);
      if (text === undefined) {
        text = scrub(w.text);
        texts.set(w.text, text);
      }
      scrubbed = { ...w, text };
      shown.set(w, scrubbed);
    }
    return scrubbed;
  };
  const line = (l: IndexedLine): IndexedLine => ({ ...l, text: scrub(l.text), words: l.words.map(word) });
  return { ...index, words: index.words.map(word), lines: index.lines.map(line) };
}
