import './field-options.js';
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { GraphQLSchema } from 'graphql';
import type { EvalScope, FieldEvalScope } from './field-options.js';

/**
 * Leaves out every field whose `evalScope` the server's `--allow-eval` scope (toSchema's `allowEval`) does
 * not open, so an agent can neither call nor learn of what the operator did not open: absent, not refused.
 */
export class EvalScopePlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>) {
    const needs = fieldConfig.pothosOptions.evalScope;
    return needs === undefined || opens(this.options.allowEval ?? 'none', needs) ? fieldConfig : null;
  }

  /**
   * Keeps the types the schema's roots and directives reach, so those only eval fields used (EvalResult,
   * the IPC types) leave with them and none can be forgotten.
   */
  override afterBuild(schema: GraphQLSchema): GraphQLSchema {
    return new GraphQLSchema({ ...schema.toConfig(), types: [] });
  }
}

function opens(scope: EvalScope, needs: FieldEvalScope): boolean {
  return scope === 'both' || scope === needs;
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      evalScope: EvalScopePlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin('evalScope', EvalScopePlugin);
