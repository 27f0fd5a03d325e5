/**
 * A value written into a next action as a GraphQL string literal. JSON's escapes are all valid GraphQL
 * escapes, so a name with quotes or backslashes cannot break out of the argument it fills.
 */
export function graphqlString(value: string): string {
  return JSON.stringify(value);
}
