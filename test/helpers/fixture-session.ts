import { expect } from 'vitest';
import { fixtureLaunch, STAND_IN } from './fixture-app.js';
import { http, type RunningGateway, startGateway } from './gateway.js';

/**
 * Responses as end-to-end tests read them: any path may be followed, and a wrong one fails the assertion
 * that reads it. The typed documents of test/operations cover the foundation; these suites favour
 * inline operations so each test shows the exact GraphQL an agent would send.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Loose = any;

export interface LooseResponse {
  readonly data?: Loose;
  readonly errors?: readonly { message: string; extensions?: Loose }[];
}

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

/** A gateway with the fixture app launched on the stand-in, its clock ticking stopped so pages hold still. */
export async function startFixtureSession(executablePath = STAND_IN): Promise<FixtureSession> {
  const gateway = await startGateway();
  const send = (query: string, variables?: Record<string, unknown>) =>
    http<Loose, Record<string, unknown> | undefined>(gateway.url, query, variables) as Promise<LooseResponse>;
  const data = async (query: string, variables?: Record<string, unknown>) => {
    const response = await send(query, variables);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    return response.data;
  };
  const failure = async (query: string, variables?: Record<string, unknown>) => {
    const response = await send(query, variables);
    expect(
      response.errors?.length,
      `expected an error, got ${JSON.stringify(response.data)}`,
    ).toBeGreaterThan(0);
    return { message: response.errors?.[0]?.message, ...response.errors?.[0]?.extensions };
  };
  const launched = await data('mutation ($input: LaunchInput!) { launch(input: $input) { id } }', {
    input: fixtureLaunch(executablePath),
  });
  await data('mutation { click(target: { testId: "stop-ticking" }) { elapsedMs } }');
  return { gateway, sessionId: launched.launch.id, send, data, failure, stop: () => gateway.stop() };
}
