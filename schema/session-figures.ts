import { figuresOf, type SessionFigures } from '../domain/sessions/session-figures.js';
import { builder } from './builder.js';
import { SessionRef } from './session.js';

const SessionFiguresRef = builder.objectRef<SessionFigures>('SessionFigures').implement({
  description:
    'What a session did so far, counted as it happened; the run log writes the same counts when it ends.',
  fields: (t) => ({
    snapshots: t.exposeInt('snapshots', {
      description: 'Snapshots read from a window (a page of one already taken does not count).',
    }),
    actions: t.exposeInt('actions', {
      description: 'Actions carried out on a window (one that failed does not count).',
    }),
    ocrReads: t.exposeInt('ocrReads', { description: 'Screenshots the OCR engine read (new pixels).' }),
    cachedOcrReads: t.exposeInt('cachedOcrReads', {
      description: 'OCR reads answered from the cache: the same pixels had been read before.',
    }),
    cachedOcrReadsWithoutScreenshot: t.exposeInt('cachedOcrReadsWithoutScreenshot', {
      description:
        'Cached reads answered with no screenshot: the page had not repainted, nor been acted on, since it was read.',
    }),
    ocrFallbacks: t.exposeInt('ocrFallbacks', {
      description: 'Actions that landed on words a `??` fell back to `ocr:` for.',
    }),
    approvalsAsked: t.exposeInt('approvalsAsked', {
      description: "Approvals the session's operations asked for, answered or not.",
    }),
    approvalsGranted: t.exposeInt('approvalsGranted', {
      description: 'Asks answered APPROVED (by an approver, a SESSION grant or the non-interactive mode).',
    }),
    approvalsDenied: t.exposeInt('approvalsDenied', {
      description: 'Asks answered DENIED; one that timed out or was cancelled is neither granted nor denied.',
    }),
  }),
});

builder.objectField(SessionRef, 'figures', (t) =>
  t.field({
    type: SessionFiguresRef,
    description: 'Counts of what the session did: snapshots, actions, OCR reads and fallbacks, approvals.',
    resolve: (session) => figuresOf(session),
  }),
);
