import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, serveInChild, whenPrinted } from './helpers/gateway-process.js';

const EXAMPLE = fileURLToPath(new URL('../clients/python/example_flow.py', import.meta.url));
/** The system Python with Debian's python3-requests and python3-websockets (.ci/run installs them). */
const PYTHON = '/usr/bin/python3';
/** Safety nets only: the demo launches within seconds on a quiet machine, a loaded one takes a minute. */
const DEMO_READY_TIMEOUT_MS = 120_000;
const FLOW_TIMEOUT_MS = 180_000;

const run = promisify(execFile);

let dir: string;
let demo: GatewayProcess;

async function example(...args: string[]) {
  // No __pycache__ left in the work tree.
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
  return run(PYTHON, [EXAMPLE, '--url', demo.url, ...args], { timeout: FLOW_TIMEOUT_MS, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-python-client-e2e-'));
  demo = await serveInChild(['--demo', '--audit-dir', join(dir, 'audit'), '--artifacts', dir]);
  await whenPrinted(demo, /demo session s1 \(.*\) is RUNNING/, DEMO_READY_TIMEOUT_MS);
}, DEMO_READY_TIMEOUT_MS + 30_000);
afterAll(async () => {
  demo?.child.kill('SIGTERM');
  expect((await demo?.exited)?.code).toBe(0);
  await rm(dir, { recursive: true, force: true });
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
