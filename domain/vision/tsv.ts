import type { Bounds } from '../../transports/contract/bounds.js';

/** One word as the engine read it, in the image's pixels. */
export interface OcrWord {
  readonly text: string;
  readonly bbox: Bounds;
  /** The engine's own 0–100. */
  readonly confidence: number;
  /** The line it belongs to: an index into the lines read with it. */
  readonly line: number;
}

/** Words the engine put on one line, in reading order. */
export interface OcrLine {
  readonly text: string;
  readonly bbox: Bounds;
  /** The mean of its words' confidences. */
  readonly confidence: number;
  readonly words: readonly OcrWord[];
}

export interface OcrRead {
  readonly words: readonly OcrWord[];
  readonly lines: readonly OcrLine[];
}

/** tesseract's TSV level of a word row; pages, blocks, paragraphs and lines carry no text of their own. */
const WORD_LEVEL = '5';
const COLUMNS = 12;

/**
 * Words and lines from tesseract's TSV (`level page block par line word left top width height conf text`),
 * in reading order. Rows with no text (the layout levels, blanks the engine read as spaces) are dropped; a
 * malformed row (a cut last line) is skipped, never guessed at.
 */
export function parseTsv(tsv: string): OcrRead {
  const grouped = new Map<string, { text: string; bbox: Bounds; confidence: number }[]>();
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < COLUMNS || cells[0] !== WORD_LEVEL) continue;
    const text = cells
      .slice(COLUMNS - 1)
      .join('\t')
      .trim();
    const [x, y, width, height, confidence] = cells.slice(6, 11).map(Number) as number[];
    if (text === '' || ![x, y, width, height, confidence].every(Number.isFinite)) continue;
    const key = cells.slice(1, 5).join('.');
    const line = grouped.get(key) ?? [];
    line.push({ text, bbox: { x: x!, y: y!, width: width!, height: height! }, confidence: confidence! });
    grouped.set(key, line);
  }
  const lines: OcrLine[] = [];
  const words: OcrWord[] = [];
  for (const found of grouped.values()) {
    const index = lines.length;
    const own = found.map((word) => ({ ...word, line: index }));
    words.push(...own);
    lines.push({
      text: own.map((word) => word.text).join(' '),
      bbox: union(own.map((word) => word.bbox)),
      confidence: own.reduce((sum, word) => sum + word.confidence, 0) / own.length,
      words: own,
    });
  }
  return { words, lines };
}

/** The smallest box holding all of `boxes` (at least one). */
export function union(boxes: readonly Bounds[]): Bounds {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}
