import { describe, expect, it } from 'vitest';
import { shownIndex } from './shown-index.js';
import type { IndexedWord, TextIndex } from './text-index.js';

const box = { x: 0, y: 0, width: 10, height: 10 };
const word = (text: string): IndexedWord => ({ text, bbox: box, confidence: 90, ref: null });

describe('shownIndex', () => {
  it('scrubs each distinct word once (listed in `words` and in its line, or repeated), and each line whole', () => {
    const words = [word('mail'), word('ada@example.com'), word('mail')];
    const index: TextIndex = {
      windowId: 'w1',
      screenshotSha256: 'a',
      cached: false,
      truncated: false,
      elapsedMs: 1,
      words,
      lines: [{ ...word('mail ada@example.com mail'), words }],
    };
    const scrubbed: string[] = [];
    const shown = shownIndex(index, (text) => {
      scrubbed.push(text);
      return text.replace(/\S+@\S+/, '[REDACTED:email]');
    });
    expect(scrubbed.sort()).toEqual(['ada@example.com', 'mail', 'mail ada@example.com mail']);
    expect(shown.words.map((w) => w.text)).toEqual(['mail', '[REDACTED:email]', 'mail']);
    expect(shown.lines[0]?.text).toBe('mail [REDACTED:email] mail');
    expect(shown.lines[0]?.words[1]).toBe(shown.words[1]);
  });
});
