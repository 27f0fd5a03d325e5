import { governRead } from '../domain/governance/governed-read.js';
import { shownIndex } from '../domain/vision/shown-index.js';
import {
  buildTextIndex,
  type IndexedLine,
  type IndexedWord,
  TEXT_INDEX_TIMEOUT_MAX_MS,
  type TextIndex,
} from '../domain/vision/text-index.js';
import { OCR_READ_TIMEOUT_DEFAULT_MS } from '../domain/vision/window-text.js';
import type { Bounds } from '../transports/contract/bounds.js';
import { builder } from './builder.js';
import { clientOf } from './context.js';
import { redactorOf, revealFor } from './reveal.js';
import { TargetInput } from './target.js';
import { BoundsRef, WindowRef } from './window.js';

const RegionInput = builder.inputRef<Bounds>('RegionInput').implement({
  description: "A rectangle of a window, in the space of its snapshot's boxes (CSS pixels of the viewport).",
  fields: (t) => ({
    x: t.int({ required: true, description: 'The left edge.' }),
    y: t.int({ required: true, description: 'The top edge.' }),
    width: t.int({ required: true, description: 'The width.' }),
    height: t.int({ required: true, description: 'The height.' }),
  }),
});

const wordFields = {
  text: 'What the engine read; redacted as typed secrets are (e-mail addresses, card numbers…) unless `reveal`.',
  confidence: "The engine's confidence, 0–100.",
  ref: "The ref of the element whose box holds the text's centre (a canvas, a drawing area); null where none does.",
} as const;

const OcrWordRef = builder.objectRef<IndexedWord>('OcrWord').implement({
  description: "One word read from the window's pixels.",
  fields: (t) => ({
    text: t.exposeString('text', { description: wordFields.text }),
    bbox: t.field({
      type: BoundsRef,
      description: "Where it is, in the window's snapshot space.",
      resolve: (w) => w.bbox,
    }),
    confidence: t.exposeFloat('confidence', { description: wordFields.confidence }),
    ref: t.exposeString('ref', { nullable: true, description: wordFields.ref }),
  }),
});

const OcrLineRef = builder.objectRef<IndexedLine>('OcrLine').implement({
  description: 'Words the engine read on one line, in reading order.',
  fields: (t) => ({
    text: t.exposeString('text', { description: `The words joined by spaces. ${wordFields.text}` }),
    bbox: t.field({ type: BoundsRef, description: 'The box around its words.', resolve: (l) => l.bbox }),
    confidence: t.exposeFloat('confidence', { description: "The mean of its words' confidences, 0–100." }),
    ref: t.exposeString('ref', { nullable: true, description: wordFields.ref }),
    words: t.field({ type: [OcrWordRef], description: 'Its words.', resolve: (l) => l.words }),
  }),
});

const TextIndexRef = builder.objectRef<TextIndex>('TextIndex').implement({
  description:
    'The text a window shows, read by OCR from its pixels: the vision tier, for surfaces no tree names (a canvas, a custom-drawn widget). Lowest confidence; prefer `snapshot` and `find` wherever they name what you need.',
  fields: (t) => ({
    windowId: t.exposeID('windowId', { description: 'The window read.' }),
    screenshotSha256: t.exposeString('screenshotSha256', {
      description: 'SHA-256 of the screenshot read: reads of the same pixels are answered from a cache.',
    }),
    cached: t.exposeBoolean('cached', { description: 'True when the same pixels had been read before.' }),
    truncated: t.exposeBoolean('truncated', {
      description: "True when the engine's output passed its size bound and the rest was dropped.",
    }),
    elapsedMs: t.exposeInt('elapsedMs', { description: 'How long the read took, screenshot included.' }),
    words: t.field({
      type: [OcrWordRef],
      description: 'The words, in reading order.',
      resolve: (i) => i.words,
    }),
    lines: t.field({
      type: [OcrLineRef],
      description: 'The lines, in reading order.',
      resolve: (i) => i.lines,
    }),
  }),
});

builder.objectField(WindowRef, 'textIndex', (t) =>
  t.field({
    type: TextIndexRef,
    description:
      "Words and lines read by OCR from the window's screenshot, each with its box and the ref of the element it falls in. Governed and audited like an action: a policy rule on `operation: [textIndex]` can deny or ask for it. OCR_UNAVAILABLE without the engine; OCR_TIMEOUT past `timeoutMs`.",
    requiresCapability: 'SCREENSHOT',
    args: {
      within: t.arg({
        type: TargetInput,
        required: false,
        description: "Only words inside this element's box.",
      }),
      minConfidence: t.arg.float({
        required: false,
        description: 'Only words read with at least this confidence (0–100).',
      }),
      region: t.arg({
        type: RegionInput,
        required: false,
        description: 'Only words whose centre lies in this rectangle.',
      }),
      timeoutMs: t.arg.int({
        required: false,
        description: `Bound on the screenshot and the read together; default ${OCR_READ_TIMEOUT_DEFAULT_MS}, at most ${TEXT_INDEX_TIMEOUT_MAX_MS}.`,
      }),
      reveal: t.arg.boolean({
        required: false,
        description:
          "Show the text in clear; redacted by default. Only an agent's token may (under a policy whose `reveal` is AGENT); any other role gets REVEAL_FORBIDDEN.",
      }),
    },
    resolve: async (window, args, context) => {
      const clear = revealFor(context, args.reveal, 'text read by OCR');
      const session = context.sessions.get(window.sessionId);
      const request = { ...args, window: window.id };
      const read = () => buildTextIndex(session, request);
      const index = context.governance
        ? await governRead(
            context.governance,
            {
              operation: 'textIndex',
              client: clientOf(context),
              sessionId: session.id,
              windowId: window.id,
              // Described by the field that gave this Window (Session.window/windows, a navigation's
              // result) within this same operation: the policy sees that title without asking again.
              described: window,
              args,
              abandoned: context.abandoned,
            },
            read,
          )
        : await read();
      return clear ? index : shownIndex(index, (text) => redactorOf(context).redactWhole(text));
    },
  }),
);
