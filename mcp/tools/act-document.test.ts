import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  buildActDocument,
  describeOutcomes,
  STEP_KINDS,
  type Step,
  withoutFocusMoves,
} from './act-document.js';

const SCHEMA = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
const target = { role: 'button', name: 'Go' };
const EVERY_KIND: Step[] = [
  { do: 'fill', target, value: 'Ada' },
  { do: 'type', target, value: 'x' },
  { do: 'press', key: 'Enter' },
  { do: 'press', target, key: 'Tab' },
  { do: 'click', target },
  { do: 'select', target, value: 'Red' },
  { do: 'check', target },
  { do: 'uncheck', target },
  { do: 'navigate', value: 'back' },
  { do: 'navigate', value: 'https://example.com/' },
  { do: 'expect', kind: 'TEXT', target, contains: 'Hi', not: true },
  { do: 'expect', kind: 'TITLE', value: 'Home' },
];

describe('the act document', () => {
  it('is one mutation, valid against the schema, with a field per step in order', () => {
    expect(new Set(EVERY_KIND.map((step) => step.do))).toEqual(new Set(STEP_KINDS));
    const { document, variables } = buildActDocument(EVERY_KIND, { session: 's1' });
    const parsed = parse(document);
    expect(validate(SCHEMA, parsed)).toEqual([]);
    expect(document.match(/^ {2}s\d+:/gm)).toHaveLength(EVERY_KIND.length);
    expect(variables).toMatchObject({ session: 's1', s0v: 'Ada', s8to: { step: 'BACK' }, s10kind: 'TEXT' });
  });

  it('refuses an unknown step kind, naming the ones there are', () => {
    expect(() => buildActDocument([{ do: 'dance' }], {})).toThrow(
      /Step 1: unknown "do": "dance"; one of fill/,
    );
  });

  it('refuses a step with a key its kind ignores or without one it needs, naming the key', () => {
    const refusal = (step: Step) => () => buildActDocument([{ do: 'click', target }, step], {});
    expect(refusal({ do: 'fill', target, key: 'Rent' })).toThrow(
      'Step 2 (fill): a fill step takes no "key"; it takes target, value.',
    );
    expect(refusal({ do: 'type', target })).toThrow('Step 2 (type): "value" is missing (the text to type).');
    expect(refusal({ do: 'press', value: 'Enter' })).toThrow(
      'Step 2 (press): a press step takes no "value" (the key goes in "key"); it takes key, target.',
    );
    expect(refusal({ do: 'click' })).toThrow('Step 2 (click): "target" is missing.');
    expect(refusal({ do: 'navigate', target })).toThrow(
      'Step 2 (navigate): a navigate step takes no "target"',
    );
  });

  it('answers each step: its target, its change, a failure with its code, and the steps not run', () => {
    const steps: Step[] = [
      { do: 'fill', target },
      { do: 'click', target },
      { do: 'click', target },
    ];
    const outcome = describeOutcomes(steps, {
      data: {
        s0: {
          target: { ref: 'e2', role: 'textbox', name: 'Name' },
          diff: { empty: false, outline: '~ e2 x', leftOut: 2 },
        },
        s1: null,
        s2: null,
      },
      errors: [
        {
          message: 'Two match.',
          path: ['s1'],
          extensions: { code: 'AMBIGUOUS_TARGET', hint: 'Add nth.', nextActions: ['query { a }'] },
        },
        { message: 'Skipped.', path: ['s2'], extensions: { code: 'STEP_SKIPPED' } },
      ],
    });
    expect(outcome).toEqual({
      failed: true,
      text: [
        '1 fill: ok e2 textbox "Name"',
        '~ e2 x',
        '(2 nodes that change on their own left out)',
        '2 click: AMBIGUOUS_TARGET: Two match.',
        'hint: Add nth.',
        'next: graphql {"query":"query { a }"}',
        '3 click: not run (an earlier step failed)',
      ].join('\n'),
    });
  });

  it('leaves out diff lines where only focus moved, and keeps every other change whole', () => {
    const lines = [
      '~ e4 textbox "Name" = "Ada" [focused] (was = "" [])',
      '~ e4 textbox "Name" = "Ada" (was [focused])',
      '~ e44 button "Add task" [focused] (was [])',
      '~ e7 checkbox "Subscribe" [focused] (was [checked focused])',
      '~ e9 button "Go [fast]" (was "Go")',
      '- e12 text "Saved"',
      '+ e65 listitem level=1',
    ];
    expect(withoutFocusMoves(lines.join('\n'))).toEqual([lines[0], lines[3], lines[4], lines[5], lines[6]]);
  });
});
