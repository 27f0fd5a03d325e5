import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_READY_TIMEOUT_MS, runCommand, type ServedDemo, serveDemo } from './helpers/served-demo.js';

const EXAMPLE = fileURLToPath(new URL('../clients/python/example_flow.py', import.meta.url));
/** The system Python with Debian's python3-requests and python3-websockets (.ci/run installs them). */
const PYTHON = '/usr/bin/python3';
/** A safety net only. */
const FLOW_TIMEOUT_MS = 180_000;

let demo: ServedDemo;

function example(...args: string[]) {
  // No __pycache__ left in the work tree.
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
  return runCommand(PYTHON, [EXAMPLE, '--url', demo.gateway.url, ...args], { timeout: FLOW_TIMEOUT_MS, env });
}

beforeAll(async () => {
  demo = await serveDemo('python-client-e2e');
}, DEMO_READY_TIMEOUT_MS + 30_000);
afterAll(async () => {
  expect(await demo?.stop()).toBe(0);
});

describe('the Python example client (clients/python) against the demo', () => {
  it('runs the whole flow and prints its summary', { timeout: FLOW_TIMEOUT_MS + 10_000 }, async () => {
    const result = await example('--name', 'Ada Lovelace');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('stagegraph python example: OK');
    expect(result.stdout).toMatch(/session: +s1 RUNNING via playwright-electron, app Stagegraph Fixture/);
    expect(result.stdout).toMatch(/outline: +\d+ interactive lines of "Stagegraph Fixture"/);
    expect(result.stdout).toMatch(/steps: +fill e\d+, click e\d+ "Save draft" in one mutation/);
    expect(result.stdout).toContain(
      'expect:   status reads "Clicked: save-draft", name holds "Ada Lovelace"',
    );
    expect(result.stdout).toContain('console:  log "fixture: button clicked"');
  });

  it('exits non-zero with the error code and hint when the gateway refuses', async () => {
    const result = await example('--token', 'not-a-token-of-this-gateway');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^stagegraph python example: FAILED\nUNAUTHENTICATED: .+\n {2}hint: /);
  });
});
