import type { SimilarRef } from '../../errors/stagegraph-error.js';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { AmbiguityDetails } from '../../transports/contract/window-driver.js';
import type { Session } from '../sessions/session.js';
import { windowActions } from '../snapshot/next-actions.js';

/**
 * AMBIGUOUS_TARGET as the caller sees it: each candidate the transport described named by its ref (issued
 * now if the element had none), with its role, name and test id, in `details.candidates` and as
 * `similarRefs` (each matched exactly: score 1), so the next call can pick one by ref. Any other error
 * passes unchanged.
 */
export function withCandidateRefs(error: unknown, session: Session, windowId: string): unknown {
  if (!(error instanceof StagegraphError) || error.code !== 'AMBIGUOUS_TARGET') return error;
  const details = error.details as Partial<AmbiguityDetails> | undefined;
  if (!details?.candidates || details.documentId === undefined) return error;
  const { documentId } = details;
  const candidates = details.candidates.map(({ node, testId }) => ({
    ref: session.snapshots.refFor(windowId, { documentId, node }),
    role: node.role,
    name: node.name,
    testId,
  }));
  const similarRefs: SimilarRef[] = candidates.map(({ ref, role, name }) => ({ ref, role, name, score: 1 }));
  return new StagegraphError(error.code, error.message, {
    hint: 'Target one of the candidates by its ref (`details.candidates`, `similarRefs`), or add `nth` or `within`.',
    similarRefs,
    nextActions: [windowActions.interactive({ sessionId: session.id, windowId })],
    details: { count: details.count, candidates, target: error.details?.target },
    cause: error.cause,
  });
}
