import { describe, expect, it } from 'vitest';
import { rawSnapshot, type TreeSpec } from '../../test/helpers/fabricated-snapshots.js';
import { diff, quietDiff } from './diff.js';
import { RefStore } from './ref-store.js';
import { SELF_CHANGES_TO_MARK } from './self-changes.js';

/** A page with a ticking counter (its text a new node at each tick) and a task list of `tasks` items. */
function page(tick: number, tasks: number): TreeSpec {
  const items: TreeSpec[] = [];
  for (let index = 0; index < tasks; index += 1)
    items.push({
      role: 'listitem',
      key: 100 + index,
      children: [{ role: 'text', name: `Task ${index}`, key: 200 + index }],
    });
  return {
    role: 'document',
    name: 'Tasks',
    key: 1,
    children: [
      { role: 'status', key: 2, children: [{ role: 'text', name: String(tick), key: 1_000 + tick }] },
      { role: 'list', key: 3, children: items },
    ],
  };
}

const read = (store: RefStore, tick: number, tasks = 1) =>
  store.recordNow(
    'w1',
    rawSnapshot(page(tick, tasks), { firstKey: 10_000 + tick * 10, detached: [999 + tick] }),
  );

const lines = (changes: ReturnType<typeof diff>) => [
  ...changes.removed.map((node) => `- ${node.role} ${node.name}`),
  ...changes.added.map((node) => `+ ${node.role} ${node.name}`),
];

describe('SelfChanges: a diff can leave out what changes on its own', () => {
  it('leaves out a spot seen changing between reads with no action in between, and says how much', () => {
    const store = new RefStore('s1');
    let last = read(store, 1);
    for (let tick = 2; tick <= SELF_CHANGES_TO_MARK + 1; tick += 1) last = read(store, tick);
    store.noteAction();
    const after = read(store, SELF_CHANGES_TO_MARK + 2, 2);
    const changes = diff(last, after);
    expect(lines(changes)).toContain('+ text 4');
    const quiet = quietDiff(changes);
    expect(lines(quiet)).toEqual(['+ listitem ', '+ text Task 1']);
    expect(quiet.leftOut).toBe(2);
  });

  it('keeps a change seen only once, and learns nothing across an action', () => {
    const store = new RefStore('s1');
    const first = read(store, 1);
    store.noteAction();
    read(store, 2);
    store.noteAction();
    const third = read(store, 3);
    const fourth = read(store, 4);
    expect(quietDiff(diff(third, fourth)).leftOut).toBe(0);
    expect(lines(quietDiff(diff(first, fourth)))).toContain('+ text 4');
  });
});
