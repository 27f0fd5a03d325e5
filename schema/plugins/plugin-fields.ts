/**
 * Which plugin added which field (`Type.field`), so a schema built without a plugin leaves its fields out
 * even though every plugin registers into the process's one builder.
 */
const owners = new Map<string, string>();

export function recordOwner(coordinate: string, plugin: string): void {
  owners.set(coordinate, plugin);
}

export function ownerOf(coordinate: string): string | undefined {
  return owners.get(coordinate);
}
