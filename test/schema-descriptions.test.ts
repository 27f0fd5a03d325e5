import {
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../schema/index.js';

/** Every schema coordinate (type, field, argument, enum value) that has no description. */
function undescribedCoordinates(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  const described = (coordinate: string, description: string | null | undefined) => {
    if (!description?.trim()) missing.push(coordinate);
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    described(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        described(`${type.name}.${field.name}`, field.description);
        for (const arg of 'args' in field ? field.args : []) {
          described(`${type.name}.${field.name}(${arg.name}:)`, arg.description);
        }
      }
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) described(`${type.name}.${value.name}`, value.description);
    }
    if (isUnionType(type)) described(type.name, type.description);
  }
  for (const directive of schema.getDirectives()) {
    for (const arg of directive.args) described(`@${directive.name}(${arg.name}:)`, arg.description);
  }
  return missing;
}

describe('the schema an agent author reads', () => {
  it('describes every type, field, argument and enum value', () => {
    // Built with every eval field present, so the opt-in surface is described too.
    const missing = undescribedCoordinates(buildSchema({ allowEval: 'both' }));
    expect(missing, `${missing.length} coordinates have no description`).toEqual([]);
  });
});
