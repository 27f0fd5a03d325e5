import type { GraphQLSchema } from 'graphql';
import { isIntrospectionType, isObjectType } from 'graphql';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { builder } from '../builder.js';
import { SessionRef } from '../session.js';
import { type PluginApi, pluginErrors, pluginSessions, type StagegraphPlugin } from './plugin-api.js';
import { recordOwner } from './plugin-fields.js';

/** A plugin's name is its namespace: one lowercase word, so `trace` prefixes `traceStart` and ends `startTrace`. */
const PLUGIN_NAME = /^[a-z][a-z0-9]*$/;

/** The plugins registered into this process's builder, by name. */
const registered = new Map<string, StagegraphPlugin>();

/**
 * Registers each plugin into the builder once, checking what it added: a build with it must succeed (so
 * its mutations declare governance, its capabilities are real) and every name it added must lie in its
 * namespace. Any failure is PLUGIN_FAILED naming the plugin; a process whose plugin failed must not serve.
 */
export function registerPlugins(plugins: readonly StagegraphPlugin[]): readonly string[] {
  for (const plugin of plugins) registerPlugin(plugin);
  return plugins.map((plugin) => plugin.name);
}

function registerPlugin(plugin: StagegraphPlugin): void {
  const { name } = plugin;
  if (!PLUGIN_NAME.test(name))
    throw failed(name, 'its name must be one lowercase word (letters and digits): it is its namespace.');
  const earlier = registered.get(name);
  if (earlier === plugin) return;
  if (earlier) throw failed(name, 'another plugin of that name is already registered.');
  const before = coordinates(build());
  const api: PluginApi = {
    namespace: name,
    builder,
    refs: { Session: SessionRef },
    errors: pluginErrors,
    sessions: pluginSessions,
  };
  try {
    plugin.register(api);
  } catch (error) {
    throw failed(name, `register() threw: ${messageOf(error)}`, error);
  }
  let after: Coordinates;
  try {
    after = coordinates(build());
  } catch (error) {
    throw failed(name, `the schema does not build with it: ${messageOf(error)}`, error);
  }
  const strays = outsideNamespace(name, before, after);
  if (strays.length > 0)
    throw failed(
      name,
      `${strays.join(', ')} ${strays.length === 1 ? 'lies' : 'lie'} outside its namespace: fields it adds to types it did not create are named ${name}… or …${pascal(name)}, types it creates ${pascal(name)}….`,
    );
  for (const field of after.fields) if (!before.fields.has(field)) recordOwner(field, name);
  registered.set(name, plugin);
}

/** Every field and type a build reaches, with every registered plugin and every eval field present. */
function build(): GraphQLSchema {
  return builder.toSchema({ allowEval: 'both', plugins: [...registered.keys()] });
}

interface Coordinates {
  readonly types: ReadonlySet<string>;
  /** `Type.field` for every field of every object type. */
  readonly fields: ReadonlySet<string>;
}

function coordinates(schema: GraphQLSchema): Coordinates {
  const types = new Set<string>();
  const fields = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type)) continue;
    types.add(type.name);
    if (isObjectType(type))
      for (const field of Object.keys(type.getFields())) fields.add(`${type.name}.${field}`);
  }
  return { types, fields };
}

/** What the plugin added outside its namespace; fields of a type it created are its own to name. */
function outsideNamespace(name: string, before: Coordinates, after: Coordinates): string[] {
  const typePrefix = pascal(name);
  const newTypes = [...after.types].filter((type) => !before.types.has(type));
  const strays = newTypes.filter((type) => !type.startsWith(typePrefix));
  for (const field of after.fields) {
    if (before.fields.has(field)) continue;
    const [type = '', fieldName = ''] = field.split('.');
    if (newTypes.includes(type)) continue;
    if (!inNamespace(name, fieldName)) strays.push(field);
  }
  return strays;
}

/** `trace` owns `trace`, `traceStart` and `startTrace`, not `tracer` or `retrace`. */
function inNamespace(name: string, field: string): boolean {
  const after = field.charAt(name.length);
  return (
    (field.startsWith(name) && (after === '' || after !== after.toLowerCase())) ||
    field.endsWith(pascal(name))
  );
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function failed(plugin: string, reason: string, cause?: unknown): StagegraphError {
  return new StagegraphError('PLUGIN_FAILED', `Plugin "${plugin}" cannot be registered: ${reason}`, {
    details: { plugin },
    ...(cause === undefined ? {} : { cause }),
  });
}
