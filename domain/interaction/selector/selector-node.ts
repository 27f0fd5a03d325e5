import type { RawNode } from '../../../transports/contract/window-driver.js';

/** What an `ocr:` step matched: words on the screen, not an element. */
export interface OcrMatch {
  readonly text: string;
  /** The mean of the words' confidences, 0–100. */
  readonly confidence: number;
}

/**
 * A snapshot node as selectors read it; a desktop transport adds the object's AT-SPI path. A run of words
 * an `ocr:` step matched is one too (`ocr` set), parented to the element its box falls in (ocr-text.ts).
 */
export type SelectorNode = RawNode & { readonly atspiPath?: string; readonly ocr?: OcrMatch };
