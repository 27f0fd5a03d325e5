import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import type { LaunchInput } from '../generated/graphql.js';

/**
 * The fixture app as Electron is given it: its folder, whose package.json names it ("Stagegraph Fixture",
 * 1.0.0). Electron reads no package.json beside a script it is given, so `fixtures/app/main.js` would run
 * as "Electron" with Electron's version.
 */
export const FIXTURE_APP_MAIN = fileURLToPath(new URL('../../fixtures/app', import.meta.url));
export const STAND_IN = fileURLToPath(new URL('../../fixtures/electron-standin/electron', import.meta.url));

/**
 * The Electron executables this run can test against: always the stand-in, plus real Electron when
 * ELECTRON_PATH names one. Suites iterate over these so the same assertions run on both.
 */
export const ELECTRON_TARGETS: readonly { name: string; executablePath: string }[] = [
  { name: 'stand-in', executablePath: STAND_IN },
  ...(process.env.ELECTRON_PATH
    ? [{ name: 'real Electron', executablePath: process.env.ELECTRON_PATH }]
    : []),
];

/**
 * How long a suite's launch may take before LAUNCH_TIMEOUT: the most the gateway allows. The default (30 s)
 * is a user's quiet machine; a shared CI machine at load 15 has taken longer to start an isolated app.
 */
export const SUITE_LAUNCH_TIMEOUT_MS = 120_000;

export function fixtureLaunch(executablePath = STAND_IN, env: Record<string, string> = {}): LaunchInput {
  return {
    main: FIXTURE_APP_MAIN,
    executablePath,
    timeoutMs: SUITE_LAUNCH_TIMEOUT_MS,
    env: Object.entries(env).map(([name, value]) => ({ name, value })),
  };
}

/** Where no Electron binary is named, a suite says by name that its real-Electron run was skipped. */
export function reportRealElectronSkipped(suite: string): void {
  if (process.env.ELECTRON_PATH) return;
  describe.skip(`${suite} on real Electron (ELECTRON_PATH not set)`, () => {
    it('runs the same tests against a real Electron binary', () => {});
  });
}
