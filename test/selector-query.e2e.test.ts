import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import {
  DESKTOP_AVAILABLE,
  desktopSkipReason,
  FIXTURE_APP,
  SYSTEM_PYTHON,
  withoutDesktop,
} from './helpers/desktop-fixture.js';
import {
  FIXTURE_HOSTS,
  type FixtureSession,
  type Loose,
  UNATTENDED_POLICY,
} from './helpers/fixture-session.js';
import { startGateway } from './helpers/gateway.js';
import { gatewayClient } from './helpers/gateway-client.js';
import { type GovernedRun, startGovernedRun } from './helpers/governed-gateway.js';

/**
 * Query selectors through the whole gateway: one table of cases, run on every host. Each row names, per
 * fixture app, the query and the element it must land on; the expected strategy, confidence or error is
 * the row's own, so every transport must agree on it.
 */

/** The app a host shows: the web fixture page (fixtures/app) or the GTK desktop fixture (fixtures/desktop-app). */
type Fixture = 'web' | 'desktop';

interface SelectorHost {
  readonly name: string;
  readonly fixture: Fixture;
  readonly start: () => Promise<FixtureSession>;
}

/**
 * Every host the table runs on: the web fixture on the page-level suites' hosts, and the GTK fixture on a
 * desktop of its own (where Xvfb is installed). Another host is one entry naming the fixture whose column
 * it answers.
 */
const SELECTOR_HOSTS: readonly SelectorHost[] = [
  ...FIXTURE_HOSTS.map((host) => ({ ...host, fixture: 'web' as const })),
  ...(DESKTOP_AVAILABLE
    ? [{ name: 'GTK desktop', fixture: 'desktop' as const, start: startDesktopSession }]
    : []),
];

/** A gateway with the desktop transport and the GTK fixture launched on a desktop the session owns. */
async function startDesktopSession(): Promise<FixtureSession> {
  const gateway = await startGateway({ policyFile: UNATTENDED_POLICY, mutationsPerSecond: 1_000 }, [
    createAtspiTransport({ environment: withoutDesktop() }),
  ]);
  const client = gatewayClient(gateway.url);
  try {
    const { launchDesktop } = await client.data(
      'mutation ($input: LaunchDesktopInput!) { launchDesktop(input: $input) { id } }',
      { input: { command: SYSTEM_PYTHON, args: [FIXTURE_APP], timeoutMs: 60_000 } },
    );
    return { ...client, gateway, sessionId: launchDesktop.id, stop: () => gateway.stop() };
  } catch (error) {
    // A launch that failed halfway may have started a desktop: the gateway's stop ends it.
    await gateway.stop();
    throw error;
  }
}

interface Variant {
  readonly query: string;
  /** The accessible name of the element the query must land on. */
  readonly lands?: string;
  /** A mutation sent while the query waits: what makes its element appear. */
  readonly meanwhile?: string;
}

interface SelectorCase {
  readonly title: string;
  /** Per fixture; null where that app has nothing to show the case with. */
  readonly web: Variant | null;
  readonly desktop: Variant | null;
  readonly resolvedBy?: { strategy: string; confidence: string; alternative: number };
  readonly error?: { code: string; column?: number };
  readonly timeoutMs?: number;
}

const found = (strategy: string, confidence: string, alternative = 0) => ({
  strategy,
  confidence,
  alternative,
});

const CASES: readonly SelectorCase[] = [
  {
    title: 'role + exact name',
    web: { query: 'role=button name="Submit"', lands: 'Submit' },
    desktop: { query: 'role=button name="Submit"', lands: 'Submit' },
    resolvedBy: found('ROLE_NAME', 'ROLE_NAME'),
  },
  {
    title: 'name contains, any case',
    web: { query: 'role=button name~="SUBM"', lands: 'Submit' },
    desktop: { query: 'role=button name~="SUBM"', lands: 'Submit' },
    resolvedBy: found('TEXT', 'TEXT'),
  },
  {
    title: 'A >> B: inside the one match of A, as weak as the weaker step',
    web: { query: 'role=region name="Native" >> role=button name~="open"', lands: 'Open file' },
    desktop: { query: 'name="Desktop Fixture" >> role=button name~="later"', lands: 'Change later' },
    resolvedBy: found('TEXT', 'TEXT'),
  },
  {
    title: 'right-of: the nearest in the same row',
    web: { query: 'role=button right-of role=button name="Fetch data"', lands: 'Confirm' },
    desktop: { query: 'role=button right-of role=button name="Show dialog"', lands: 'Change later' },
    resolvedBy: found('SPATIAL', 'SPATIAL'),
  },
  {
    title: 'below: the nearest in the same column',
    web: { query: 'role=textbox below role=textbox name="Name"', lands: 'Password' },
    desktop: { query: 'role=textbox below role=textbox name="Name"', lands: 'Password' },
    resolvedBy: found('SPATIAL', 'SPATIAL'),
  },
  {
    title: 'A ?? B: B when A matches nothing',
    web: { query: 'role=button name="No such button" ?? role=button name="Submit"', lands: 'Submit' },
    desktop: { query: 'role=button name="No such button" ?? role=button name="Submit"', lands: 'Submit' },
    resolvedBy: found('ROLE_NAME', 'ROLE_NAME', 1),
  },
  {
    title: 'a test id is a stable id',
    web: { query: 'testId=submit', lands: 'Submit' },
    desktop: null,
    resolvedBy: found('TEST_ID', 'STABLE_ID'),
  },
  {
    title: 'waits for an element that appears while it looks',
    web: {
      query: 'role=button right-of text="Task 4"',
      lands: 'Done',
      meanwhile: 'click(target: { testId: "add-task" }) { windowId }',
    },
    desktop: {
      query: 'name="Changed"',
      lands: 'Changed',
      meanwhile: 'click(target: { role: "button", name: "Change later" }) { windowId }',
    },
    timeoutMs: 30_000,
  },
  {
    title: 'a syntax error names its column',
    web: { query: 'role=button name=' },
    desktop: { query: 'role=button name=' },
    error: { code: 'SELECTOR_SYNTAX', column: 18 },
  },
  {
    title: 'several matches are ambiguous',
    web: { query: 'role=button name~="i"' },
    desktop: { query: 'role=button name~="i"' },
    error: { code: 'AMBIGUOUS_TARGET' },
  },
  {
    title: 'nothing matching within the timeout',
    web: { query: 'role=button name="No such button"' },
    desktop: { query: 'role=button name="No such button"' },
    error: { code: 'SELECTOR_NO_MATCH' },
    timeoutMs: 1_000,
  },
];

const hover = (query: string, timeoutMs = 10_000) =>
  `mutation { hover(target: { query: ${JSON.stringify(query)} }, timeoutMs: ${timeoutMs}) {
    target { ref role name } resolvedBy { strategy confidence alternative } } }`;

if (!DESKTOP_AVAILABLE) {
  describe.skip(`query selectors on GTK desktop (${desktopSkipReason})`, () => {
    it('resolves the table of queries on the GTK fixture', () => {});
  });
}

for (const host of SELECTOR_HOSTS) {
  describe(`query selectors on ${host.name}`, () => {
    let app: FixtureSession;
    beforeAll(async () => {
      app = await host.start();
    }, 180_000);
    afterAll(() => app?.stop());

    for (const row of CASES) {
      const variant = row[host.fixture];
      it.skipIf(variant === null)(row.title, async () => {
        const { query, lands, meanwhile } = variant!;
        const operation = hover(query, row.timeoutMs);
        if (row.error) {
          const error: Loose = await app.failure(operation);
          expect(error.code, error.message).toBe(row.error.code);
          if (row.error.column !== undefined) {
            expect(error.details).toMatchObject({ column: row.error.column, query });
            expect(error.message).toContain(`column ${row.error.column}`);
          }
          if (row.error.code === 'AMBIGUOUS_TARGET') {
            expect(error.details.count).toBeGreaterThan(1);
            for (const candidate of error.details.candidates) expect(candidate.ref).toMatch(/^e\d+$/);
          }
          return;
        }
        const answer = app.data(operation);
        if (meanwhile) await app.data(`mutation { ${meanwhile} }`);
        const { hover: result } = await answer;
        expect(result.target.name).toBe(lands);
        if (row.resolvedBy) expect(result.resolvedBy).toEqual(row.resolvedBy);
        // The ref it reports is a ref like any other: the next call can name the element by it.
        const again = await app.data(`mutation { hover(target: { ref: "${result.target.ref}" }) {
          target { name } resolvedBy { strategy confidence } } }`);
        expect(again.hover).toEqual({
          target: { name: lands },
          resolvedBy: { strategy: 'REF', confidence: 'STABLE_ID' },
        });
      });
    }
  });
}

describe('policy rules on target confidence', () => {
  let run: GovernedRun;
  let dir: string;
  const POLICY = [
    'version: 1',
    'rules:',
    '  - id: no-spatial-targets',
    '    target: { confidence: [SPATIAL] }',
    '    decision: DENY',
    '  - id: ask-below-role-name',
    '    target: { confidenceBelow: ROLE_NAME }',
    '    decision: ASK',
    '',
  ].join('\n');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagegraph-selector-policy-'));
    const policyFile = join(dir, 'policy.yaml');
    await writeFile(policyFile, POLICY);
    run = await startGovernedRun({ policyFile });
  }, 180_000);
  afterAll(async () => {
    await run?.stop();
    await run?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('denies a spatial target, asks for a text one, lets a role + name one through', async () => {
    const spatial = await run.agent.failure(hover('role=button right-of role=button name="Fetch data"'));
    expect(spatial.code).toBe('POLICY_DENIED');
    expect(spatial.message).toContain('no-spatial-targets');
    // Nobody is watching to approve, so the ask fails at once (nonInteractive defaults to FAIL).
    const text = await run.agent.failure(hover('role=button name~="fetch d"'));
    expect(text.code).toBe('APPROVAL_UNAVAILABLE');
    const exact = await run.agent.data(hover('role=button name="Fetch data"'));
    expect(exact.hover.resolvedBy.confidence).toBe('ROLE_NAME');
  });

  it('explains the decision with the confidence the preview found', async () => {
    const { explainPolicy } = await run.agent.data(`{ explainPolicy(operation: "hover", target: {
      query: "role=button right-of role=button name=\\"Fetch data\\"" }) {
        decision target { name confidence } } }`);
    expect(explainPolicy).toMatchObject({
      decision: 'DENY',
      target: { name: 'Confirm', confidence: 'SPATIAL' },
    });
  });
});
