import { figuresOf } from '../domain/sessions/session-figures.js';
import type { VisionFigures } from '../domain/vision/vision-figures.js';
import { builder } from './builder.js';
import { SessionRef } from './session.js';

const VisionFiguresRef = builder.objectRef<VisionFigures>('VisionFigures').implement({
  description: "A session's use of the vision tier (OCR) so far: how much of the run leaned on pixels.",
  fields: (t) => ({
    ocrReads: t.exposeInt('ocrReads', { description: 'Screenshots the OCR engine read (new pixels).' }),
    cachedOcrReads: t.exposeInt('cachedOcrReads', {
      description: 'Reads answered from the cache: the same pixels had been read before.',
    }),
    cachedOcrReadsWithoutScreenshot: t.exposeInt('cachedOcrReadsWithoutScreenshot', {
      description:
        'Cached reads answered with no screenshot: the page had not repainted, nor been acted on, since it was read.',
    }),
    ocrFallbacks: t.exposeInt('ocrFallbacks', {
      description:
        'Actions that landed on words a `??` fell back to `ocr:` for, the tree having named nothing.',
    }),
  }),
});

builder.objectField(SessionRef, 'visionFigures', (t) =>
  t.field({
    type: VisionFiguresRef,
    description: "Counts of the session's OCR reads and OCR fallbacks; the run log notes each read.",
    resolve: (session) => figuresOf(session),
  }),
);
