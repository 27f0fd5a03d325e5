/**
 * The JSON Schema a tool advertises, as far as the bridge writes them: objects with declared properties
 * (closed unless `additionalProperties` is left out), enums, arrays, and scalar types.
 */
export interface SchemaNode {
  readonly type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly enum?: readonly (string | number | boolean)[];
  readonly items?: SchemaNode;
  readonly minimum?: number;
  readonly minItems?: number;
  /** `#/$defs/<name>`: the schema kept once under the tool schema's `$defs`. */
  readonly $ref?: string;
  readonly $defs?: Readonly<Record<string, SchemaNode>>;
}

/** Keys agents write for one the bridge names otherwise, with where the value belongs. */
export type Misnamed = Readonly<Record<string, string>>;

/**
 * Checks a tool call's arguments against the schema the tool advertised, so a misspelt or misplaced key
 * fails loudly (naming it) instead of being ignored: `{"do":"fill","text":"Rent"}` used to fill nothing.
 * Answers the first mistake, or undefined when the arguments fit.
 */
export function argumentMistake(
  schema: SchemaNode,
  value: unknown,
  misnamed: Misnamed = {},
  at = '',
  root: SchemaNode = schema,
): string | undefined {
  if (schema.$ref) return argumentMistake(defined(root, schema.$ref), value, misnamed, at, root);
  const where = at === '' ? 'the arguments' : at;
  if (schema.enum && !schema.enum.includes(value as string))
    return `${where} is ${JSON.stringify(value)}; one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}.`;
  switch (schema.type) {
    case 'object':
      return objectMistake(schema, value, misnamed, at, root);
    case 'array': {
      if (!Array.isArray(value)) return `${where} must be an array, not ${JSON.stringify(value)}.`;
      if (schema.minItems !== undefined && value.length < schema.minItems)
        return `${where} needs at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}.`;
      for (const [index, item] of value.entries()) {
        const mistake =
          schema.items && argumentMistake(schema.items, item, misnamed, `${at}[${index}]`, root);
        if (mistake) return mistake;
      }
      return undefined;
    }
    case 'integer':
      if (!Number.isInteger(value)) return `${where} must be an integer, not ${JSON.stringify(value)}.`;
      if (schema.minimum !== undefined && (value as number) < schema.minimum)
        return `${where} must be at least ${schema.minimum}.`;
      return undefined;
    case 'number':
    case 'string':
    case 'boolean':
      if (typeof value !== schema.type)
        return `${where} must be a ${schema.type}, not ${JSON.stringify(value)}.`;
      return undefined;
    default:
      return undefined;
  }
}

function objectMistake(
  schema: SchemaNode,
  value: unknown,
  misnamed: Misnamed,
  at: string,
  root: SchemaNode,
): string | undefined {
  const where = at === '' ? 'the arguments' : at;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `${where} must be an object, not ${JSON.stringify(value)}.`;
  const properties = schema.properties ?? {};
  const known = Object.keys(properties);
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (!property) {
      if (schema.additionalProperties !== false) continue;
      return `${at === '' ? '' : `${at}: `}unknown key "${key}"${suggestion(key, known, misnamed)}; the keys are ${known.join(', ')}.`;
    }
    const mistake = argumentMistake(property, item, misnamed, at === '' ? key : `${at}.${key}`, root);
    if (mistake) return mistake;
  }
  const missing = (schema.required ?? []).find((key) => !(key in value));
  return missing === undefined ? undefined : `${at === '' ? '' : `${at}: `}"${missing}" is missing.`;
}

function suggestion(key: string, known: readonly string[], misnamed: Misnamed): string {
  const same = known.find((candidate) => candidate.toLowerCase() === key.toLowerCase());
  const meant = same ?? (known.includes(misnamed[key] ?? '') ? misnamed[key] : undefined);
  return meant ? ` (did you mean "${meant}"?)` : '';
}

function defined(root: SchemaNode, ref: string): SchemaNode {
  const found = root.$defs?.[ref.replace(/^#\/\$defs\//, '')];
  // The schemas are the bridge's own: a dangling $ref is its bug, found by the schema test.
  if (!found) throw new Error(`the tool schema has no ${ref}`);
  return found;
}
