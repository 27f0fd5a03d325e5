import type { NativeMenuItem } from '../../transports/contract/native.js';

/**
 * The item at `path` in a serialized menu: each step matches a label, else a role (case-insensitively, as
 * roles are camelCase in Electron's docs and often lower case in apps). The same rule the main-process
 * hooks apply when they invoke, so a path that reads an item also invokes it.
 */
export function findMenuItem(
  items: readonly NativeMenuItem[],
  path: readonly string[],
): NativeMenuItem | null {
  let level: readonly NativeMenuItem[] = items;
  let found: NativeMenuItem | null = null;
  for (const step of path) {
    found =
      level.find((item) => item.label === step) ??
      level.find((item) => item.role !== null && item.role.toLowerCase() === step.toLowerCase()) ??
      null;
    if (!found) return null;
    level = found.submenu ?? [];
  }
  return found;
}
