import { describe, expect, it } from 'vitest';
import { rawSnapshot, type TreeSpec } from '../../test/helpers/fabricated-snapshots.js';
import { linkTarget, MAX_LINK_CHARS } from './link-target.js';
import { outline } from './outline.js';
import { RefStore } from './ref-store.js';

const select = (name: string, chosen: string): TreeSpec => ({
  role: 'combobox',
  name,
  value: chosen,
  optionCount: 3,
  interactive: true,
  children: ['Open', 'Pending', 'Closed'].map((label) => ({
    role: 'option',
    name: label,
    states: label === chosen ? ['SELECTED'] : [],
  })),
});

/** A row of the bench table: every cell's name comes from its content. */
const orderRow: TreeSpec = {
  role: 'row',
  name: '1 Customer 1 Open Edit Details',
  children: [
    { role: 'cell', name: '1' },
    { role: 'cell', name: 'Customer 1' },
    { role: 'cell', name: 'Open', children: [select('Status of order 1', 'Open')] },
    {
      role: 'cell',
      name: 'Edit Details',
      children: [
        { role: 'button', name: 'Edit', interactive: true },
        { role: 'link', name: 'Details', url: 'file:///fixture.html#order-1', interactive: true },
      ],
    },
  ],
};

const record = (root: TreeSpec, scope = {}) => new RefStore('s1').recordNow('w1', rawSnapshot(root), scope);

describe('outline', () => {
  it('writes one line a node, one space a level, with ref, role, quoted name, value, level and states', () => {
    const snapshot = record({
      role: 'document',
      name: 'Shop',
      children: [
        { role: 'heading', name: 'Cart', level: 2 },
        {
          role: 'form',
          name: 'Pay',
          children: [
            { role: 'textbox', name: 'Card "main"', value: '4111' },
            { role: 'button', name: 'Buy', states: ['DISABLED'] },
          ],
        },
      ],
    });
    expect(outline(snapshot, snapshot.nodes)).toBe(
      [
        'e1 document "Shop"',
        ' e2 heading "Cart" level=2',
        ' e3 form "Pay"',
        '  e4 textbox "Card \\"main\\"" = "4111"',
        '  e5 button "Buy" [disabled]',
      ].join('\n'),
    );
    expect(outline(snapshot, snapshot.nodes.slice(3))).toBe(
      '  e4 textbox "Card \\"main\\"" = "4111"\n  e5 button "Buy" [disabled]',
    );
  });

  it('does not repeat cells in their row, a select in its cell, options under their select, or links’ pages', () => {
    const snapshot = record({
      role: 'document',
      name: 'Orders',
      children: [{ role: 'table', name: 'Orders', children: [orderRow] }],
    });
    // The link leads to a part of the page it is on: it shows only the fragment.
    expect(outline(snapshot, snapshot.nodes)).toBe(
      [
        'e1 document "Orders"',
        ' e2 table "Orders"',
        '  e3 row',
        '   e4 cell "1"',
        '   e5 cell "Customer 1"',
        '   e6 cell',
        '    e7 combobox "Status of order 1" = "Open" (3 options)',
        '   e11 cell',
        '    e12 button "Edit"',
        '    e13 link "Details" <#order-1>',
      ].join('\n'),
    );
  });

  it('lists the options of a select read `within` it', () => {
    const snapshot = record(select('Status', 'Pending'), { within: 1 });
    expect(outline(snapshot, snapshot.nodes)).toBe(
      [
        'e1 combobox "Status" = "Pending" (3 options)',
        ' e2 option "Open"',
        ' e3 option "Pending" [selected]',
        ' e4 option "Closed"',
      ].join('\n'),
    );
  });

  it('folds a text that is all of its parent’s name into the parent, and keeps names that say more', () => {
    const snapshot = record({
      role: 'document',
      name: 'Page',
      children: [
        { role: 'caption', name: 'Orders  (3)', children: [{ role: 'text', name: 'Orders (3)' }] },
        { role: 'paragraph', children: [{ role: 'text', name: 'Plain text' }] },
        {
          role: 'row',
          name: 'Remove order 3',
          children: [{ role: 'cell', name: 'Remove', children: [{ role: 'button', name: 'Remove' }] }],
        },
        { role: 'heading', name: 'Docs', level: 2, children: [{ role: 'link', name: 'Docs' }] },
      ],
    });
    expect(outline(snapshot, snapshot.nodes)).toBe(
      [
        'e1 document "Page"',
        ' e2 caption "Orders  (3)"',
        ' e4 paragraph',
        '  e5 text "Plain text"',
        ' e6 row "Remove order 3"',
        '  e7 cell',
        '   e8 button "Remove"',
        ' e9 heading level=2',
        '  e10 link "Docs"',
      ].join('\n'),
    );
  });
});

describe('linkTarget', () => {
  const page = 'https://shop.test/orders?page=2';
  it('is the fragment on the same page, the path on the same origin, and the whole URL elsewhere', () => {
    expect(linkTarget('https://shop.test/orders?page=2#top', page)).toBe('#top');
    expect(linkTarget('https://shop.test/orders?page=3', page)).toBe('/orders?page=3');
    expect(linkTarget('https://shop.test/orders?page=2', page)).toBe('/orders?page=2');
    expect(linkTarget('https://docs.test/a', page)).toBe('https://docs.test/a');
    expect(linkTarget('file:///tmp/a.html#x', 'file:///tmp/a.html')).toBe('#x');
    expect(linkTarget('mailto:ada@shop.test', page)).toBe('mailto:ada@shop.test');
  });

  it('cuts a long target and says so', () => {
    const long = `https://docs.test/${'a'.repeat(300)}`;
    expect(linkTarget(long, page)).toBe(`${long.slice(0, MAX_LINK_CHARS)}…`);
  });
});
