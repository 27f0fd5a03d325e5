import { type ExpectOutcome, expectCondition } from '../resolvers/interaction/expectation.js';
import type { ExpectKind } from '../transports/window-driver.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { TargetInput } from './target.js';

const EXPECT_KINDS = [
  'TEXT',
  'VALUE',
  'VISIBLE',
  'HIDDEN',
  'ENABLED',
  'DISABLED',
  'CHECKED',
  'COUNT',
  'URL',
  'TITLE',
] as const satisfies readonly ExpectKind[];

const ExpectKindEnum = builder.enumType('ExpectKind', {
  description: 'What to check. URL and TITLE are about the window; the rest need a target.',
  values: EXPECT_KINDS,
});

const ExpectResultRef = builder.objectRef<ExpectOutcome>('ExpectResult').implement({
  description: 'The condition held; `actual` is what was read when it did.',
  fields: (t) => ({
    kind: t.field({ type: ExpectKindEnum, resolve: (result) => result.kind }),
    windowId: t.exposeID('windowId'),
    actual: t.exposeString('actual'),
    elapsedMs: t.exposeInt('elapsedMs', { description: 'How long it waited for the condition.' }),
  }),
});

builder.mutationField('expect', (t) =>
  t.field({
    type: ExpectResultRef,
    description:
      'Waits until the condition holds, re-checking on every DOM change (no polling interval); EXPECTATION_FAILED with the last actual value after the timeout.',
    ...requiresCapability('SNAPSHOT'),
    args: {
      session: t.arg.id({ required: false }),
      window: t.arg.id({ required: false }),
      kind: t.arg({ type: ExpectKindEnum, required: true }),
      target: t.arg({
        type: TargetInput,
        required: false,
        description: 'Required except for URL and TITLE.',
      }),
      equals: t.arg.string({ required: false, description: 'For COUNT, a whole number.' }),
      contains: t.arg.string({ required: false }),
      regex: t.arg.string({ required: false }),
      min: t.arg.int({ required: false, description: 'COUNT at least.' }),
      max: t.arg.int({ required: false, description: 'COUNT at most.' }),
      not: t.arg.boolean({ required: false, description: 'Expect the condition NOT to hold.' }),
      timeoutMs: t.arg.int({ required: false, description: 'Default 5000, clamped to 30000.' }),
    },
    resolve: (_root, { session, window, ...request }, { sessions }) =>
      expectCondition(sessions.get(session == null ? null : String(session)), {
        ...request,
        window: window == null ? null : String(window),
      }),
  }),
);
