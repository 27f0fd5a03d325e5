import './field-options.js';
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver, OperationDefinitionNode } from 'graphql';
import { OperationSteps } from '../../domain/interaction/operation-steps.js';

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types['Context'], object>;

/**
 * The contract of a multi-step operation (docs/agents.md, "Act"): every Mutation field is a step whose
 * outcome stays in `data`, and after a failed step the later ones answer STEP_SKIPPED instead of running.
 *
 * Every Mutation field is made nullable here, whatever it declares: a failed non-null field nulls the
 * whole `data`, and the agent would no longer see what the steps before it did. The wrapping is outermost
 * of all the gates, so a skipped step is never previewed, put to the policy, asked about or audited — it
 * did nothing, and the failed step's own record says why the rest stopped.
 */
export class StepsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>) {
    if (fieldConfig.kind !== 'Mutation') return fieldConfig;
    return { ...fieldConfig, type: { ...fieldConfig.type, nullable: true } };
  }

  override wrapResolve(resolve: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>) {
    if (fieldConfig.kind !== 'Mutation') return resolve;
    const options = fieldConfig.pothosOptions;
    const alwaysRuns = options.governance?.answersApproval === true || options.endsSession === true;
    const field = fieldConfig.name;
    return ((root, args, context, info) =>
      stepsOf(context, info.operation).run({ key: String(info.path.key), field, alwaysRuns }, () =>
        resolve(root, args, context, info),
      )) satisfies Resolver<Types>;
  }
}

/**
 * One record per operation of a request: the context is made per request (per message over graphql-ws),
 * and the operation node tells apart documents that share one — never the node alone, which a parse cache
 * shares between requests.
 */
const operations = new WeakMap<object, WeakMap<OperationDefinitionNode, OperationSteps>>();

function stepsOf(context: object, operation: OperationDefinitionNode): OperationSteps {
  const ofContext = operations.get(context) ?? new WeakMap<OperationDefinitionNode, OperationSteps>();
  operations.set(context, ofContext);
  const steps = ofContext.get(operation) ?? new OperationSteps();
  ofContext.set(operation, steps);
  return steps;
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      steps: StepsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin('steps', StepsPlugin);
