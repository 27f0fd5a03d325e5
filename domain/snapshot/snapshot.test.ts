import { describe, expect, it } from 'vitest';
import { rawSnapshot, type TreeSpec } from '../../test/helpers/fabricated-snapshots.js';
import { RefStore } from './ref-store.js';
import { MAX_TEXT_CHARS, TEXT_ELLIPSIS } from './snapshot.js';

function record(root: TreeSpec) {
  return new RefStore('s1').recordNow('w1', rawSnapshot(root));
}

describe('Snapshot', () => {
  const snapshot = record({
    role: 'document',
    children: [
      {
        role: 'dialog',
        name: 'Confirm',
        children: [
          { role: 'paragraph', children: [{ role: 'text', name: 'Delete   3\nfiles?' }] },
          {
            role: 'button',
            name: 'Delete all',
            interactive: true,
            children: [{ role: 'text', name: 'Delete' }],
          },
          { role: 'button', name: '', interactive: true, children: [{ role: 'img', name: 'close' }] },
          { role: 'button', name: '', interactive: true, children: [{ role: 'text', name: 'Later' }] },
        ],
      },
    ],
  });

  it('links parents and children by ref, in document order', () => {
    expect(snapshot.root.ref).toBe('e1');
    expect(snapshot.children('e2').map((node) => node.role)).toEqual([
      'paragraph',
      'button',
      'button',
      'button',
    ]);
    expect(snapshot.parent('e4')?.ref).toBe('e3');
    expect(snapshot.parent('e1')).toBeNull();
    expect(snapshot.node('e404')).toBeUndefined();
    expect(snapshot.children('e404')).toEqual([]);
  });

  it('reads text from text nodes and name-from-content names, else from descendants', () => {
    expect(snapshot.text('e4')).toBe('Delete 3 files?');
    // A button's name is its text (here an aria-label wins over the child text, as the graph says).
    expect(snapshot.text('e5')).toBe('Delete all');
    // A nameless button has nothing to show but its content; an image is not text.
    expect(snapshot.text('e7')).toBe('');
    expect(snapshot.text('e9')).toBe('Later');
    // A dialog's name (its title) is not its content: its text is what it contains.
    expect(snapshot.text('e2')).toBe('Delete 3 files? Delete all Later');
    expect(snapshot.text('e1')).toBe(snapshot.text('e2'));
    expect(snapshot.text('e404')).toBe('');
  });

  it(`caps text at ${MAX_TEXT_CHARS} characters`, () => {
    const long = record({
      role: 'document',
      children: Array.from({ length: 2_000 }, (_, i) => ({ role: 'text', name: `line ${i}` })),
    });
    const text = long.text('e1');
    expect(text).toHaveLength(MAX_TEXT_CHARS + TEXT_ELLIPSIS.length);
    expect(text.startsWith('line 0 line 1 line 2')).toBe(true);
    expect(text.endsWith(TEXT_ELLIPSIS)).toBe(true);
  });
});
