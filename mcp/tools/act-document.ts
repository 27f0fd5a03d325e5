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

type StepKey = Exclude<keyof Step, 'do'>;

/** What each kind of step needs and may have besides `do`, and what its `value` holds. */
const STEP_KEYS: Readonly<
  Record<string, { needs: readonly StepKey[]; may: readonly StepKey[]; value?: string }>
> = {
  fill: { needs: ['target', 'value'], may: [], value: 'the text to fill' },
  type: { needs: ['target', 'value'], may: [], value: 'the text to type' },
  press: { needs: ['key'], may: ['target'] },
  click: { needs: ['target'], may: [] },
  select: { needs: ['target', 'value'], may: [], value: 'the label of the option' },
  check: { needs: ['target'], may: [] },
  uncheck: { needs: ['target'], may: [] },
  navigate: { needs: ['value'], may: [], value: 'a url, back, forward or reload' },
  expect: { needs: [], may: ['kind', 'target', 'value', 'contains', 'not'], value: 'what it equals' },
};

export const STEP_KINDS = Object.keys(STEP_KEYS);

/** GraphQL's ExpectKind: what an expect step checks. */
export const EXPECT_KINDS = [
  'VISIBLE',
  'HIDDEN',
  'TEXT',
  'VALUE',
  'COUNT',
  'URL',
  'TITLE',
  'CHECKED',
  'ENABLED',
  'DISABLED',
];

/**
 * A step that would run as something else than written — a key its kind ignores, a value it lacks — is
 * refused naming the key: `{"do":"fill","key":"Rent"}` used to fill nothing and answer ok.
 */
function stepMistake(step: Step, index: number): string | undefined {
  const label = `Step ${index + 1}`;
  const keys = STEP_KEYS[step.do];
  if (!keys) return `${label}: unknown "do": ${JSON.stringify(step.do)}; one of ${STEP_KINDS.join(', ')}.`;
  const takes: readonly string[] = [...keys.needs, ...keys.may];
  const what = `${label} (${step.do})`;
  const stray = Object.keys(step).find((key) => key !== 'do' && !takes.includes(key));
  if (stray) {
    const instead = stray === 'value' && takes.includes('key') ? ' (the key goes in "key")' : '';
    return `${what}: a ${step.do} step takes no "${stray}"${instead}; it takes ${takes.join(', ') || 'nothing more'}.`;
  }
  const missing = keys.needs.find((key) => step[key] === undefined);
  if (missing === undefined) return undefined;
  return `${what}: "${missing}" is missing${missing === 'value' && keys.value ? ` (${keys.value})` : ''}.`;
}

const DIFF = 'diff(quiet: $quiet) { empty outline leftOut }';
const ACTED = `{ target { ref role name } nameAfter ${DIFF} }`;
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
    const mistake = stepMistake(step, index);
    if (mistake) throw new Error(mistake);
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
        return `${alias}: press(${placed}${on}, key: ${bind('k', 'String!', step.key ?? '')}) ${ACTED}`;
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
        const kind = bind('kind', 'ExpectKind!', step.kind ?? 'VISIBLE');
        return `${alias}: expect(${placed}${on}, kind: ${kind}${equals}${contains}, not: ${step.not === true}) { actual }`;
      }
      default:
        throw new Error(`Step ${index + 1}: unknown "do": ${JSON.stringify(step.do)}.`);
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
    const renamed = outcome.nameAfter == null ? '' : ` (now "${outcome.nameAfter}")`;
    const target = outcome.target
      ? ` ${outcome.target.ref} ${outcome.target.role} "${outcome.target.name}"${renamed}`
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
