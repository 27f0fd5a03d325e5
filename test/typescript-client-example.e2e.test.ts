import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, serveInChild, whenPrinted } from './helpers/gateway-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Safety nets only: the demo launches within seconds on a quiet machine, a loaded one takes a minute. */
const DEMO_READY_TIMEOUT_MS = 120_000;
const FLOW_TIMEOUT_MS = 180_000;

const run = promisify(execFile);

let dir: string;
let demo: GatewayProcess;

/** The command clients/typescript/README.md gives, against the served demo's URL. */
async function example(...args: string[]) {
  return run('npx', ['tsx', 'clients/typescript/example.ts', '--url', demo.url, ...args], {
    cwd: ROOT,
    timeout: FLOW_TIMEOUT_MS,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-typescript-example-e2e-'));
  demo = await serveInChild(['--demo', '--audit-dir', join(dir, 'audit'), '--artifacts', dir]);
  await whenPrinted(demo, /demo session s1 \(.*\) is RUNNING/, DEMO_READY_TIMEOUT_MS);
}, DEMO_READY_TIMEOUT_MS + 30_000);
afterAll(async () => {
  demo?.child.kill('SIGTERM');
  expect((await demo?.exited)?.code).toBe(0);
  await rm(dir, { recursive: true, force: true });
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
