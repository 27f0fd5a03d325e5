import fc from 'fast-check';
import { type GraphQLInputType, getNamedType, isInputObjectType, isListType, isNonNullType } from 'graphql';
import {
  type ArgumentCall,
  EnumValue,
  type Operation,
  type Payload,
  printOperation,
  type SchemaArbitraries,
  type Value,
} from './arbitraries.js';
import { GUARDED_NAMES, PROCESS_FIELDS } from './safe-values.js';

/**
 * The GraphQL payloads a careless or hostile agent sends: valid operations, the same with one argument of a
 * wrong type (or left out, or unknown), documents with characters deleted, doubled or cut off, strings up to
 * a megabyte, documents and variables nested or repeated tens of thousands of times. Only valid operations
 * use the fields that start processes; the other modes use fields whose arguments reach no file, host or pid.
 */

export type PayloadMode = 'valid' | 'mistyped' | 'mutated' | 'huge' | 'deep' | 'wide';

export interface FuzzPayload {
  readonly mode: PayloadMode;
  /** The root field called, or what the document is (for the failure list). */
  readonly label: string;
  readonly payload: Payload;
}

/** The largest generated string: the size of argument issue 31 froze the server with. */
const HUGE_STRING_MAX = 1_000_000;
const HUGE_STRING_MIN = 10_000;
/** Nesting of deep documents and variables: past graphql-js's and V8's recursion on a small stack. */
const DEEP_MAX = 30_000;
/** Repetitions of wide documents and variables. */
const WIDE_MAX = 50_000;
/** Runs of characters repeated into huge strings: word characters with no `@` were the quadratic case. */
const HUGE_UNITS = ['a', 'ab1.', 'x@', '@', ' ', 'é', '😀', '\\', '"', '\n', 'a-'];
/** Process fields are a sixth as likely as another field: a run launches a bounded number of apps. */
const PROCESS_FIELD_WEIGHT = 1;
const FIELD_WEIGHT = 6;

export function payloadArbitraries(schema: SchemaArbitraries) {
  const fields = schema.rootFields();
  const guarded = (kind: Operation['kind'], field: string) => schema.reaches(kind, field, GUARDED_NAMES);
  const valid = fc.oneof(
    ...fields.map(({ kind, field }) => ({
      weight: PROCESS_FIELDS.has(field) ? PROCESS_FIELD_WEIGHT : FIELD_WEIGHT,
      arbitrary: schema.operation(kind, field),
    })),
  );
  const harmless = fc.oneof(
    ...fields
      .filter(({ kind, field }) => !PROCESS_FIELDS.has(field) && !guarded(kind, field))
      .map(({ kind, field }) => schema.operation(kind, field)),
  );
  const asPayload = (mode: PayloadMode) => (operation: Operation) => ({
    mode,
    label: `${operation.kind} ${operation.field}`,
    payload: printOperation(operation),
  });
  return {
    /** One valid call of each root field: every run starts with these, so each field is covered. */
    eachField: fields.map(({ kind, field }) => schema.operation(kind, field).map(asPayload('valid'))),
    valid: valid.map(asPayload('valid')),
    /** The fields that start, attach to or signal processes, alone: what bursts of retries repeat. */
    processes: fc
      .oneof(
        ...fields
          .filter(({ field }) => PROCESS_FIELDS.has(field))
          .map(({ kind, field }) => schema.operation(kind, field)),
      )
      .map(asPayload('valid')),
    mistyped: harmless.chain((operation) => mistype(operation)).map(asPayload('mistyped')),
    mutated: fc.tuple(harmless, edits).map(([operation, list]) => {
      const printed = printOperation(operation);
      return {
        mode: 'mutated' as const,
        label: `${operation.kind} ${operation.field}`,
        payload: { ...printed, query: applyEdits(printed.query, list) },
      };
    }),
    huge: harmless.chain((operation) => oversize(operation)).map(asPayload('huge')),
    deep: deep(schema),
    wide: fc.oneof(wideAliases, harmless.chain(widened).map(asPayload('wide'))),
  };
}

/** A string of up to a megabyte, as a run of one unit (shrinks by length, not by content). */
export const hugeString = fc
  .tuple(fc.constantFrom(...HUGE_UNITS), fc.integer({ min: HUGE_STRING_MIN, max: HUGE_STRING_MAX }))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

/** A value of the wrong kind for a type: what an agent's misremembered signature sends. */
function wrongValue(type: GraphQLInputType): fc.Arbitrary<Value> {
  if (isNonNullType(type)) return fc.oneof(fc.constant(null), wrongValue(type.ofType));
  if (isListType(type)) return fc.constantFrom<Value>([['nested']], { not: 'a list' });
  const named = getNamedType(type);
  if (isInputObjectType(named)) return fc.constantFrom<Value>('a string', 7, { noSuchField: 1 }, {}, [[]]);
  switch (named.name) {
    case 'Int':
      return fc.constantFrom<Value>('12', 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, true, { a: 1 });
    case 'Float':
      return fc.constantFrom<Value>('1.5', true, { a: 1 }, new EnumValue('NaN'), [1, 2]);
    case 'Boolean':
      return fc.constantFrom<Value>('true', 1, 0, new EnumValue('yes'));
    case 'String':
      return fc.constantFrom<Value>(5, 1.5, true, { a: 'x' }, ['x']);
    case 'ID':
      return fc.constantFrom<Value>(1.5, true, { a: 1 });
    default:
      // Enums and custom scalars (DateTime).
      return fc.constantFrom<Value>(new EnumValue('NO_SUCH_VALUE'), 'lowercase', 7, true, { a: 1 });
  }
}

/** One mistake in an otherwise valid operation. */
function mistype(operation: Operation): fc.Arbitrary<Operation> {
  const { args } = operation;
  const replaceAt = (index: number, change: (call: ArgumentCall) => ArgumentCall | null) =>
    args.flatMap((call, at) => {
      if (at !== index) return [call];
      const changed = change(call);
      return changed ? [changed] : [];
    });
  const mistakes: fc.Arbitrary<Operation>[] = [
    fc.constant({ ...operation, args: [...args, unknownArgument] }),
    fc.constant({
      ...operation,
      selection: operation.selection ? `{ noSuchField ${operation.selection.slice(1)}` : '{ id }',
    }),
    fc.constant({ ...operation, selection: operation.selection ? '' : operation.selection }),
  ];
  if (args.length > 0) {
    const index = fc.nat(args.length - 1);
    mistakes.push(
      index.chain((at) =>
        wrongValue(args[at]!.type).map((value) => ({
          ...operation,
          args: replaceAt(at, (call) => ({ ...call, value })),
        })),
      ),
      fc
        .tuple(index, fc.constantFrom('Int', 'String!', '[Boolean]', 'NoSuchType', 'ID!'))
        .map(([at, type]) => ({
          ...operation,
          args: replaceAt(at, (call) => ({ ...call, inline: false, declaredAs: type })),
        })),
    );
  }
  // Leaving out a required argument is a mistake; leaving out an optional one is not (and leaving out
  // forceKill's id kills the demo session).
  const required = args.flatMap((call, at) => (isNonNullType(call.type) ? [at] : []));
  if (required.length > 0)
    mistakes.push(
      fc.constantFrom(...required).map((at) => ({ ...operation, args: replaceAt(at, () => null) })),
    );
  return fc.oneof(...mistakes);
}

const unknownArgument: ArgumentCall = {
  name: 'noSuchArgument',
  type: { toString: () => 'Int' } as unknown as GraphQLInputType,
  value: 1,
  inline: true,
};

interface Edit {
  readonly kind: 'delete' | 'duplicate' | 'insert' | 'truncate';
  /** Where, as a fraction of the document's length in ten-thousandths. */
  readonly at: number;
  readonly length: number;
  readonly char: string;
}

const edits = fc.array(
  fc.record({
    kind: fc.constantFrom<Edit['kind']>('delete', 'duplicate', 'insert', 'truncate'),
    at: fc.nat(9_999),
    length: fc.integer({ min: 1, max: 3 }),
    char: fc.constantFrom('{', '}', '(', ')', '"', ':', '$', '!', '@', '.', '\\', '\u0000', '😀', ' '),
  }),
  { minLength: 1, maxLength: 4 },
);

/** A document with characters deleted, doubled, inserted or cut off. */
function applyEdits(document: string, list: readonly Edit[]): string {
  return list.reduce((text, edit) => {
    const at = Math.floor((edit.at / 10_000) * text.length);
    switch (edit.kind) {
      case 'delete':
        return text.slice(0, at) + text.slice(at + edit.length);
      case 'duplicate':
        return (
          text.slice(0, at + edit.length) + text.slice(at, at + edit.length) + text.slice(at + edit.length)
        );
      case 'insert':
        return text.slice(0, at) + edit.char + text.slice(at);
      default:
        return text.slice(0, at);
    }
  }, document);
}

/** The string values an operation's arguments carry, as paths into them (through lists and input objects). */
function stringSlots(
  type: GraphQLInputType,
  value: Value,
  path: readonly (string | number)[],
): (string | number)[][] {
  if (value === null || value instanceof EnumValue) return [];
  if (isNonNullType(type)) return stringSlots(type.ofType, value, path);
  if (isListType(type) && Array.isArray(value))
    return value.flatMap((item, index) => stringSlots(type.ofType, item, [...path, index]));
  const named = getNamedType(type);
  if (isInputObjectType(named) && typeof value === 'object' && !Array.isArray(value)) {
    const fields = named.getFields();
    return Object.entries(value as Record<string, Value>).flatMap(([key, item]) =>
      fields[key] ? stringSlots(fields[key].type, item, [...path, key]) : [],
    );
  }
  return typeof value === 'string' && (named.name === 'String' || named.name === 'ID') ? [[...path]] : [];
}

function setAt(value: Value, path: readonly (string | number)[], replacement: Value): Value {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  if (Array.isArray(value))
    return value.map((item, index) => (index === head ? setAt(item, rest, replacement) : item));
  const object = value as Record<string, Value>;
  return { ...object, [head]: setAt(object[head] ?? null, rest, replacement) };
}

/** The operation with one of its strings a megabyte long, or itself when it carries no string. */
function oversize(operation: Operation): fc.Arbitrary<Operation> {
  const slots = operation.args.flatMap((call, index) =>
    stringSlots(call.type, call.value, []).map((path) => ({ index, path })),
  );
  if (slots.length === 0) return fc.constant(operation);
  return fc.tuple(fc.constantFrom(...slots), hugeString, fc.boolean()).map(([slot, huge, inline]) => ({
    ...operation,
    args: operation.args.map((call, index) =>
      index === slot.index ? { ...call, inline, value: setAt(call.value, slot.path, huge) } : call,
    ),
  }));
}

/** The operation with one of its list arguments tens of thousands of items long. */
function widened(operation: Operation): fc.Arbitrary<Operation> {
  const lists = operation.args.filter((call) => Array.isArray(call.value) && call.value.length > 0);
  if (lists.length === 0) return fc.constant(operation);
  return fc
    .tuple(fc.constantFrom(...lists), fc.integer({ min: 1_000, max: WIDE_MAX }))
    .map(([list, count]) => ({
      ...operation,
      args: operation.args.map((call) =>
        call === list
          ? { ...call, value: Array.from({ length: count }, () => (list.value as Value[])[0]!) }
          : call,
      ),
    }));
}

const count = (max: number) => fc.integer({ min: 100, max });

const wideAliases: fc.Arbitrary<FuzzPayload> = fc
  .tuple(count(WIDE_MAX), fc.constantFrom('__typename', 'sessions { id }', 'viewer { role }'))
  .map(([n, field]) => ({
    mode: 'wide',
    label: `${field} aliased`,
    payload: { query: `{ ${Array.from({ length: n }, (_, index) => `a${index}: ${field}`).join(' ')} }` },
  }));

/** Documents and variables nested past any sane depth. */
function deep(schema: SchemaArbitraries): fc.Arbitrary<FuzzPayload> {
  const query = (label: string, text: string): FuzzPayload => ({
    mode: 'deep',
    label,
    payload: { query: text },
  });
  const nestedSelection = count(DEEP_MAX).map((n) =>
    query('nested selection', `{ sessions ${'{ id windows '.repeat(n)}${'}'.repeat(n)} }`),
  );
  const nestedList = count(DEEP_MAX).map((n) =>
    query('nested list literal', `{ session(id: ${'['.repeat(n)}"s1"${']'.repeat(n)}) { id } }`),
  );
  const nestedVariable = count(DEEP_MAX).map((n) => ({
    mode: 'deep' as const,
    label: 'nested variable',
    payload: {
      query: 'query Fuzz($v: ID) { session(id: $v) { id } }',
      variablesText: `{"v":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`,
    },
  }));
  const choices = [nestedSelection, nestedList, nestedVariable];
  // A recursive input (TargetInput.within) nested n deep, in the one shape the schema accepts.
  const recursive = schema.recursiveInputs()[0];
  if (recursive?.type === 'TargetInput')
    choices.push(
      count(DEEP_MAX).map((n) => ({
        mode: 'deep',
        label: `nested ${recursive.type}.${recursive.field}`,
        payload: {
          query: 'mutation Fuzz($t: TargetInput!) { click(target: $t, timeoutMs: 100) { elapsedMs } }',
          variablesText: `{"t":${`{"${recursive.field}":`.repeat(n)}{"ref":"e1"}${'}'.repeat(n)}}`,
        },
      })),
    );
  return fc.oneof(...choices);
}
