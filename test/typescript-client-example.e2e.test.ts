import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_READY_TIMEOUT_MS, runCommand, type ServedDemo, serveDemo } from './helpers/served-demo.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A safety net only. */
const FLOW_TIMEOUT_MS = 180_000;

let demo: ServedDemo;

/** The command clients/typescript/README.md gives, against the served demo's URL. */
function example(...args: string[]) {
  return runCommand('npx', ['tsx', 'clients/typescript/example.ts', '--url', demo.gateway.url, ...args], {
    cwd: ROOT,
    timeout: FLOW_TIMEOUT_MS,
  });
}

beforeAll(async () => {
  demo = await serveDemo('typescript-example-e2e');
}, DEMO_READY_TIMEOUT_MS + 30_000);
afterAll(async () => {
  expect(await demo?.stop()).toBe(0);
});

describe('the TypeScript client example (clients/typescript/example.ts) against the served demo', () => {
  it('runs the whole flow as its README says and prints its summary', {
    timeout: FLOW_TIMEOUT_MS + 10_000,
  }, async () => {
    const result = await example('--name', 'Grace Hopper');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('stagegraph typescript example: OK');
    expect(result.stdout).toMatch(/session: +s1 RUNNING, \d+ interactive outline lines/);
    expect(result.stdout).toContain('steps:    fill ok, click ok, expect ok');
    expect(result.stdout).toContain('console:  "fixture: button clicked"');
    expect(result.stdout).toMatch(/failure: +EXPECTATION_FAILED \(retryable: (true|false)\)/);
  });

  it('exits 1 with the error code when the gateway refuses', {
    timeout: FLOW_TIMEOUT_MS + 10_000,
  }, async () => {
    const result = await example('--token', 'not-a-token-of-this-gateway');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^UNAUTHENTICATED /);
  });
});
