import { describe, expect, it } from 'vitest';
import { rawSnapshot, type TreeSpec } from '../../test/helpers/fabricated-snapshots.js';
import { diff } from './diff.js';
import { diffOutline } from './diff-outline.js';
import { RefStore } from './ref-store.js';

const page = (children: TreeSpec[]): TreeSpec => ({ role: 'document', name: 'Form', key: 1, children });

describe('diffOutline', () => {
  it('marks removed, changed (with what the fields were) and added nodes, added subtrees folded', () => {
    const store = new RefStore('s1');
    const before = store.recordNow(
      'w1',
      rawSnapshot(
        page([
          { role: 'checkbox', name: 'Agree', key: 2, interactive: true },
          { role: 'textbox', name: 'Email', key: 3, value: 'a@b' },
          { role: 'button', name: 'Send', key: 4 },
        ]),
      ),
    );
    const after = store.recordNow(
      'w1',
      rawSnapshot(
        page([
          { role: 'checkbox', name: 'Agree', key: 2, interactive: true, states: ['CHECKED'] },
          { role: 'textbox', name: 'Email', key: 3, value: 'a@b.c', description: 'Invalid' },
          {
            role: 'dialog',
            name: 'Sent',
            key: 5,
            children: [
              { role: 'paragraph', key: 6, children: [{ role: 'text', name: 'Thanks', key: 7 }] },
              {
                role: 'combobox',
                name: 'Rating',
                key: 8,
                value: 'Good',
                optionCount: 2,
                children: [
                  { role: 'option', name: 'Good', key: 9, states: ['SELECTED'] },
                  { role: 'option', name: 'Bad', key: 10 },
                ],
              },
              { role: 'link', name: 'Back', key: 11, url: 'file:///fixture.html#top' },
            ],
          },
        ]),
        { detached: [4] },
      ),
    );
    expect(diffOutline(diff(before, after))).toBe(
      [
        '- e4 button "Send"',
        '~ e2 checkbox "Agree" [checked] (was [])',
        '~ e3 textbox "Email" = "a@b.c" description "Invalid" (was = "a@b" description none)',
        '+ e5 dialog "Sent"',
        '+  e6 paragraph',
        '+   e7 text "Thanks"',
        '+  e8 combobox "Rating" = "Good" (2 options)',
        '+  e11 link "Back" <#top>',
      ].join('\n'),
    );
  });

  it('says in one line that a replaced document took every earlier ref with it', () => {
    const store = new RefStore('s1');
    const before = store.recordNow('w1', rawSnapshot(page([{ role: 'button', name: 'Go', key: 2 }])));
    const after = store.recordNow(
      'w1',
      rawSnapshot(page([{ role: 'button', name: 'Went', key: 2 }]), { documentId: 'doc-2' }),
    );
    expect(diffOutline(diff(before, after))).toBe(
      [
        '- 2 nodes of the replaced document (their refs are stale)',
        '+ e3 document "Form"',
        '+  e4 button "Went"',
      ].join('\n'),
    );
  });

  it('is empty when nothing changed', () => {
    const store = new RefStore('s1');
    const snapshot = () => store.recordNow('w1', rawSnapshot(page([{ role: 'button', name: 'Go', key: 2 }])));
    expect(diffOutline(diff(snapshot(), snapshot()))).toBe('');
  });
});
