import { describe, expect, it } from 'vitest';
import { parseTsv } from './tsv.js';

const HEADER =
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';
const row = (cells: (string | number)[]) => cells.join('\t');

describe('parseTsv', () => {
  it("groups tesseract's word rows into lines, in reading order, with boxes and mean confidences", () => {
    const tsv = [
      HEADER,
      row([1, 1, 0, 0, 0, 0, 0, 0, 900, 700, -1, '']),
      row([4, 1, 8, 1, 1, 0, 41, 333, 273, 21, -1, '']),
      row([5, 1, 8, 1, 1, 1, 41, 334, 68, 15, 93, 'Owner:']),
      row([5, 1, 8, 1, 1, 2, 118, 333, 196, 21, 91, 'alice@example.com']),
      row([5, 1, 2, 1, 1, 1, 201, 22, 75, 22, 96.5, 'Export']),
      row([5, 1, 3, 1, 1, 1, 250, 22, 5, 5, 12, ' ']),
      '5\t1\t9\t1\t1\t1\t17',
    ].join('\n');
    const { words, lines } = parseTsv(tsv);
    expect(words.map((w) => w.text)).toEqual(['Owner:', 'alice@example.com', 'Export']);
    expect(lines).toEqual([
      {
        text: 'Owner: alice@example.com',
        bbox: { x: 41, y: 333, width: 273, height: 21 },
        confidence: 92,
        words: [words[0], words[1]],
      },
      { text: 'Export', bbox: { x: 201, y: 22, width: 75, height: 22 }, confidence: 96.5, words: [words[2]] },
    ]);
    expect(words[2]).toMatchObject({ line: 1, bbox: { x: 201, y: 22, width: 75, height: 22 } });
  });

  it('reads nothing from an empty or header-only output', () => {
    expect(parseTsv('')).toEqual({ words: [], lines: [] });
    expect(parseTsv(`${HEADER}\n`)).toEqual({ words: [], lines: [] });
  });
});
