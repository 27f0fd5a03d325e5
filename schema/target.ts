import type { TargetRequest } from '../domain/interaction/target-input.js';
import { builder } from './builder.js';

export const TargetInput = builder.inputRef<TargetRequest>('TargetInput').implement({
  description:
    'One element, named exactly one way: a ref from a snapshot (preferred), a CSS selector, a test id, a role with an optional accessible name, or visible text.',
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
    exact: t.boolean({
      required: false,
      description: 'Whole-string match for name (default true) and text.',
    }),
    nth: t.int({ required: false, description: 'Zero-based pick when several match.' }),
    within: t.field({ type: TargetInput, required: false, description: 'Search only inside this element.' }),
  }),
});
