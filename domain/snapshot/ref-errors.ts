import type { SimilarRef } from '../../errors/stagegraph-error.js';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { refRecoveryActions } from './next-actions.js';
import type { Wanted } from './similar.js';

/** Why a ref no longer resolves; in `details.reason` so a client can tell the cases apart. */
export type StaleReason =
  /** Its window reloaded or navigated: the document the ref pointed into is gone. */
  | 'DOCUMENT_REPLACED'
  /** Its element left the document and no twin has appeared in its place. */
  | 'DETACHED'
  /** The store forgot it to stay bounded, or its window closed; it was stale or out of sight by then. */
  | 'FORGOTTEN';

export interface StaleRefFacts {
  readonly sessionId: string;
  readonly ref: string;
  readonly windowId: string | null;
  readonly reason: StaleReason;
  readonly lastKnown: Wanted | null;
  readonly similar: readonly SimilarRef[];
}

const STALE_WHY: Record<StaleReason, string> = {
  DOCUMENT_REPLACED: 'its window has since reloaded or navigated to a new document',
  DETACHED: 'its element has left the page and nothing took its place',
  FORGOTTEN: 'it is too old: it went stale and was dropped, or its window closed',
};

export function staleRefError(facts: StaleRefFacts): StagegraphError {
  const was = facts.lastKnown ? ` (was ${describe(facts.lastKnown)})` : '';
  const where = facts.windowId ? ` in window ${facts.windowId}` : '';
  return new StagegraphError(
    'REF_STALE',
    `Ref ${facts.ref}${was}${where} is stale: ${STALE_WHY[facts.reason]}.`,
    {
      nextActions: refRecoveryActions({
        sessionId: facts.sessionId,
        windowId: facts.windowId,
        role: facts.lastKnown?.role,
        name: facts.lastKnown?.name,
      }),
      details: {
        ref: facts.ref,
        windowId: facts.windowId,
        reason: facts.reason,
        lastKnown: facts.lastKnown,
      },
      similarRefs: facts.similar,
    },
  );
}

export interface MissingRefFacts {
  readonly sessionId: string;
  readonly ref: string;
  readonly windowId: string | null;
  readonly wanted: Wanted | null;
  readonly similar: readonly SimilarRef[];
}

export function missingRefError(facts: MissingRefFacts): StagegraphError {
  const shape = /^e[1-9]\d*$/.test(facts.ref) ? '' : ' Refs look like "e12".';
  return new StagegraphError(
    'REF_NOT_FOUND',
    `Ref ${JSON.stringify(facts.ref)} was never issued in session ${facts.sessionId}.${shape}`,
    {
      nextActions: refRecoveryActions({
        sessionId: facts.sessionId,
        windowId: facts.windowId,
        role: facts.wanted?.role,
        name: facts.wanted?.name,
      }),
      details: { ref: facts.ref, windowId: facts.windowId },
      similarRefs: facts.similar,
    },
  );
}

export function otherWindowError(
  sessionId: string,
  ref: string,
  owner: string,
  asked: string,
): StagegraphError {
  return new StagegraphError('BAD_INPUT', `Ref ${ref} belongs to window ${owner}, not window ${asked}.`, {
    nextActions: refRecoveryActions({ sessionId, windowId: asked }),
    details: { ref, windowId: owner },
  });
}

function describe(wanted: Wanted): string {
  return [wanted.role, wanted.name ? JSON.stringify(wanted.name) : null].filter(Boolean).join(' ');
}
