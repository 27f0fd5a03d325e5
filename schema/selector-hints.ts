import { type SelectorHint, selectorHints } from '../domain/interaction/selector-hints.js';
import { builder } from './builder.js';
import { WindowRef } from './window.js';

const HintKindEnum = builder.enumType('SelectorHintKind', {
  description: 'How a selector hint names its element.',
  values: {
    TEST_ID: { description: 'By its data-testid: `{ testId }`.' },
    ROLE: { description: 'By ARIA role and accessible name: `{ role, name }`.' },
    TEXT: { description: 'By its whole visible text: `{ text, exact: true }`.' },
  } as const,
});

const SelectorHintRef = builder.objectRef<SelectorHint>('SelectorHint').implement({
  description:
    'One way to name an element in a stable test. The non-null fields among testId, role, name, text and exact are a ready TargetInput.',
  fields: (t) => ({
    kind: t.field({
      type: HintKindEnum,
      description: 'Which way it names the element.',
      resolve: (h) => h.kind,
    }),
    testId: t.exposeString('testId', { nullable: true, description: 'For TEST_ID: the data-testid.' }),
    role: t.exposeString('role', { nullable: true, description: 'For ROLE: the ARIA role.' }),
    name: t.exposeString('name', { nullable: true, description: 'For ROLE: the accessible name, whole.' }),
    text: t.exposeString('text', { nullable: true, description: 'For TEXT: the visible text, whole.' }),
    exact: t.exposeBoolean('exact', { nullable: true, description: 'For TEXT: true (whole-string match).' }),
    matches: t.exposeInt('matches', {
      description:
        'Elements it matches now, counted by the targeting engine actions use; 1 is what a test wants.',
    }),
  }),
});

builder.objectField(WindowRef, 'selectorHints', (t) =>
  t.field({
    type: [SelectorHintRef],
    description:
      "Ways to name the window's elements for people writing stable tests: its test ids, then role+name pairs of what can be acted on and of headings and landmarks, then short visible texts, each in document order with how many elements it matches now.",
    requiresCapability: 'SNAPSHOT',
    args: {
      first: t.arg.int({ required: false, description: 'At most this many hints (0 to 200; default 20).' }),
      uniqueOnly: t.arg.boolean({
        required: false,
        defaultValue: true,
        description:
          'Only hints that match exactly one element (default true); false adds the ambiguous ones.',
      }),
    },
    resolve: (window, args, { sessions }) =>
      selectorHints(sessions.get(window.sessionId), {
        window: window.id,
        first: args.first ?? null,
        uniqueOnly: args.uniqueOnly ?? true,
      }),
  }),
);
