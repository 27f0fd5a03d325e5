import { useGraphQlJit } from '@envelop/graphql-jit';
import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isInputObjectType,
  type OperationDefinitionNode,
  typeFromAST,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/**
 * Queries run through graphql-jit: it compiles a document (kept per parsed document, which the document
 * cache shares between requests) into a function that resolves fields without graphql-js's per-field
 * info, path and completion steps. A 5,000-row snapshot's 60,000 nodes × `{ ref role name }` execute in
 * about a fifth of graphql-js's time.
 *
 * A document is compiled on its second run, never its first: most documents an agent sends are new each
 * time (arguments written inline), and a compile of one costs more than running it once and leaves
 * memory behind that no cache of ours bounds — V8 keeps each generated function's source (which holds
 * the document's literal arguments) in its compilation cache, and graphql-jit memoizes every compile's
 * field paths for good. 2,000 mixed requests with new documents (some with 100 KB arguments inline)
 * left 34.7 MB that way; compiled on repeat only, 1.5 MB.
 */
export function useCompiledQueries(): Plugin {
  return useGraphQlJit({}, { enableIf: (args) => runsCompiled(args) && ranBefore(args.document) }) as Plugin;
}

/** Documents run once already (weak: one the document cache lets go is forgotten). */
const ranOnce = new WeakSet<DocumentNode>();

function ranBefore(document: DocumentNode): boolean {
  if (ranOnce.has(document)) return true;
  ranOnce.add(document);
  return false;
}

/**
 * Only queries whose variables are all scalars or enums. Mutations stay on graphql-js, which runs them one
 * after another as the governance chokepoint's steps are written against, and subscriptions stay with
 * graphql-ws's own source handling. A variable of an input object type stays there too: graphql-jit
 * compiles a variable's coercion by inlining its input type's fields, and TargetInput holds a TargetInput
 * (`within`), so compiling `$target: TargetInput` never ends and exhausts the heap
 * (zalando-incubator/graphql-jit#81; the MCP bridge's screenshot query crashed the gateway this way).
 */
export function runsCompiled(args: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
}): boolean {
  const operation = getOperationAST(args.document, args.operationName ?? undefined);
  return operation?.operation === 'query' && compiles(args.schema, operation);
}

/** Whether graphql-jit may compile the operation: all its variables are scalars or enums. */
function compiles(schema: GraphQLSchema, operation: OperationDefinitionNode): boolean {
  return (operation.variableDefinitions ?? []).every((definition) => {
    const type = typeFromAST(schema, definition.type);
    // An unknown type fails validation before execution; compiling it is never reached.
    return type !== undefined && !isInputObjectType(getNamedType(type));
  });
}

/** One subscription event mapped to its result: the subscription's selection run on the event as root. */
export type EventExecution = (
  rootValue: unknown,
  contextValue: unknown,
  variableValues: Record<string, unknown> | null | undefined,
) => ExecutionResult | Promise<ExecutionResult>;

/** Compiled per-event executions by document and operation name; null where the operation does not compile. */
const compiledEvents = new WeakMap<DocumentNode, Map<string | null, EventExecution | null>>();

/**
 * A subscription's per-event execution compiled by graphql-jit, under the same rule as queries (scalar and
 * enum variables only); null for anything else, which graphql-js's execute then maps. Under a console flood
 * graphql-js's per-event argument coercion and type checks were a tenth of the gateway's time.
 */
export function compiledEventExecution(args: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
}): EventExecution | null {
  const byName = compiledEvents.get(args.document) ?? new Map<string | null, EventExecution | null>();
  compiledEvents.set(args.document, byName);
  const name = args.operationName ?? null;
  const known = byName.get(name);
  if (known !== undefined) return known;
  const operation = getOperationAST(args.document, name ?? undefined);
  let execution: EventExecution | null = null;
  if (operation?.operation === 'subscription' && compiles(args.schema, operation)) {
    const compiled = compileQuery(args.schema, args.document, name ?? undefined);
    if (isCompiledQuery(compiled))
      execution = (rootValue, contextValue, variableValues) =>
        compiled.query(rootValue, contextValue, variableValues) as ExecutionResult | Promise<ExecutionResult>;
  }
  byName.set(name, execution);
  return execution;
}
