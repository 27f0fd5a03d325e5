import { buildActDocument, describeOutcomes, EXPECT_KINDS, STEP_KINDS, type Step } from './act-document.js';
import type { BridgeTool } from './tool.js';
import { optionalString, TARGET, TARGET_DEFS, text, WHERE } from './tool.js';

/** An ordered list of steps run as one multi-step mutation: one round trip, exact outcomes. */
export const actTool: BridgeTool = {
  name: 'act',
  description:
    "Run steps in order as one operation; a failed step stops the rest. Answers each step's outcome and what changed, as outline lines (- removed, ~ changed, + added), less what the page changes on its own (clocks, counters) unless quiet=false. A step policy asks about waits for approval.",
  inputSchema: {
    type: 'object',
    properties: {
      ...WHERE,
      steps: {
        type: 'array',
        minItems: 1,
        description: 'Run in order; each needs do and what its kind takes.',
        items: {
          type: 'object',
          properties: {
            do: {
              enum: STEP_KINDS,
              description:
                'fill, type, select: target+value; click, check, uncheck: target; press: key (+target); navigate: value; expect: kind (+target, value, contains, not).',
            },
            target: TARGET,
            value: {
              type: 'string',
              description: 'fill/type text, select label, navigate url|back|forward|reload, expect equals.',
            },
            key: { type: 'string', description: 'press: Enter, Tab, Control+A…' },
            kind: { enum: EXPECT_KINDS, description: 'expect: what to check; default VISIBLE.' },
            contains: {
              type: 'string',
              description: 'expect: a substring of the text, value, url or title.',
            },
            not: { type: 'boolean', description: 'expect: the opposite.' },
          },
          required: ['do'],
          additionalProperties: false,
        },
      },
      quiet: {
        type: 'boolean',
        description: 'Leave out of diffs what changes on its own (clocks, counters); default true.',
      },
    },
    required: ['steps'],
    additionalProperties: false,
    $defs: TARGET_DEFS,
  },
  misnamed: { text: 'value', url: 'value', label: 'value', equals: 'value', keys: 'key', action: 'do' },
  async run(args, { link }) {
    // The bridge checked the arguments against the schema above: steps is a non-empty list of steps.
    const steps = args.steps as Step[];
    let built: ReturnType<typeof buildActDocument>;
    try {
      built = buildActDocument(
        steps,
        {
          ...(optionalString(args.session) ? { session: optionalString(args.session) } : {}),
          ...(optionalString(args.window) ? { window: optionalString(args.window) } : {}),
        },
        args.quiet !== false,
      );
    } catch (error) {
      return { ...text(`BAD_INPUT: ${(error as Error).message}`), isError: true };
    }
    const outcome = describeOutcomes(steps, await link.execute(built.document, built.variables));
    return { ...text(outcome.text), ...(outcome.failed ? { isError: true } : {}) };
  },
};
