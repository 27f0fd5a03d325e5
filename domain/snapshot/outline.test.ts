import { describe, expect, it } from 'vitest';
import { rawSnapshot } from '../../test/helpers/fabricated-snapshots.js';
import { outline } from './outline.js';
import { RefStore } from './ref-store.js';

describe('outline', () => {
  it('writes one indented line a node with ref, role, quoted name, value, level and states', () => {
    const store = new RefStore('s1');
    const snapshot = store.record(
      'w1',
      rawSnapshot({
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
      }),
    );
    expect(outline(snapshot, snapshot.nodes)).toBe(
      [
        'e1 document "Shop"',
        '  e2 heading "Cart" level=2',
        '  e3 form "Pay"',
        '    e4 textbox "Card \\"main\\"" = "4111"',
        '    e5 button "Buy" [disabled]',
      ].join('\n'),
    );
    expect(outline(snapshot, snapshot.nodes.slice(3))).toBe(
      '    e4 textbox "Card \\"main\\"" = "4111"\n    e5 button "Buy" [disabled]',
    );
  });
});
