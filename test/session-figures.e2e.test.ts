import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSession, startFixtureSessionWithPolicy } from './helpers/fixture-session.js';

/**
 * Issue 37, item 5: a session's figures, counted where each thing happens. Key presses ask for an approval
 * and nobody is watching, so the policy's non-interactive mode denies them.
 */
const POLICY = `version: 1
nonInteractive: DENY
rules:
  - id: ask-before-keys
    operation: [press]
    decision: ASK
`;

let app: FixtureSession;
beforeAll(async () => {
  app = await startFixtureSessionWithPolicy(POLICY);
});
afterAll(() => app?.stop());

const FIGURES = `{ session { figures { snapshots actions ocrReads cachedOcrReads ocrFallbacks
  approvalsAsked approvalsGranted approvalsDenied } } }`;

describe('session figures', () => {
  it('counts a snapshot, two clicks and one approval asked and denied', async () => {
    // The fixture's start already clicked (it stops the page's clock): counted from here.
    const before = (await app.data(FIGURES)).session.figures;
    await app.data('{ session { window { snapshot { nodes { ref } } } } }');
    await app.data('mutation { click(target: { role: "button", name: "Log to console" }) { windowId } }');
    await app.data('mutation { click(target: { text: "Far Button" }) { windowId } }');
    const denied = await app.failure('mutation { press(key: "Enter") { windowId } }');
    expect(denied.code).toBe('POLICY_DENIED');
    const after = (await app.data(FIGURES)).session.figures;
    const counted = Object.fromEntries(
      Object.entries(after).map(([name, count]) => [name, Number(count) - Number(before[name])]),
    );
    expect(counted).toEqual({
      snapshots: 1,
      actions: 2,
      ocrReads: 0,
      cachedOcrReads: 0,
      ocrFallbacks: 0,
      approvalsAsked: 1,
      approvalsGranted: 0,
      approvalsDenied: 1,
    });
  });
});
