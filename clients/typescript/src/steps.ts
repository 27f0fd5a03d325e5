import type { ExpectKind, TargetInput } from './generated/graphql.js';

/** One step of an `act` call; each becomes one field of a single multi-step mutation, run in order. */
export type Step =
  | { fill: { target: TargetInput; value: string; secret?: boolean; timeoutMs?: number } }
  | { type: { target: TargetInput; text: string; secret?: boolean; delayMs?: number; timeoutMs?: number } }
  | { press: { key: string; target?: TargetInput; timeoutMs?: number } }
  | { click: { target: TargetInput; clickCount?: number; timeoutMs?: number } }
  | {
      select: {
        target: TargetInput;
        values?: string[];
        labels?: string[];
        indexes?: number[];
        timeoutMs?: number;
      };
    }
  | { check: { target: TargetInput; checked?: boolean; timeoutMs?: number } }
  | { expect: ExpectStep };

export interface ExpectStep {
  kind: ExpectKind;
  target?: TargetInput;
  contains?: string;
  equals?: string;
  regex?: string;
  not?: boolean;
  min?: number;
  max?: number;
  timeoutMs?: number;
}

export type StepKind = keyof UnionToRecord<Step>;
type UnionToRecord<U> = { [K in U extends unknown ? keyof U : never]: unknown };

/** Each step kind's mutation field and the GraphQL type of every argument it may pass. */
const FIELDS: Record<
  StepKind,
  { field: string; args: Record<string, string>; defaults?: Record<string, unknown> }
> = {
  fill: {
    field: 'fill',
    args: { target: 'TargetInput!', value: 'String!', secret: 'Boolean', timeoutMs: 'Int' },
  },
  type: {
    field: 'type',
    args: { target: 'TargetInput!', text: 'String!', secret: 'Boolean', delayMs: 'Int', timeoutMs: 'Int' },
  },
  press: { field: 'press', args: { key: 'String!', target: 'TargetInput', timeoutMs: 'Int' } },
  click: { field: 'click', args: { target: 'TargetInput!', clickCount: 'Int', timeoutMs: 'Int' } },
  select: {
    field: 'selectOption',
    args: {
      target: 'TargetInput!',
      values: '[String!]',
      labels: '[String!]',
      indexes: '[Int!]',
      timeoutMs: 'Int',
    },
  },
  check: {
    field: 'setChecked',
    args: { target: 'TargetInput!', checked: 'Boolean!', timeoutMs: 'Int' },
    defaults: { checked: true },
  },
  expect: {
    field: 'expect',
    args: {
      kind: 'ExpectKind!',
      target: 'TargetInput',
      contains: 'String',
      equals: 'String',
      regex: 'String',
      not: 'Boolean',
      min: 'Int',
      max: 'Int',
      timeoutMs: 'Int',
    },
  },
};

export interface StepsDocument {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  /** The alias of each step's field in `data`, in step order. */
  readonly aliases: readonly string[];
  readonly kinds: readonly StepKind[];
}

/**
 * Writes the steps as ONE mutation document, a field a step (aliased s0, s1, ...), every value passed as a
 * variable. Actions answer their target; the last action also answers the settled diff as outline lines,
 * so one round trip says what the steps did.
 */
export function stepsDocument(session: string | undefined, steps: readonly Step[]): StepsDocument {
  if (steps.length === 0) throw new TypeError('act needs at least one step');
  const kinds = steps.map((step) => {
    const kind = Object.keys(step)[0];
    if (!kind || !(kind in FIELDS)) throw new TypeError(`unknown step ${JSON.stringify(step)}`);
    return kind as StepKind;
  });
  const lastAction = kinds.lastIndexOf(kinds.filter((kind) => kind !== 'expect').at(-1) as StepKind);
  const declarations = ['$session: ID'];
  const variables: Record<string, unknown> = { session };
  const fields = steps.map((step, index) => {
    const kind = kinds[index] as StepKind;
    const spec = FIELDS[kind];
    const given = { ...spec.defaults, ...(step as Record<string, Record<string, unknown>>)[kind] };
    const args = ['session: $session'];
    for (const [name, type] of Object.entries(spec.args)) {
      if (given[name] === undefined) continue;
      const variable = `s${index}_${name}`;
      declarations.push(`$${variable}: ${type}`);
      variables[variable] = given[name];
      args.push(`${name}: $${variable}`);
    }
    const selection =
      kind === 'expect'
        ? '{ kind actual }'
        : index === lastAction
          ? '{ target { ref role name } diff { outline } }'
          : '{ target { ref role name } }';
    return `  s${index}: ${spec.field}(${args.join(', ')}) ${selection}`;
  });
  return {
    query: `mutation Act(${declarations.join(', ')}) {\n${fields.join('\n')}\n}`,
    variables,
    aliases: kinds.map((_, index) => `s${index}`),
    kinds,
  };
}
