import { availableParallelism } from 'node:os';
import { cutIntoBands } from './bands.js';
import type { CachedRead } from './ocr-cache.js';
import { MAX_TSV_BYTES, runTesseract } from './tesseract.js';
import { type OcrLine, type OcrWord, parseTsv } from './tsv.js';

/**
 * One engine per core, each on its own band of the screenshot: recognition is single-threaded work that
 * grows with the words shown, so two bands on two cores read a text-heavy 1280×800 window in about 0.6 of
 * the time one engine takes. More bands than this only add engine start-ups.
 */
export const MAX_OCR_BANDS = 4;

export interface ScreenshotReadOptions {
  readonly timeoutMs: number;
  /** The engine's executable, for tests; the PATH's `tesseract` otherwise. */
  readonly command?: string;
  /** How many bands at most; one per core up to MAX_OCR_BANDS unless a test says. */
  readonly bands?: number;
}

/**
 * The words of a PNG screenshot, read band by band in parallel and put back together in the screenshot's
 * pixels and reading order (bands top to bottom). The output bound is shared out between the bands, and
 * all of them run under the one deadline.
 */
export async function readScreenshot(png: Buffer, options: ScreenshotReadOptions): Promise<CachedRead> {
  const deadline = Date.now() + options.timeoutMs;
  const count = options.bands ?? Math.min(availableParallelism(), MAX_OCR_BANDS);
  // One core: the engine reads the PNG itself, without the decoding that cutting needs.
  const bands = count > 1 ? cutIntoBands(png, count) : [{ image: png, top: 0 }];
  const maxBytes = Math.floor(MAX_TSV_BYTES / bands.length);
  const runs = await Promise.all(
    bands.map((band) =>
      runTesseract(band.image, {
        timeoutMs: Math.max(1, deadline - Date.now()),
        maxBytes,
        ...(options.command ? { command: options.command } : {}),
      }),
    ),
  );
  const words: OcrWord[] = [];
  const lines: OcrLine[] = [];
  runs.forEach((run, i) => {
    const top = bands[i]!.top;
    for (const line of parseTsv(run.tsv).lines) {
      const index = lines.length;
      const own = line.words.map((word) => ({
        ...word,
        bbox: { ...word.bbox, y: word.bbox.y + top },
        line: index,
      }));
      words.push(...own);
      lines.push({ ...line, bbox: { ...line.bbox, y: line.bbox.y + top }, words: own });
    }
  });
  return { words, lines, truncated: runs.some((run) => run.truncated) };
}
