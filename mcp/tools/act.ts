import { buildActDocument, describeOutcomes, STEP_KINDS, type Step } from './act-document.js';
import type { BridgeTool } from './tool.js';
import { optionalString, TARGET, text, WHERE } from './tool.js';

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
        items: {
          type: 'object',
          properties: {
            do: { enum: STEP_KINDS },
            target: TARGET,
            value: {
              type: 'string',
              description: 'fill/type text, select label, navigate url|back|forward|reload, expect equals',
            },
            key: { type: 'string', description: 'press: Enter, Tab, Control+A…' },
            kind: {
              type: 'string',
              description: 'expect: TEXT VALUE VISIBLE HIDDEN COUNT URL TITLE CHECKED ENABLED DISABLED',
            },
            contains: { type: 'string' },
            not: { type: 'boolean' },
          },
          required: ['do'],
        },
      },
      quiet: { type: 'boolean', description: 'Default true.' },
    },
    required: ['steps'],
  },
  async run(args, { link }) {
    const steps = Array.isArray(args.steps) ? (args.steps as Step[]) : [];
    if (steps.length === 0) return { ...text('steps is empty: give at least one step.'), isError: true };
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
      return { ...text(`BAD_USER_INPUT: ${(error as Error).message}`), isError: true };
    }
    const outcome = describeOutcomes(steps, await link.execute(built.document, built.variables));
    return { ...text(outcome.text), ...(outcome.failed ? { isError: true } : {}) };
  },
};
