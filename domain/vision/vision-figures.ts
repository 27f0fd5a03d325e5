/**
 * A session's use of the vision tier, for the run's figures: how often the OCR engine read a window, how
 * often a read was answered from the cache (and how many of those needed no screenshot, the window not having
 * repainted), and how many actions landed on words a `??` fell back to OCR for — the count that says how much
 * of a run leaned on pixels rather than structure. Kept among the session's other figures
 * (sessions/session-figures.ts).
 */
export class VisionFigures {
  ocrReads = 0;
  cachedOcrReads = 0;
  cachedOcrReadsWithoutScreenshot = 0;
  ocrFallbacks = 0;
}
