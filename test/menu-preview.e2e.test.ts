import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSession, startFixtureSessionWithPolicy } from './helpers/fixture-session.js';

/**
 * A governed menu invoke is previewed from the menu as the gateway last read it (no round trip to the main
 * process), and the invoke checks, in the same call as its click, that the item is still the one shown.
 * Here the app swaps the item for one the policy denies between two invokes: the second is decided again on
 * the item as it is now, denied, and the app's handler never runs.
 */
const POLICY = `version: 1
nonInteractive: ALLOW
rules:
  - id: no-radio-items
    description: a rule on the menu item's role, which the app changes under the gateway
    operation: [invokeMenuItem]
    target: { kind: [menuItem], role: menuitemradio }
    decision: DENY
  - id: the-test-rebuilds-the-menu
    description: the test swaps the app's menu from its main process on purpose
    operation: [evalMain]
    decision: ALLOW
`;

const DARK_MODE = 'mutation { invokeMenuItem(path: ["View", "Dark Mode"]) { invoked reason label } }';
/** The same label, now a radio item whose handler marks that it ran. */
const SWAP = `mutation { evalMain(code: ${JSON.stringify(`({ Menu }) => {
  globalThis.radioRan = false;
  Menu.setApplicationMenu(Menu.buildFromTemplate([
    { label: 'View', submenu: [{ label: 'Dark Mode', type: 'radio', click: () => { globalThis.radioRan = true; } }] },
  ]));
  return true;
}`)}) { json } }`;
const RADIO_RAN = 'mutation { evalMain(code: "() => globalThis.radioRan") { json } }';

describe('menu invoke previewed from the menu as last read', () => {
  let fixture: FixtureSession;

  beforeAll(async () => {
    fixture = await startFixtureSessionWithPolicy(POLICY);
  });
  afterAll(async () => {
    await fixture?.stop();
  });

  it('decides again on an item that changed since the last read, and never clicks it under the old decision', async () => {
    // Twice: the first preview reads the menu, the second is shown it as read.
    for (let i = 0; i < 2; i += 1)
      expect((await fixture.data(DARK_MODE)).invokeMenuItem).toEqual({
        invoked: true,
        reason: null,
        label: 'Dark Mode',
      });
    await fixture.data(SWAP);

    const denied = await fixture.failure(DARK_MODE);
    expect(denied).toMatchObject({ code: 'POLICY_DENIED' });
    expect(denied.message).toContain('no-radio-items');
    expect((await fixture.data(RADIO_RAN)).evalMain.json).toBe('false');

    // The refused invoke is recorded once, with the item as it was when refused.
    const audit = await fixture.data(
      '{ audit(first: 500, filter: { operations: ["invokeMenuItem"] }) { edges { node { decision outcome target { role name } } } } }',
    );
    expect(audit.audit.edges.map((edge: { node: unknown }) => edge.node)).toEqual([
      { decision: 'ALLOW', outcome: 'OK', target: { role: 'menuitemcheckbox', name: 'Dark Mode' } },
      { decision: 'ALLOW', outcome: 'OK', target: { role: 'menuitemcheckbox', name: 'Dark Mode' } },
      { decision: 'DENY', outcome: 'DENIED', target: { role: 'menuitemradio', name: 'Dark Mode' } },
    ]);
  });
});
