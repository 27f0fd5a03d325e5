import { fileURLToPath } from 'node:url';
import type { LaunchTransport } from '../../transports/contract/transport.js';
import { ELECTRON_TARGETS, fixtureLaunch, STAND_IN } from './fixture-app.js';
import { type RunningGateway, startGateway } from './gateway.js';
import { gatewayClient, type Loose, type LooseResponse } from './gateway-client.js';
import { plainChromiumTransport } from './plain-chromium.js';

export type { Loose, LooseResponse };

export interface FixtureSession {
  readonly gateway: RunningGateway;
  readonly sessionId: string;
  /** Sends one operation over HTTP and returns the whole response. */
  send(query: string, variables?: Record<string, unknown>): Promise<LooseResponse>;
  /** Sends one operation and returns its data, failing the test on any error. */
  data(query: string, variables?: Record<string, unknown>): Promise<Loose>;
  /** Sends one operation that must fail, and returns its first error's extensions with the message. */
  failure(query: string, variables?: Record<string, unknown>): Promise<Loose>;
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

/** A gateway with the fixture window open, its clock ticking stopped so the page holds still. */
export async function startFixtureSession(
  executablePath = STAND_IN,
  transports?: readonly LaunchTransport[],
): Promise<FixtureSession> {
  const gateway = await startGateway(
    { policyFile: UNATTENDED_POLICY, mutationsPerSecond: SUITE_MUTATIONS_PER_SECOND },
    transports,
  );
  const { send, data, failure } = gatewayClient(gateway.url);
  const launched = await data('mutation ($input: LaunchInput!) { launch(input: $input) { id } }', {
    input: fixtureLaunch(executablePath),
  });
  await data('mutation { click(target: { testId: "stop-ticking" }) { elapsedMs } }');
  return { gateway, sessionId: launched.launch.id, send, data, failure, stop: () => gateway.stop() };
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
