import { type ExpectOutcome, expectCondition } from '../domain/interaction/expectation.js';
import {
  CLIENT_PATTERN_DEADLINE_MS,
  CLIENT_PATTERN_MAX_CHARS,
} from '../transports/contract/client-pattern.js';
import type { ExpectKind } from '../transports/contract/window-driver.js';
import { builder } from './builder.js';
import { sessionArg } from './session-arg.js';
import { TargetInput } from './target.js';

/** Text kinds match `equals`, `contains` and `regex`; state kinds hold or not (only `not` applies). */
const EXPECT_KINDS = {
  TEXT: { description: "The target's visible text (innerText), matched with equals, contains or regex." },
  VALUE: {
    description: 'The value of the target input, textarea or select, matched with equals, contains or regex.',
  },
  VISIBLE: { description: 'The target is visible; false while no single element matches.' },
  HIDDEN: { description: 'The target is hidden, or no single element matches.' },
  ENABLED: { description: 'The target is enabled; false while no single element matches.' },
  DISABLED: { description: 'The target is disabled; false while no single element matches.' },
  CHECKED: { description: 'The target checkbox or radio is checked; false while no single element matches.' },
  COUNT: {
    description: 'How many elements match the target (1 or 0 with `nth`), compared with equals, min and max.',
  },
  URL: { description: "The window's URL, matched with equals, contains or regex; no target." },
  TITLE: { description: "The window's document title, matched with equals, contains or regex; no target." },
} as const satisfies Record<ExpectKind, { description: string }>;

const ExpectKindEnum = builder.enumType('ExpectKind', {
  description: 'What to check. URL and TITLE are about the window; the rest need a target.',
  values: EXPECT_KINDS,
});

const ExpectResultRef = builder.objectRef<ExpectOutcome>('ExpectResult').implement({
  description: 'The condition held; `actual` is what was read when it did.',
  fields: (t) => ({
    kind: t.field({
      type: ExpectKindEnum,
      description: 'The kind checked.',
      resolve: (result) => result.kind,
    }),
    windowId: t.exposeID('windowId', { description: 'The window it was checked in.' }),
    actual: t.exposeString('actual', {
      description:
        'The text, value, url or title read; for COUNT the number; for the state kinds "true" or "false".',
    }),
    elapsedMs: t.exposeInt('elapsedMs', { description: 'How long it waited for the condition.' }),
  }),
});

builder.mutationField('expect', (t) =>
  t.field({
    type: ExpectResultRef,
    description:
      'Waits until the condition holds, re-checking on every DOM change (no polling interval); EXPECTATION_FAILED with the last actual value after the timeout.',
    requiresCapability: 'SNAPSHOT',
    governance: {
      session: 'session',
      window: 'window',
      target: 'target',
      actsOn: 'element',
      risk: { wait: 'timeoutMs' },
    },
    args: {
      ...sessionArg,
      window: t.arg.id({
        required: false,
        description: "Default: the target ref's window, else the active one.",
      }),
      kind: t.arg({
        type: ExpectKindEnum,
        required: true,
        description:
          'What to check. The state kinds (VISIBLE to CHECKED) ignore the matchers; only `not` applies.',
      }),
      target: t.arg({
        type: TargetInput,
        required: false,
        description: 'Required except for URL and TITLE.',
      }),
      equals: t.arg.string({
        required: false,
        description: 'The whole actual value, exactly (case-sensitive); for COUNT, a whole number.',
      }),
      contains: t.arg.string({
        required: false,
        description: 'Text kinds: the actual value contains this (case-sensitive).',
      }),
      regex: t.arg.string({
        required: false,
        description: `Text kinds: a JavaScript regular expression the actual value matches, at most ${CLIENT_PATTERN_MAX_CHARS} characters (BAD_INPUT if invalid or longer); where the gateway tests it, within ${CLIENT_PATTERN_DEADLINE_MS} ms.`,
      }),
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
