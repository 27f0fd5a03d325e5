/** A URL glob as captures and stubs take it: `*` matches any run of characters, the rest literally. */
export function urlGlob(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '.*');
  return new RegExp(`^${escaped}$`);
}
