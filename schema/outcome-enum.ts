import { builder } from './builder.js';

/** How the schema names and describes one value of a closed set of domain outcomes. */
export interface OutcomeValue {
  /** The GraphQL enum value, SCREAMING_CASE. */
  readonly name: string;
  readonly description: string;
}

/**
 * A GraphQL enum for a closed set of domain outcome strings (refusal reasons and the like), which the
 * transports report in their own spelling (`not_found`). The map is keyed by the domain value: declare it
 * `as const satisfies Record<DomainUnion, OutcomeValue>`, so a value the domain gains fails to compile until
 * it is named and described here, and the enum's internal values stay exactly the domain's.
 */
export function outcomeEnum<const Map extends Readonly<Record<string, OutcomeValue>>>(
  name: string,
  description: string,
  map: Map,
) {
  const values = Object.fromEntries(
    Object.entries(map).map(([value, outcome]) => [
      outcome.name,
      { value, description: outcome.description },
    ]),
  ) as { [Value in keyof Map & string as Map[Value]['name']]: { value: Value; description: string } };
  return builder.enumType(name, { description, values });
}
