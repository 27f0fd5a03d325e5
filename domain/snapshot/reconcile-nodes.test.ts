import { describe, expect, it } from 'vitest';
import { COMPARED_FIELDS, sameNode } from './reconcile-nodes.js';
import type { SnapshotNode } from './snapshot.js';

/** A node with every field set, so that each can be changed to another value of its own type. */
const full: SnapshotNode = {
  ref: 'e1',
  role: 'checkbox',
  name: 'Subscribe',
  value: 'on',
  description: 'Weekly mail',
  states: ['CHECKED'],
  level: 2,
  bbox: { x: 1, y: 2, width: 3, height: 4 },
  interactive: true,
  url: 'https://example.test/a',
  optionCount: 3,
  atspiRole: 'check box',
  atspiPath: '/org/a11y/atspi/accessible/7',
  parentRef: 'e0',
  childRefs: ['e2'],
};

function changed(value: unknown): unknown {
  if (typeof value === 'string') return `${value}x`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return [...value, 'more'];
  return { ...(value as object), x: 9 };
}

describe('sameNode', () => {
  it('holds for equal facts in distinct objects', () => {
    expect(sameNode(full, { ...full, states: [...full.states], childRefs: [...full.childRefs] })).toBe(true);
  });

  it.each(Object.keys(COMPARED_FIELDS) as (keyof SnapshotNode)[])('tells nodes apart by %s', (field) => {
    expect(sameNode(full, { ...full, [field]: changed(full[field]) })).toBe(false);
  });
});
