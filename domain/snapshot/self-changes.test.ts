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
    store.actions.begin()();
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
    store.actions.begin()();
    read(store, 2);
    store.actions.begin()();
    const third = read(store, 3);
    const fourth = read(store, 4);
    expect(quietDiff(diff(third, fourth)).leftOut).toBe(0);
    expect(lines(quietDiff(diff(first, fourth)))).toContain('+ text 4');
  });

  // An agent clicks "Add task" again and again while the page ticks: every click's new item is its own
  // doing, however the reads of an observer fall around the clicks.
  describe('learns nothing from what an action changes', () => {
    /** Reads between clicks with the ticker moving, then one click; returns the diff across the click. */
    async function clicks(readDuringClick: (store: RefStore, tick: number, tasks: number) => Promise<void>) {
      const store = new RefStore('s1');
      let tick = 1;
      let tasks = 1;
      let last = read(store, tick, tasks);
      const quietDiffs: ReturnType<typeof quietDiff>[] = [];
      for (let click = 0; click <= SELF_CHANGES_TO_MARK; click += 1) {
        last = read(store, ++tick, tasks);
        last = read(store, ++tick, tasks);
        await readDuringClick(store, tick, tasks);
        tasks += 1;
        const after = read(store, ++tick, tasks);
        quietDiffs.push(quietDiff(diff(last, after)));
        last = after;
      }
      return quietDiffs;
    }
    const itemAdded = (tasks: number) => ['+ listitem ', `+ text Task ${tasks}`];

    it('a read asked before the click and recorded after it (a slow reply, a busy store)', async () => {
      const quiet = await clicks(async (store, tick, tasks) => {
        const asked = store.actions.mark;
        const walked = rawSnapshot(page(tick, tasks), { firstKey: 10_000 + tick * 10 });
        store.actions.begin()();
        await store.record('w1', walked, {}, asked);
      });
      expect(quiet.map(lines)).toEqual(quiet.map((_, click) => itemAdded(click + 1)));
      expect(quiet.map((changes) => changes.leftOut)).toEqual(quiet.map(() => 2));
    });

    it('a read made while the click ran, before its effect', async () => {
      const quiet = await clicks(async (store, tick, tasks) => {
        const ended = store.actions.begin();
        read(store, tick, tasks);
        read(store, tick + 1, tasks + 1);
        ended();
      });
      expect(quiet.map(lines)).toEqual(quiet.map((_, click) => itemAdded(click + 1)));
    });
  });
});
