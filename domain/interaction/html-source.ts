import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Session } from '../sessions/session.js';
import { ACTION_TIMEOUT_DEFAULT_MS } from './action.js';
import { withCandidateRefs } from './ambiguous-target.js';
import { type WindowTargetRequest, windowTarget } from './window-target.js';

/** About 5,000 tokens: a form or a card whole, a page's head and first screens. */
export const HTML_TRUNCATE_DEFAULT = 20_000;
/** A megabyte of text is more than any reader should take in one field; page through `within` instead. */
export const HTML_TRUNCATE_MAX = 1_000_000;

export interface HtmlRequest extends WindowTargetRequest {
  /** The element's own tag too (outerHTML); false for its content only (innerHTML). */
  readonly outer?: boolean | null;
  readonly truncateAt?: number | null;
}

export interface HtmlSource {
  readonly windowId: string;
  /** The markup, cut after `truncateAt` characters and then ending with TRUNCATION_MARK's comment. */
  readonly html: string;
  /** The whole markup's length, in characters, before any cut. */
  readonly length: number;
  readonly truncated: boolean;
}

/** Ends a cut markup: an HTML comment, so the text stays well-formed enough to read, saying what is left. */
export function truncationMark(omitted: number): string {
  return `<!-- stagegraph: truncated, ${omitted} more characters -->`;
}

/**
 * An element's markup (or the whole document's without a target), as the page engine reads it: password
 * values and values marked secret read "[redacted]", as in every snapshot.
 */
export async function readHtml(session: Session, request: HtmlRequest): Promise<HtmlSource> {
  const truncateAt = request.truncateAt ?? HTML_TRUNCATE_DEFAULT;
  if (!Number.isInteger(truncateAt) || truncateAt < 0 || truncateAt > HTML_TRUNCATE_MAX) {
    throw new StagegraphError(
      'BAD_INPUT',
      `truncateAt must be a whole number from 0 to ${HTML_TRUNCATE_MAX}, got ${truncateAt}.`,
    );
  }
  const { window, driver, query } = await windowTarget(session, request);
  const read = await driver
    .html(query, request.outer ?? true, truncateAt, ACTION_TIMEOUT_DEFAULT_MS)
    .catch((error: unknown) => {
      throw withCandidateRefs(error, session, window.id);
    });
  const truncated = read.length > truncateAt;
  return {
    windowId: window.id,
    html: truncated ? read.html + truncationMark(read.length - truncateAt) : read.html,
    length: read.length,
    truncated,
  };
}
