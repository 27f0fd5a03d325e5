import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSession, startFixtureSessionWithPolicy } from './helpers/fixture-session.js';

/** A pattern of the operator's own in the policy file, masked beside the built-in ones. */
const POLICY = `
version: 1
nonInteractive: ALLOW
redact:
  - name: employee-id
    pattern: "/EMP-\\\\d{6}/"
`;

const AUDITED_CLICKS =
  '{ audit(first: 500, filter: { operations: ["click"] }) { edges { node { arguments } } } }';

describe('redaction patterns from the policy file', () => {
  let app: FixtureSession;
  beforeAll(async () => {
    app = await startFixtureSessionWithPolicy(POLICY);
  });
  afterAll(() => app?.stop());

  it("masks the policy's own pattern and a national id in the audit, as the built-in ones are", async () => {
    // Locators are recorded in clear, scrubbed by pattern: these name no element, and fail fast.
    for (const testId of ['badge EMP-204519', 'ssn 219-09-9999', 'part 900-00-0000'])
      await app.send(`mutation { click(target: { testId: "${testId}" }, timeoutMs: 50) { windowId } }`);
    const { audit } = await app.data(AUDITED_CLICKS);
    const recorded = audit.edges
      .map((edge: { node: { arguments: string } }) => edge.node.arguments)
      .join('\n');
    expect(recorded).toContain('badge [REDACTED:employee-id]');
    expect(recorded).not.toContain('EMP-204519');
    expect(recorded).toContain('ssn [REDACTED:national-id]');
    expect(recorded).not.toContain('219-09-9999');
    // Never issued (area 9xx), so not a national id: a part number stays readable.
    expect(recorded).toContain('part 900-00-0000');
  });
});
