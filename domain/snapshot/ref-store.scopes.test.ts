import { describe, expect, it } from 'vitest';
import { rawSnapshot, type TreeSpec } from '../../test/helpers/fabricated-snapshots.js';
import { RefStore } from './ref-store.js';

/**
 * The fixture's task list, keyed from `first`: a document, a list of `tasks` items, each a text and a
 * "Done" button (a framework without keys rebuilds them all on every render).
 */
function taskList(tasks: number, first: number): { full: TreeSpec; interactive: TreeSpec } {
  const items: TreeSpec[] = [];
  const buttons: TreeSpec[] = [];
  for (let index = 0; index < tasks; index += 1) {
    const at = first + index * 3;
    const done: TreeSpec = { role: 'button', name: 'Done', key: at + 2, interactive: true };
    items.push({
      role: 'listitem',
      key: at,
      children: [{ role: 'text', name: `Task ${index + 1}`, key: at + 1 }, done],
    });
    buttons.push(done);
  }
  const add: TreeSpec = { role: 'button', name: 'Add task', key: 3, interactive: true };
  const list: TreeSpec = { role: 'list', key: 2, children: items };
  return {
    full: { role: 'document', name: 'Tasks', key: 1, children: [list, add] },
    // An interactive-only read parents each control to its nearest included ancestor: the document.
    interactive: { role: 'document', name: 'Tasks', key: 1, children: [...buttons, add] },
  };
}

const CONTROLS = { interactiveOnly: true };

/** Every key of the six-task list's items: what the re-render detaches. */
const gone = rawSnapshot(taskList(6, 100).full)
  .nodes.map((node) => node.key)
  .filter((key) => key >= 100);

const doneRefs = (nodes: readonly { ref: string; name: string }[]) =>
  nodes.filter((node) => node.name === 'Done').map((node) => node.ref);

describe('RefStore: refs survive a re-render whatever scope the reads had', () => {
  it('keeps the refs of re-rendered twins when an interactive-only read came between two whole reads', () => {
    const store = new RefStore('s1');
    const before = store.recordNow('w1', rawSnapshot(taskList(6, 100).full));
    store.recordNow('w1', rawSnapshot(taskList(6, 100).interactive), CONTROLS);
    const after = store.recordNow('w1', rawSnapshot(taskList(7, 200).full, { detached: gone }));
    expect(doneRefs(after.nodes).slice(0, 6)).toEqual(doneRefs(before.nodes));
  });

  it('keeps them when an interactive-only read is the first to see the re-render', () => {
    const store = new RefStore('s1');
    const before = store.recordNow('w1', rawSnapshot(taskList(6, 100).full));
    const seen = store.recordNow(
      'w1',
      rawSnapshot(taskList(7, 200).interactive, { detached: gone }),
      CONTROLS,
    );
    expect(doneRefs(seen.nodes).slice(0, 6)).toEqual(doneRefs(before.nodes));
    const after = store.recordNow('w1', rawSnapshot(taskList(7, 200).full));
    expect(doneRefs(after.nodes)).toEqual(doneRefs(seen.nodes));
    const listitems = (nodes: typeof before.nodes) =>
      nodes.filter((node) => node.role === 'listitem').map((node) => node.ref);
    expect(listitems(after.nodes).slice(0, 6)).toEqual(listitems(before.nodes));
  });
});
