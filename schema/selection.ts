import type { FieldNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';

/**
 * The names of the fields selected under `path` (field names below the resolving field), fragments
 * followed. Field selection is the agent's token control, so resolvers are told what was asked for: the
 * token estimate prices those fields, and an action computes its diff only when `diff` is selected.
 */
export function selectedFields(info: GraphQLResolveInfo, path: readonly string[]): string[] {
  let sets: SelectionSetNode[] = info.fieldNodes.flatMap((node) =>
    node.selectionSet ? [node.selectionSet] : [],
  );
  for (const name of path) {
    sets = fieldsOf(info, sets)
      .filter((field) => field.name.value === name)
      .flatMap((field) => (field.selectionSet ? [field.selectionSet] : []));
  }
  return [...new Set(fieldsOf(info, sets).map((field) => field.name.value))].filter(
    (name) => !name.startsWith('__'),
  );
}

function fieldsOf(info: GraphQLResolveInfo, sets: readonly SelectionSetNode[]): FieldNode[] {
  return sets.flatMap((set) =>
    set.selections.flatMap((selection): FieldNode[] => {
      if (selection.kind === 'Field') return [selection];
      if (selection.kind === 'InlineFragment') return fieldsOf(info, [selection.selectionSet]);
      const fragment = info.fragments[selection.name.value];
      return fragment ? fieldsOf(info, [fragment.selectionSet]) : [];
    }),
  );
}
