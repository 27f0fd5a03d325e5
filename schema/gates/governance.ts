import './field-options.js';
import SchemaBuilder, {
  BasePlugin,
  type PothosOutputFieldConfig,
  PothosSchemaError,
  type SchemaTypes,
} from '@pothos/core';
import type { GraphQLField, GraphQLFieldResolver, GraphQLObjectType } from 'graphql';
import { governMutation } from '../../domain/governance/chokepoint.js';
import type { ArgumentDisclosure } from '../../domain/governance/redaction/redaction.js';
import type { PreviewedTarget } from '../../domain/interaction/handover.js';
import { disclosureOf } from '../argument-disclosure.js';
import { clientOf, type GatewayContext } from '../context.js';
import { type DeclaredGovernance, governedOperation } from './declared-governance.js';

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types['Context'], object>;

/**
 * Puts every Mutation field through the chokepoint (policy, approval, audit), outermost of the gates so
 * even a capability refusal is recorded, reading what the field declares in `governance`. A mutation
 * without a declaration fails the build: there is no default to fall back on.
 */
export class GovernancePlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolve: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>) {
    if (fieldConfig.kind !== 'Mutation') return resolve;
    const declared: DeclaredGovernance | undefined = fieldConfig.pothosOptions.governance;
    if (!declared)
      throw new PothosSchemaError(
        `Mutation.${fieldConfig.name} declares no governance: say which arguments name its session, window and target.`,
      );
    const operation = governedOperation(fieldConfig.name, declared);
    // Read from the field as built, which exists only once the build that is calling here has finished.
    let disclosure: ArgumentDisclosure | undefined;
    const built = () => {
      const mutation = this.buildCache.types.get(fieldConfig.parentType) as GraphQLObjectType;
      return mutation.getFields()[fieldConfig.name] as GraphQLField<unknown, unknown>;
    };
    return ((root, args, context, info) => {
      const gateway = context as GatewayContext;
      if (!gateway.governance) return resolve(root, args, context, info);
      disclosure ??= disclosureOf(built());
      return governMutation(
        gateway.governance,
        {
          operation,
          client: clientOf(gateway),
          args: args as Record<string, unknown>,
          disclosure,
          abandoned: gateway.abandoned,
        },
        (previewed) => resolve(new ChokepointHandover(previewed), args, context, info),
      );
    }) satisfies Resolver<Types>;
  }
}

/**
 * What a governed mutation's resolver gets as its parent: the target the chokepoint resolved to decide,
 * when the action may reuse it. The root value of a mutation field is otherwise unused, and this one is
 * made for the one field, so nothing else — another field of the same document among them — can see it.
 */
class ChokepointHandover {
  constructor(readonly previewed: PreviewedTarget | null) {}
}

/** The target the chokepoint handed over to this mutation's resolver; null when it handed none over. */
export function previewedTargetOf(root: unknown): PreviewedTarget | null {
  return root instanceof ChokepointHandover ? root.previewed : null;
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      governance: GovernancePlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin('governance', GovernancePlugin);
