import type { WireResult } from '../graphql-link.js';
import { describeError } from './tool.js';

/** One step of `act` as the agent writes it. */
export interface Step {
  readonly do: string;
  readonly target?: Record<string, unknown>;
  readonly value?: string;
  readonly key?: string;
  readonly kind?: string;
  readonly contains?: string;
  readonly not?: boolean;
}

export const STEP_KINDS = [
  'fill',
  'type',
  'press',
  'click',
  'select',
  'check',
  'uncheck',
  'navigate',
  'expect',
];

const DIFF = 'diff(quiet: $quiet) { empty outline leftOut }';
const ACTED = `{ target { ref role name } ${DIFF} }`;
const HISTORY: Record<string, string> = { back: 'BACK', forward: 'FORWARD', reload: 'RELOAD' };

interface Built {
  readonly document: string;
  readonly variables: Record<string, unknown>;
}

/**
 * The steps as ONE mutation document, one aliased field per step (s0, s1, …), so the gateway runs them
 * in order and stops at the first failure, keeping every outcome in `data` and `errors`.
 */
export function buildActDocument(
  steps: readonly Step[],
  where: { session?: string; window?: string },
  quiet = true,
): Built {
  const variables: Record<string, unknown> = { session: where.session, window: where.window, quiet };
  const declarations = ['$session: ID', '$window: ID', '$quiet: Boolean'];
  const fields = steps.map((step, index) => {
    const alias = `s${index}`;
    const bind = (name: string, type: string, value: unknown): string => {
      const variable = `${alias}${name}`;
      declarations.push(`$${variable}: ${type}`);
      variables[variable] = value;
      return `$${variable}`;
    };
    const target = () => `target: ${bind('t', 'TargetInput!', step.target ?? {})}`;
    const placed = 'session: $session, window: $window';
    switch (step.do) {
      case 'fill':
        return `${alias}: fill(${placed}, ${target()}, value: ${bind('v', 'String!', step.value ?? '')}) ${ACTED}`;
      case 'type':
        return `${alias}: type(${placed}, ${target()}, text: ${bind('v', 'String!', step.value ?? '')}) ${ACTED}`;
      case 'press': {
        const on = step.target ? `, target: ${bind('t', 'TargetInput', step.target)}` : '';
        return `${alias}: press(${placed}${on}, key: ${bind('k', 'String!', step.key ?? step.value ?? '')}) ${ACTED}`;
      }
      case 'click':
        return `${alias}: click(${placed}, ${target()}) ${ACTED}`;
      case 'select':
        return `${alias}: selectOption(${placed}, ${target()}, labels: [${bind('v', 'String!', step.value ?? '')}]) ${ACTED}`;
      case 'check':
      case 'uncheck':
        return `${alias}: setChecked(${placed}, ${target()}, checked: ${step.do === 'check'}) ${ACTED}`;
      case 'navigate': {
        const history = HISTORY[(step.value ?? '').toLowerCase()];
        const to = history ? { step: history } : { url: step.value ?? '' };
        return `${alias}: navigate(${placed}, to: ${bind('to', 'NavigationInput!', to)}) { reached window { url } ${DIFF} }`;
      }
      case 'expect': {
        const on = step.target ? `, target: ${bind('t', 'TargetInput', step.target)}` : '';
        const equals = step.value === undefined ? '' : `, equals: ${bind('v', 'String', step.value)}`;
        const contains =
          step.contains === undefined ? '' : `, contains: ${bind('c', 'String', step.contains)}`;
        const kind = bind('kind', 'ExpectKind!', (step.kind ?? 'VISIBLE').toUpperCase());
        return `${alias}: expect(${placed}${on}, kind: ${kind}${equals}${contains}, not: ${step.not === true}) { actual }`;
      }
      default:
        throw new Error(
          `Step ${index + 1}: unknown "do": ${JSON.stringify(step.do)}; one of ${STEP_KINDS.join(', ')}.`,
        );
    }
  });
  return { document: `mutation Act(${declarations.join(', ')}) {\n  ${fields.join('\n  ')}\n}`, variables };
}

/** Each step's outcome on its own line, with the change it made as outline lines under it. */
export function describeOutcomes(
  steps: readonly Step[],
  answer: WireResult,
): { text: string; failed: boolean } {
  const errors = answer.errors ?? [];
  const stepless = errors.filter((error) => !/^s\d+$/.test(String(error.path?.[0] ?? '')));
  const lines = steps.flatMap((step, index) => {
    const alias = `s${index}`;
    const label = `${index + 1} ${step.do}`;
    const error = errors.find((candidate) => candidate.path?.[0] === alias);
    if (error) {
      if (error.extensions?.code === 'STEP_SKIPPED') return [`${label}: not run (an earlier step failed)`];
      return [describeError(error, label)];
    }
    const outcome = answer.data?.[alias];
    if (!outcome) return [`${label}: no answer`];
    if (step.do === 'expect') return [`${label}: ok, actual ${JSON.stringify(outcome.actual)}`];
    const target = outcome.target
      ? ` ${outcome.target.ref} ${outcome.target.role} "${outcome.target.name}"`
      : '';
    const where =
      step.do === 'navigate'
        ? ` ${outcome.window?.url ?? ''}${outcome.reached ? '' : ' (still loading)'}`
        : '';
    const diff = outcome.diff && !outcome.diff.empty ? withoutFocusMoves(outcome.diff.outline) : [];
    const leftOut = outcome.diff?.leftOut ?? 0;
    const quieted =
      leftOut > 0
        ? [`(${leftOut} ${leftOut === 1 ? 'node' : 'nodes'} that change on their own left out)`]
        : [];
    return [`${label}: ok${target}${where}`, ...diff, ...quieted];
  });
  return {
    text: [...stepless.map((error) => describeError(error)), ...lines].join('\n'),
    failed: errors.length > 0,
  };
}

/** `~ e4 textbox "Name" = "Ada" [focused] (was = "" [])`: the node, its states now, its value and states before. */
const CHANGED = /^~ .*?(?: \[([^\]]*)\])? \(was (= "(?:[^"\\]|\\.)*" )?\[([^\]]*)\]\)$/;

/**
 * A diff's lines less those where only focus moved (`~ e44 button "Add task" [focused] (was [])`): every
 * step moves focus, and those lines were a third of an answer. A line whose value or other states
 * changed is kept whole.
 */
export function withoutFocusMoves(outline: string): string[] {
  return outline.split('\n').filter((line) => {
    const match = CHANGED.exec(line);
    if (!match || match[2] !== undefined) return true;
    const states = (list: string | undefined) =>
      (list ?? '')
        .split(' ')
        .filter((state) => state !== '' && state !== 'focused')
        .sort()
        .join(' ');
    return states(match[1]) !== states(match[3]);
  });
}
