import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isScalarType,
} from 'graphql';
import type { ArgumentDisclosure } from '../domain/governance/redaction/redaction.js';
import { typedArgumentsOf } from './gates/declared-governance.js';

/**
 * Text arguments that name what is acted on or where, never a value carried into the app: shown in the
 * audit trail and to approvers (scrubbed by pattern). `Type.field` names one input field; a bare name
 * counts wherever it appears. Every other text argument of a mutation is redacted — storage and cookie
 * values, bodies, headers' values, IPC and eval payloads, environment values, expected texts — so a new
 * argument is secret until it is listed here.
 */
export const ARGUMENTS_IN_CLEAR: readonly string[] = [
  'path',
  'paths',
  'filePaths',
  'origin',
  'key',
  'channel',
  'channels',
  'pattern',
  'urlPatterns',
  'methods',
  'resourceTypes',
  'url',
  'cdpUrl',
  'host',
  'domain',
  'name',
  'command',
  'executablePath',
  'main',
  'cwd',
  'titleContains',
  'urlContains',
  'urlIncludes',
  // The approver's own words on a deny.
  'reason',
  // The replica a session starts on, by its id: where, never a secret.
  'replica',
  // What eval runs is the operation itself; its `arg` is a value.
  'code',
  // A launch's arguments are what a launch allowlist matches on.
  'LaunchInput.args',
  'LaunchCommandInput.args',
  'LaunchDesktopInput.args',
  // Which running desktop app an attach reaches: what it acts on, as `command` names a launch's.
  'AttachDesktopInput.appName',
];

/** Input types that only locate things (a target, a window, a point): shown whole. */
export const INPUTS_IN_CLEAR: readonly string[] = ['TargetInput', 'WindowSelector', 'PointInput'];

/** Scalars that cannot carry a secret of any length; any other scalar is text until listed. */
const SCALARS_IN_CLEAR = new Set(['Int', 'Float', 'Boolean', 'ID', 'DateTime']);

/**
 * The classification of every argument of one Mutation field, read from its argument types; the text it
 * declares as typed into its target (`governance.risk.typed`) is shown unless the target is a password
 * field or the caller marked it secret.
 */
export function disclosureOf(field: GraphQLField<unknown, unknown>): ArgumentDisclosure {
  const typed = new Set(typedArgumentsOf(field));
  const cache = new Map<string, ArgumentDisclosure>();
  return Object.fromEntries(
    field.args.map((arg: GraphQLArgument) => [
      arg.name,
      typed.has(arg.name) ? 'typed' : ofType(arg.type, arg.name, null, cache),
    ]),
  );
}

function ofType(
  type: GraphQLInputType,
  name: string,
  owner: string | null,
  cache: Map<string, ArgumentDisclosure>,
): ArgumentDisclosure {
  const named = getNamedType(type);
  if (isEnumType(named)) return 'clear';
  if (isScalarType(named)) {
    if (SCALARS_IN_CLEAR.has(named.name)) return 'clear';
    const listed =
      ARGUMENTS_IN_CLEAR.includes(name) ||
      (owner !== null && ARGUMENTS_IN_CLEAR.includes(`${owner}.${name}`));
    return listed ? 'clear' : 'redact';
  }
  if (!isInputObjectType(named)) return 'redact';
  if (INPUTS_IN_CLEAR.includes(named.name)) return 'clear';
  const known = cache.get(named.name);
  if (known) return known;
  // Filled after it is cached, so an input type that contains itself refers to this same object.
  const fields: Record<string, ArgumentDisclosure> = {};
  cache.set(named.name, fields);
  for (const field of Object.values(named.getFields()))
    fields[field.name] = ofType(field.type, field.name, named.name, cache);
  return fields;
}
