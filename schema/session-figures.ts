import { figuresOf } from '../domain/sessions/session-figures.js';
import { visionFiguresOf } from '../domain/vision/vision-figures.js';
import { builder } from './builder.js';
import { SessionRef } from './session.js';

interface Figures {
  readonly session: object;
}

const SessionFiguresRef = builder.objectRef<Figures>('SessionFigures').implement({
  description:
    'What a session did so far, counted as it happened; the run log writes the same counts when it ends.',
  fields: (t) => ({
    snapshots: t.int({
      description: 'Snapshots read from a window (a page of one already taken does not count).',
      resolve: ({ session }) => figuresOf(session).snapshots,
    }),
    actions: t.int({
      description: 'Actions carried out on a window (one that failed does not count).',
      resolve: ({ session }) => figuresOf(session).actions,
    }),
    ocrReads: t.int({
      description: 'Screenshots the OCR engine read (new pixels).',
      resolve: ({ session }) => visionFiguresOf(session).ocrReads,
    }),
    cachedOcrReads: t.int({
      description: 'OCR reads answered from the cache: the same pixels had been read before.',
      resolve: ({ session }) => visionFiguresOf(session).cachedOcrReads,
    }),
    ocrFallbacks: t.int({
      description: 'Actions that landed on words a `??` fell back to `ocr:` for.',
      resolve: ({ session }) => visionFiguresOf(session).ocrFallbacks,
    }),
    approvalsAsked: t.int({
      description: "Approvals the session's operations asked for, answered or not.",
      resolve: ({ session }) => figuresOf(session).approvalsAsked,
    }),
    approvalsGranted: t.int({
      description: 'Asks answered APPROVED (by an approver, a SESSION grant or the non-interactive mode).',
      resolve: ({ session }) => figuresOf(session).approvalsGranted,
    }),
    approvalsDenied: t.int({
      description: 'Asks answered DENIED; one that timed out or was cancelled is neither granted nor denied.',
      resolve: ({ session }) => figuresOf(session).approvalsDenied,
    }),
  }),
});

builder.objectField(SessionRef, 'figures', (t) =>
  t.field({
    type: SessionFiguresRef,
    description: 'Counts of what the session did: snapshots, actions, OCR reads and fallbacks, approvals.',
    resolve: (session) => ({ session }),
  }),
);
