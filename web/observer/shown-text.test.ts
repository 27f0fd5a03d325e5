import { describe, expect, it } from 'vitest';
import { shownText } from './shown-text.js';

describe('shownText', () => {
  it('shows every bidirectional control as a visible mark, so nothing after it is reordered', () => {
    expect(shownText('Delete \u202Etfard\u202C now')).toBe('Delete ⟨U+202E⟩tfard⟨U+202C⟩ now');
    for (const code of [
      0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c,
    ])
      expect(shownText(`a${String.fromCodePoint(code)}b`)).toBe(
        `a⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩b`,
      );
  });

  it('shows C0 and C1 controls, DEL, zero-width spaces, the BOM and tag characters; keeps tab and newline', () => {
    expect(shownText('a\u0000b\u0007c\rd\u001be\u007ff\u0085g\u009fh')).toBe(
      'a⟨U+0000⟩b⟨U+0007⟩c⟨U+000D⟩d⟨U+001B⟩e⟨U+007F⟩f⟨U+0085⟩g⟨U+009F⟩h',
    );
    expect(shownText('x\u200by\ufeffz\u2028w\u{E0041}')).toBe('x⟨U+200B⟩y⟨U+FEFF⟩z⟨U+2028⟩w⟨U+E0041⟩');
    expect(shownText('line one\n\tline two')).toBe('line one\n\tline two');
  });

  it('leaves ordinary text, right-to-left scripts, and joiners in words and emoji as they are', () => {
    for (const text of ['Save draft', 'שמור טיוטה', 'حفظ المسودة', 'می‌خواهم', '👩‍💻', 'naïve café'])
      expect(shownText(text)).toBe(text);
    expect(shownText(null)).toBe('');
    expect(shownText(undefined)).toBe('');
  });
});
