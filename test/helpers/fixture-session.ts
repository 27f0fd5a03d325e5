import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServeConfig } from '../../server/config.js';
import type { LaunchTransport } from '../../transports/contract/transport-contract.js';
import { ClickDocument, LaunchDocument } from '../generated/graphql.js';
import { ELECTRON_TARGETS, fixtureLaunch, STAND_IN } from './fixture-app.js';
import { type RunningGateway, startGateway } from './gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './gateway-client.js';
import { plainChromiumTransport } from './plain-chromium.js';

export type { Loose };

export interface FixtureSession extends GatewayClient {
  readonly gateway: RunningGateway;
  readonly sessionId: string;
  stop(): Promise<void>;
}

/**
 * In plain Chromium there is no preload: the page's bridge to its main process is replaced by one that
 * does nothing, which is all the page-level suites need.
 */
const NO_MAIN_PROCESS = `window.fixture = new Proxy({}, { get: () => () => {} });`;
const FIXTURE_PAGE = new URL('../../fixtures/app/index.html', import.meta.url).href;

/** Page-level suites drive unattended; see the file for what it allows. */
export const UNATTENDED_POLICY = fileURLToPath(
  new URL('../../fixtures/policies/unattended.yaml', import.meta.url),
);
/** Suites act as fast as the page answers; the rate limit itself is tested in governance.e2e. */
const SUITE_MUTATIONS_PER_SECOND = 1_000;

/** The fixture window's first click; the gateway's 5 s default is a quiet machine's figure. */
const FIRST_ACTION_TIMEOUT_MS = 60_000;

/** A gateway with the fixture window open, its clock ticking stopped so the page holds still. */
export async function startFixtureSession(
  executablePath = STAND_IN,
  transports?: readonly LaunchTransport[],
  /** More of the gateway's configuration (a suite's own keep-alive, say). */
  overrides: Partial<ServeConfig> = {},
): Promise<FixtureSession> {
  const gateway = await startGateway(
    { policyFile: UNATTENDED_POLICY, mutationsPerSecond: SUITE_MUTATIONS_PER_SECOND, ...overrides },
    transports,
  );
  const client = gatewayClient(gateway.url);
  const { launch } = await client.data(LaunchDocument, { input: fixtureLaunch(executablePath) });
  // The window's first action, while its renderer may still be busy starting on a loaded machine: patient.
  await client.data(ClickDocument, {
    target: { testId: 'stop-ticking' },
    timeoutMs: FIRST_ACTION_TIMEOUT_MS,
  });
  return { ...client, gateway, sessionId: launch!.id, stop: () => gateway.stop() };
}

/**
 * The fixture session under a suite's own policy (YAML text) with eval opened for both processes, its
 * policy file removed again when the session stops.
 */
export async function startFixtureSessionWithPolicy(policyYaml: string): Promise<FixtureSession> {
  const policyDir = mkdtempSync(join(tmpdir(), 'stagegraph-suite-policy-'));
  const policyFile = join(policyDir, 'policy.yaml');
  writeFileSync(policyFile, policyYaml);
  const removePolicy = () => rmSync(policyDir, { recursive: true, force: true });
  const fixture = await startFixtureSession(STAND_IN, undefined, { allowEval: 'both', policyFile }).catch(
    (error: unknown) => {
      removePolicy();
      throw error;
    },
  );
  return {
    ...fixture,
    async stop() {
      await fixture.stop();
      removePolicy();
    },
  };
}

/**
 * Every host the page-level suites run on: the fixture app on the stand-in (and on real Electron when
 * ELECTRON_PATH names one), and the same page alone in plain Chromium.
 */
export const FIXTURE_HOSTS: readonly { name: string; start: () => Promise<FixtureSession> }[] = [
  ...ELECTRON_TARGETS.map((target) => ({
    name: target.name,
    start: () => startFixtureSession(target.executablePath),
  })),
  {
    name: 'plain Chromium',
    start: () => startFixtureSession(STAND_IN, [plainChromiumTransport(FIXTURE_PAGE, NO_MAIN_PROCESS)]),
  },
];
