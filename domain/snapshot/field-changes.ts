import type { Bounds } from '../../transports/contract/bounds.js';
import type { NodeState } from '../../transports/contract/window-driver.js';
import type { NodeChanges } from './diff.js';

/** One changed field of a node, before and after, as text; null where the field had or has no value. */
export interface FieldChange {
  readonly field: keyof NodeChanges;
  readonly before: string | null;
  readonly after: string | null;
}

/**
 * The changed fields of a diff entry as before/after pairs, in the order of `after`. One text form for
 * every field keeps the entry one shape: states are their names joined by spaces ("" for none, which is
 * a value, not null), a level its number, a box "x,y,width,height".
 */
export function fieldChanges(before: NodeChanges, after: NodeChanges): FieldChange[] {
  return (Object.keys(after) as (keyof NodeChanges)[]).map((field) => ({
    field,
    before: asText(before[field]),
    after: asText(after[field]),
  }));
}

function asText(value: NodeChanges[keyof NodeChanges]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return (value as readonly NodeState[]).join(' ');
  const box = value as Bounds;
  return `${box.x},${box.y},${box.width},${box.height}`;
}
