import { useGraphQlJit } from '@envelop/graphql-jit';
import {
  type DocumentNode,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isInputObjectType,
  typeFromAST,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Queries run through graphql-jit: it compiles each document once (kept per parsed document, which yoga's
 * parse cache shares between requests) into a function that resolves fields without graphql-js's per-field
 * info, path and completion steps. A 5,000-row snapshot's 60,000 nodes × `{ ref role name }` execute in
 * about a fifth of graphql-js's time.
 */
export function useCompiledQueries(): Plugin {
  return useGraphQlJit({}, { enableIf: runsCompiled }) as Plugin;
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
  if (operation?.operation !== 'query') return false;
  return (operation.variableDefinitions ?? []).every((definition) => {
    const type = typeFromAST(args.schema, definition.type);
    // An unknown type fails validation before execution; compiling it is never reached.
    return type !== undefined && !isInputObjectType(getNamedType(type));
  });
}
