import { describe, expect, it } from 'vitest';
import { refRecoveryActions } from './next-actions.js';

describe('refRecoveryActions', () => {
  it('re-snapshots the window and finds the element again, with names quoted safely', () => {
    expect(refRecoveryActions({ sessionId: 's1', windowId: 'w1', role: 'button', name: 'Say "hi"' })).toEqual(
      [
        'query { session(id: "s1") { window(id: "w1") { snapshot(interactiveOnly: true) { outline } } } }',
        'query { session(id: "s1") { window(id: "w1") { find(role: "button", name: "Say \\"hi\\"") { ref role name } } } }',
      ],
    );
  });

  it('lists the windows when it does not know which one', () => {
    expect(refRecoveryActions({ sessionId: 's1' })).toEqual([
      'query { session(id: "s1") { windows { id title url } } }',
    ]);
  });
});
