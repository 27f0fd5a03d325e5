import {
  CONFIDENCES,
  type Confidence,
  type ResolvedBy,
  STRATEGIES,
  type Strategy,
} from '../domain/interaction/selector/confidence.js';
import type { TargetRequest } from '../domain/interaction/target-input.js';
import { builder } from './builder.js';

export const TargetInput = builder.inputRef<TargetRequest>('TargetInput').implement({
  description:
    'One element, named exactly one way: a ref from a snapshot (preferred), a CSS selector, a test id, a role with an optional accessible name, visible text, or a query selector (the same language on every transport).',
  fields: (t) => ({
    ref: t.id({
      required: false,
      description:
        'A ref from a snapshot (e12): the preferred way, and it knows its window. REF_STALE when its element has left the page.',
    }),
    selector: t.string({
      required: false,
      description: "A CSS selector (Playwright's selector engines, such as xpath=, also work).",
    }),
    testId: t.string({ required: false, description: 'The data-testid attribute.' }),
    role: t.string({ required: false, description: 'An ARIA role, e.g. button, textbox, link.' }),
    name: t.string({ required: false, description: 'With `role`: the accessible name.' }),
    text: t.string({
      required: false,
      description: 'Visible text (substring, case-insensitive unless `exact`).',
    }),
    query: t.string({
      required: false,
      description:
        'A query selector, resolved over the window\'s snapshot the same way on Electron, Chromium and desktop windows: predicates `role=button name="Save"` (exact), `name~="sav"` (contains, any case), `text=`/`text~=` (name or value), `enabled=`, `visible=`, `testId=`, `atspiPath=`, ANDed; `A >> B` (B inside the one match of A); `X right-of Y` (also left-of, above, below, near: nearest to the one anchor Y); `A ?? B` (B only when A matches nothing). SELECTOR_SYNTAX names the column of a mistake. The action\'s `resolvedBy` says how it was found.',
    }),
    exact: t.boolean({
      required: false,
      description: 'Whole-string match for name (default true) and text.',
    }),
    nth: t.int({ required: false, description: 'Zero-based pick when several match.' }),
    within: t.field({ type: TargetInput, required: false, description: 'Search only inside this element.' }),
  }),
});

const CONFIDENCE_DESCRIPTIONS: Record<Confidence, string> = {
  STABLE_ID: 'A unique stable id: a ref read from a snapshot, a test id or an AT-SPI path.',
  ROLE_NAME: 'A unique exact accessible name (with or without its role).',
  TEXT: 'A name that merely contains the words, a role or state alone, or a CSS structure.',
  SPATIAL: 'A position: a relation to an anchor, or an `nth`, decided between several elements.',
  OCR: "Words read by OCR from the window's pixels (`ocr:` in a query): nothing in any tree says what they are. The default policy weighs such a target one risk tier higher.",
};
export const TargetConfidenceEnum = builder.enumType('TargetConfidence', {
  description:
    'How much to trust that a target names the element meant, strongest first: STABLE_ID > ROLE_NAME > TEXT > SPATIAL > OCR. Policy rules can match it (`target.confidence`, `target.confidenceBelow`).',
  values: Object.fromEntries(
    CONFIDENCES.map((value) => [value, { description: CONFIDENCE_DESCRIPTIONS[value] }]),
  ) as Record<Confidence, { description: string }>,
});

const STRATEGY_DESCRIPTIONS: Record<Strategy, string> = {
  REF: 'A ref from a snapshot.',
  TEST_ID: 'A test id (data-testid).',
  ATSPI_PATH: "A desktop object's AT-SPI path.",
  ROLE_NAME: 'An exact accessible name, with or without a role.',
  TEXT: 'A name (or value) containing the text.',
  ROLE: 'A role or a state alone.',
  CSS: 'A CSS (or other Playwright engine) selector.',
  SPATIAL: "A relation to an anchor element's box (right-of, left-of, above, below, near).",
  NTH: 'A position (`nth`) among several matches.',
  OCR: "Text read by OCR from the window's pixels (`ocr:` in a query); actions land at the words' centre.",
};
const TargetStrategyEnum = builder.enumType('TargetStrategy', {
  description: 'What decided which element a target named.',
  values: Object.fromEntries(
    STRATEGIES.map((value) => [value, { description: STRATEGY_DESCRIPTIONS[value] }]),
  ) as Record<Strategy, { description: string }>,
});

export const ResolvedByRef = builder.objectRef<ResolvedBy>('ResolvedBy').implement({
  description: 'How a target was found, and how much to trust that it is the element meant.',
  fields: (t) => ({
    strategy: t.field({
      type: TargetStrategyEnum,
      description: 'What decided the match.',
      resolve: (by) => by.strategy,
    }),
    confidence: t.field({
      type: TargetConfidenceEnum,
      description: 'STABLE_ID > ROLE_NAME > TEXT > SPATIAL.',
      resolve: (by) => by.confidence,
    }),
    alternative: t.int({
      nullable: true,
      description:
        'For a `query` target: which alternative of `A ?? B` matched (0 for the first); null for the other ways.',
      resolve: (by) => by.alternative ?? null,
    }),
  }),
});
