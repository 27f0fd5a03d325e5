import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
} from 'graphql';

/**
 * Operations generated from a GraphQLSchema: every root field of Query, Mutation and Subscription, its
 * arguments from their types (enums, scalars, input objects, lists, nulls), inline or as variables, and a
 * selection picked from its return type to a bounded depth. Hints (safe-values.ts) replace the values of
 * arguments that reach files, hosts and processes.
 */

/** An enum value: a bare name in a document, a string in variables. */
export class EnumValue {
  constructor(readonly name: string) {}
  toJSON(): string {
    return this.name;
  }
}

export type Value =
  | null
  | boolean
  | number
  | string
  | EnumValue
  | readonly Value[]
  | { [key: string]: Value };

export type OperationKind = 'query' | 'mutation' | 'subscription';

export interface ArgumentCall {
  readonly name: string;
  readonly type: GraphQLInputType;
  readonly value: Value;
  /** Written into the document, or sent as a variable. */
  readonly inline: boolean;
  /** A variable declared with another type than the argument's (a mistake the fuzz makes on purpose). */
  readonly declaredAs?: string;
}

export interface Operation {
  readonly kind: OperationKind;
  readonly field: string;
  readonly args: readonly ArgumentCall[];
  /** The selection set, `{ ... }`, or '' for a leaf. */
  readonly selection: string;
}

export interface Hints {
  /** By `Type.field.argument` (root and nested fields) or `Input.field`: the whole value, never null. */
  readonly byField: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** By argument or input-field name: the value of the named type, lists and nulls around it as typed. */
  readonly byName: Readonly<Record<string, fc.Arbitrary<unknown>>>;
}

/** Levels of selection below a root field: session → windows → snapshot → node. */
const SELECTION_DEPTH = 3;
/** Fields picked per selection set. */
const FIELDS_PER_SELECTION = 3;
/** Levels of nested input objects (TargetInput.within holds a TargetInput). */
const INPUT_DEPTH = 3;
const LIST_LENGTH = 4;
/** Optional fields set in one input object. */
const OPTIONAL_FIELDS = 2;

const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '"',
      '\\',
      '\n',
      '\u0000',
      'button',
      '#app',
      'role=button',
      'text=Save >> nth=0',
      'button ?? link',
      'a@b.example',
      '(a+)+$',
      'ä😀',
    ),
  },
);
const int = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -5, max: 100 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 2_147_483_647, -2_147_483_648) },
);
const float = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.float({ min: -10, max: 10 }));
const dateTime = fc.oneof(
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('2024-02-30T25:61:00Z', 'yesterday', ''),
);

function scalar(name: string): fc.Arbitrary<Value> {
  switch (name) {
    case 'Int':
      return int;
    case 'Float':
      return float;
    case 'Boolean':
      return fc.boolean();
    case 'ID':
      return fc.oneof(text, fc.nat(100).map(String));
    case 'DateTime':
      return dateTime;
    default:
      return text;
  }
}

/** A GraphQL literal of a value. */
export function literal(value: Value): string {
  if (value === null) return 'null';
  if (value instanceof EnumValue) return value.name;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  const entries = Object.entries(value as Record<string, Value>);
  return `{${entries.map(([key, item]) => `${key}: ${literal(item)}`).join(', ')}}`;
}

export interface Payload {
  readonly query: string;
  readonly variables?: unknown;
  /** Variables already serialised (too deep for JSON.stringify's recursion). */
  readonly variablesText?: string;
  readonly operationName?: unknown;
}

/** The document and variables of an operation. */
export function printOperation(operation: Operation): Payload {
  const declarations: string[] = [];
  const variables: Record<string, Value> = {};
  const args = operation.args.map((argument, index) => {
    if (argument.inline) return `${argument.name}: ${literal(argument.value)}`;
    declarations.push(`$v${index}: ${argument.declaredAs ?? String(argument.type)}`);
    variables[`v${index}`] = argument.value;
    return `${argument.name}: $v${index}`;
  });
  const declared = declarations.length > 0 ? `(${declarations.join(', ')})` : '';
  const called = args.length > 0 ? `(${args.join(', ')})` : '';
  const query = `${operation.kind} Fuzz${declared} { ${operation.field}${called} ${operation.selection} }`;
  return declarations.length > 0 ? { query, variables } : { query };
}

/** Builds, once per type and depth, the arbitraries of a schema's values and selections. */
export class SchemaArbitraries {
  readonly #schema: GraphQLSchema;
  readonly #hints: Hints;
  readonly #inputs = new Map<string, fc.Arbitrary<Value>>();
  readonly #selections = new Map<string, fc.Arbitrary<string>>();

  constructor(schema: GraphQLSchema, hints: Hints) {
    this.#schema = schema;
    this.#hints = hints;
  }

  /** Every root field, with its kind. */
  rootFields(): { kind: OperationKind; field: string }[] {
    const roots: [OperationKind, GraphQLObjectType | null | undefined][] = [
      ['query', this.#schema.getQueryType()],
      ['mutation', this.#schema.getMutationType()],
      ['subscription', this.#schema.getSubscriptionType()],
    ];
    return roots.flatMap(([kind, type]) =>
      type ? Object.keys(type.getFields()).map((field) => ({ kind, field })) : [],
    );
  }

  rootType(kind: OperationKind): GraphQLObjectType {
    const type =
      kind === 'query'
        ? this.#schema.getQueryType()
        : kind === 'mutation'
          ? this.#schema.getMutationType()
          : this.#schema.getSubscriptionType();
    if (!type) throw new Error(`the schema has no ${kind} type`);
    return type;
  }

  /** A valid call of one root field. */
  operation(kind: OperationKind, fieldName: string): fc.Arbitrary<Operation> {
    const root = this.rootType(kind);
    const field = root.getFields()[fieldName];
    if (!field) throw new Error(`no field ${root.name}.${fieldName}`);
    return fc
      .record({
        args: this.#argumentCalls(root.name, field),
        selection: this.selection(field.type, SELECTION_DEPTH),
      })
      .map(({ args, selection }) => ({ kind, field: fieldName, args, selection }));
  }

  /** A value of an input type, from the hints where one applies. */
  value(type: GraphQLInputType, keys: readonly string[], depth = INPUT_DEPTH): fc.Arbitrary<Value> {
    const [fieldKey, name] = keys;
    const whole = fieldKey === undefined ? undefined : this.#hints.byField[fieldKey];
    if (whole) return whole as fc.Arbitrary<Value>;
    return this.#unwrapped(type, name, depth);
  }

  #unwrapped(type: GraphQLInputType, name: string | undefined, depth: number): fc.Arbitrary<Value> {
    if (isNonNullType(type)) return this.#nonNull(type.ofType, name, depth);
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 4, arbitrary: this.#nonNull(type, name, depth) },
    );
  }

  #nonNull(type: GraphQLInputType, name: string | undefined, depth: number): fc.Arbitrary<Value> {
    if (isNonNullType(type)) return this.#nonNull(type.ofType, name, depth);
    if (isListType(type)) {
      const item = this.#unwrapped(type.ofType as GraphQLInputType, name, depth);
      return fc.array(item, { maxLength: LIST_LENGTH });
    }
    const hint = name === undefined ? undefined : this.#hints.byName[name];
    if (hint) return hint as fc.Arbitrary<Value>;
    if (isEnumType(type))
      return fc.constantFrom(...type.getValues().map((value) => new EnumValue(value.name)));
    if (isInputObjectType(type)) return this.#inputObject(type.name, depth);
    return scalar((type as GraphQLNamedType).name);
  }

  #inputObject(typeName: string, depth: number): fc.Arbitrary<Value> {
    const key = `${typeName}@${depth}`;
    const known = this.#inputs.get(key);
    if (known) return known;
    const type = this.#schema.getType(typeName);
    if (!isInputObjectType(type)) throw new Error(`${typeName} is not an input object`);
    const fields = Object.values(type.getFields()).filter((field) => depth > 0 || isNonNullType(field.type));
    const shape = Object.fromEntries(
      fields.map((field) => [
        field.name,
        this.value(field.type, [`${typeName}.${field.name}`, field.name], depth - 1),
      ]),
    );
    const always = (name: string) =>
      isNonNullType(type.getFields()[name]!.type) || this.#hints.byField[`${typeName}.${name}`] !== undefined;
    const required = Object.keys(shape).filter(always);
    const optional = Object.keys(shape).filter((name) => !always(name));
    // A few optional fields, as an agent sends them: with each present half the time, a TargetInput nearly
    // always named two strategies and was refused before it was resolved.
    const made = fc
      .subarray(optional, { maxLength: Math.min(OPTIONAL_FIELDS, optional.length) })
      .chain((picked) =>
        fc.record(Object.fromEntries([...required, ...picked].map((name) => [name, shape[name]!]))),
      ) as fc.Arbitrary<Value>;
    this.#inputs.set(key, made);
    return made;
  }

  #argumentCalls(parent: string, field: GraphQLField<unknown, unknown>): fc.Arbitrary<ArgumentCall[]> {
    const calls = field.args.map((argument) => {
      const key = `${parent}.${field.name}.${argument.name}`;
      const call = fc.record({
        value: this.value(argument.type, [key, argument.name]),
        inline: fc.boolean(),
      });
      const made = call.map(({ value, inline }) => ({
        name: argument.name,
        type: argument.type,
        value,
        inline,
      }));
      // An optional argument is often left out; a required or hinted one never (leaving a required one out is
      // the mistyped mode's).
      return isNonNullType(argument.type) || this.#hints.byField[key] ? made : fc.option(made, { freq: 3 });
    });
    return fc
      .tuple(...calls)
      .map((made) => made.filter((call): call is ArgumentCall => call !== null)) as fc.Arbitrary<
      ArgumentCall[]
    >;
  }

  /** Inline arguments of a nested field, written into the selection. */
  #inlineArguments(parent: string, field: GraphQLField<unknown, unknown>): fc.Arbitrary<string> {
    return this.#argumentCalls(parent, field).map((calls) =>
      calls.length > 0 ? `(${calls.map((call) => `${call.name}: ${literal(call.value)}`).join(', ')})` : '',
    );
  }

  /** A selection set of a return type, nested to `depth` levels; '' for a scalar or an enum. */
  selection(type: GraphQLOutputType, depth: number): fc.Arbitrary<string> {
    const named = getNamedType(type);
    if (isLeafType(named)) return fc.constant('');
    const key = `${named.name}@${depth}`;
    const known = this.#selections.get(key);
    if (known) return known;
    let made: fc.Arbitrary<string>;
    if (isAbstractType(named)) {
      const fragments = this.#schema
        .getPossibleTypes(named)
        .map((possible) =>
          this.selection(possible, depth).map((inner) => `... on ${possible.name} ${inner}`),
        );
      made = fc
        .subarray(fragments, { minLength: 0, maxLength: Math.min(2, fragments.length) })
        .chain((picked) => fc.tuple(...picked))
        .map((parts) => `{ __typename ${parts.join(' ')} }`);
    } else {
      const object = named as GraphQLObjectType;
      const fields = Object.values(object.getFields()).filter(
        (field) => depth > 0 || isLeafType(getNamedType(field.type)),
      );
      const choices = fields.map((field) =>
        fc
          .tuple(this.#inlineArguments(object.name, field), this.selection(field.type, depth - 1))
          .map(([args, inner]) => `${field.name}${args} ${inner}`.trim()),
      );
      made =
        choices.length === 0
          ? fc.constant('{ __typename }')
          : fc
              .subarray(choices, { minLength: 1, maxLength: Math.min(FIELDS_PER_SELECTION, choices.length) })
              .chain((picked) => fc.tuple(...picked))
              .map((parts) => `{ ${parts.join(' ')} }`);
    }
    this.#selections.set(key, made);
    return made;
  }

  /** Whether a field's arguments (through its input objects) name anything in `names`. */
  reaches(kind: OperationKind, fieldName: string, names: ReadonlySet<string>): boolean {
    const seen = new Set<string>();
    const visit = (type: GraphQLInputType): boolean => {
      const named = getNamedType(type);
      if (!isInputObjectType(named) || seen.has(named.name)) return false;
      seen.add(named.name);
      return Object.values(named.getFields()).some((field) => names.has(field.name) || visit(field.type));
    };
    const field = this.rootType(kind).getFields()[fieldName];
    return (field?.args ?? []).some((argument) => names.has(argument.name) || visit(argument.type));
  }

  /** Input object types with a field of their own type (TargetInput.within): what deep inputs nest. */
  recursiveInputs(): { type: string; field: string }[] {
    return Object.values(this.#schema.getTypeMap()).flatMap((type) =>
      isInputObjectType(type)
        ? Object.values(type.getFields())
            .filter((field) => getNamedType(field.type).name === type.name)
            .map((field) => ({ type: type.name, field: field.name }))
        : [],
    );
  }
}
