import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSession, startFixtureSessionWithPolicy } from './helpers/fixture-session.js';

/**
 * Operations pick their window without asking any renderer for its title (issue 18); whatever answers with
 * a title, and what the policy is shown, still has the window's title as it is now.
 */
const POLICY = `version: 1
nonInteractive: ALLOW
rules:
  - id: not-in-renamed-windows
    description: a rule on the window's title, to see which title the policy is shown
    operation: [click]
    session: { windowTitle: "Renamed*" }
    decision: DENY
  - id: renaming-is-eval
    description: the test renames the window from its page on purpose
    operation: evalRenderer
    decision: ALLOW
`;

const rename = (title: string) =>
  `mutation { evalRenderer(code: ${JSON.stringify(`() => { document.title = ${JSON.stringify(title)}; return document.title; }`)}) { json } }`;
const CLICK_LOG = 'mutation { click(target: { testId: "log" }) { elapsedMs } }';

describe('window identity', () => {
  let fixture: FixtureSession;

  beforeAll(async () => {
    fixture = await startFixtureSessionWithPolicy(POLICY);
  });
  afterAll(async () => {
    await fixture?.stop();
  });

  it('answers with the title the page has now, in listings, lookups, selection by title and the policy', async () => {
    await fixture.data(CLICK_LOG);
    // The page's title changes under the gateway; the eval answers once the document has it.
    const renamed = await fixture.data(rename('Renamed window'));
    expect(renamed.evalRenderer.json).toBe('"Renamed window"');

    const read = await fixture.data(
      '{ session { windows { id title } window { id title } activeWindow { title } } }',
    );
    expect(read.session.windows).toEqual([{ id: 'w1', title: 'Renamed window' }]);
    expect(read.session.window).toEqual({ id: 'w1', title: 'Renamed window' });
    expect(read.session.activeWindow.title).toBe('Renamed window');
    const switched = await fixture.data(
      'mutation { switchWindow(window: { titleContains: "Renamed" }) { id title } }',
    );
    expect(switched.switchWindow).toEqual({ id: 'w1', title: 'Renamed window' });

    // The policy sees the new title on the very next operation: the rule on it denies the click.
    const denied = await fixture.failure(CLICK_LOG);
    expect(denied).toMatchObject({ code: 'POLICY_DENIED' });

    // And the old one again once the page has it back.
    await fixture.data(rename('Stagegraph Fixture'));
    await fixture.data(CLICK_LOG);
    const back = await fixture.data('{ session { windows { title } window { title } } }');
    expect(back.session).toEqual({
      windows: [{ title: 'Stagegraph Fixture' }],
      window: { title: 'Stagegraph Fixture' },
    });
  });

  it('says WINDOW_NOT_FOUND, listing the open windows, for a window that is not open', async () => {
    const missing = await fixture.failure(
      'mutation { click(window: "w9", target: { testId: "log" }) { elapsedMs } }',
    );
    expect(missing).toMatchObject({ code: 'WINDOW_NOT_FOUND', details: { openWindows: ['w1'] } });
  });
});
