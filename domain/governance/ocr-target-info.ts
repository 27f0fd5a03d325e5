import type { OcrTarget } from '../interaction/selector/ocr-text.js';
import { OCR_ROLE } from '../interaction/selector/ocr-text.js';
import type { TargetInfo } from './request/governed-request.js';

/**
 * Words an `ocr:` step matched, as the policy, the approver and the audit see them: named by the words
 * read (what a destructive word is looked for in, and what the redaction scrubs), boxed where they are on
 * the screen rather than by the canvas holding them, with a role that says no tree named them.
 */
export function ocrTargetInfo(ocr: OcrTarget): Pick<TargetInfo, 'role' | 'name' | 'bbox'> {
  return { role: OCR_ROLE, name: ocr.text, bbox: ocr.bbox };
}
