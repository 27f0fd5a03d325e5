import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { ownerOf } from './plugin-fields.js';

/**
 * Leaves out the fields of every plugin the schema is not built with (toSchema's `plugins`): plugins
 * register into one builder per process, but each gateway serves only those it was started with.
 */
export class PluginFieldsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>) {
    const owner = ownerOf(`${fieldConfig.parentType}.${fieldConfig.name}`);
    return owner === undefined || (this.options.plugins ?? []).includes(owner) ? fieldConfig : null;
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      pluginFields: PluginFieldsPlugin<Types>;
    }

    export interface BuildSchemaOptions<Types extends SchemaTypes> {
      /** The names of the registered plugins whose fields this schema has (schema/plugins/). */
      plugins?: readonly string[];
    }
  }
}

SchemaBuilder.registerPlugin('pluginFields', PluginFieldsPlugin);
