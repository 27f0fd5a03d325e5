import { VisionFigures } from '../vision/vision-figures.js';
import { keptPerSession } from './kept-per-session.js';
import type { RunLog } from './run-log.js';

/**
 * What a session did, counted where each thing happens: snapshots read, actions carried out, and the
 * approvals its operations asked for with how they were answered. An ask that timed out or was cancelled
 * counts as asked and as neither granted nor denied. The vision tier's counts are among them.
 */
export class SessionFigures extends VisionFigures {
  snapshots = 0;
  actions = 0;
  approvalsAsked = 0;
  approvalsGranted = 0;
  approvalsDenied = 0;
}

/** The figures of one session, kept as long as the session is. */
export const figuresOf = keptPerSession(() => new SessionFigures());

/** Counts one ask and its answer; null when none came (timed out, cancelled, no approver). */
export function countApproval(session: object, answer: 'APPROVED' | 'DENIED' | null): void {
  const figures = figuresOf(session);
  figures.approvalsAsked += 1;
  if (answer === 'APPROVED') figures.approvalsGranted += 1;
  if (answer === 'DENIED') figures.approvalsDenied += 1;
}

/** The session's figures as one run-log line, written when it ends. */
export function noteFigures(session: { readonly runLog: RunLog }): void {
  const figures = figuresOf(session);
  session.runLog.stagegraph(
    `figures: ${figures.snapshots} snapshots, ${figures.actions} actions, ` +
      `${figures.ocrReads} OCR reads (${figures.cachedOcrReads} cached, ${figures.cachedOcrReadsWithoutScreenshot} with no screenshot), ${figures.ocrFallbacks} OCR fallbacks, ` +
      `approvals ${figures.approvalsAsked} asked, ${figures.approvalsGranted} granted, ${figures.approvalsDenied} denied`,
  );
}
