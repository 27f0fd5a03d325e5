import type { ErrorCodeInfo } from './error-code-info.js';

/**
 * The registry's codes of the vision tier: the OCR engine read on a window's pixels when no tree names what
 * is shown. Part of ERROR_CODES (registry.ts), kept apart so that table stays readable.
 */
export const VISION_ERROR_CODES = {
  OCR_UNAVAILABLE: {
    meaning:
      'The OCR engine (Debian `tesseract` with its English data) could not be started or did not read the image: it is not installed, its language data is missing, or it exited with an error (`details.stderrTail`).',
    retryable: false,
    hint: 'Install it with `apt-get install -y tesseract-ocr tesseract-ocr-eng`; prefer structure where there is one (`snapshot`, `find`), which needs no OCR.',
  },
  OCR_TIMEOUT: {
    meaning:
      'The OCR engine did not finish reading the window within its bound (`details.timeoutMs`) and was stopped; nothing was cached.',
    retryable: true,
    hint: 'Read a smaller part of the window (`region`, or `within` an element) or give `timeoutMs` more time; a loaded machine reads slower.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;
