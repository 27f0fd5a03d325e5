/**
 * JSON with object keys sorted at every level and no whitespace, so the same record always serialises to
 * the same bytes and its hash can be recomputed by anyone, in any language, from the line on disk.
 * Follows JSON.stringify otherwise: `toJSON` is honoured, undefined properties are dropped.
 */
export function canonicalJson(value: unknown): string {
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) parts.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
