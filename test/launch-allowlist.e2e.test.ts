import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLaunch, STAND_IN } from './helpers/fixture-app.js';
import { type GovernedRun, startGovernedRun } from './helpers/governed-gateway.js';

const ALLOWLIST = fileURLToPath(new URL('../fixtures/policies/fixture-app-only.yaml', import.meta.url));

let dir: string;
let marker: string;
let run: GovernedRun;
let sleeper: ChildProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-allowlist-e2e-'));
  marker = join(dir, 'touched');
  run = await startGovernedRun({ policyFile: ALLOWLIST }, { launch: false });
});
afterAll(async () => {
  sleeper?.kill('SIGKILL');
  await run?.stop();
  await run?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('a launch allowlist in the policy', () => {
  it('refuses launchCommand of another program with POLICY_DENIED; it never runs', async () => {
    const refused = await run.agent.failure(
      'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id } }',
      { input: { command: '/usr/bin/touch', args: [marker] } },
    );
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.message).toContain('no-other-programs');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses inject into a process whose executable is not listed, read from the process itself', async () => {
    sleeper = spawn('/bin/sleep', ['600'], { stdio: 'ignore' });
    const refused = await run.agent.failure(`mutation { inject(input: { pid: ${sleeper.pid} }) { id } }`);
    expect(refused.code).toBe('POLICY_DENIED');
    const { audit } = await run.agent.data(
      '{ audit(filter: { operations: ["inject"] }) { edges { node { decision target { kind name path } } } } }',
    );
    expect(audit.edges[0].node).toMatchObject({
      decision: 'DENY',
      target: { kind: 'PROGRAM', name: expect.stringMatching(/sleep$/), path: [expect.any(String), '600'] },
    });
  });

  it('explainPolicy shows the program and the allowlist rule it failed', async () => {
    const args = JSON.stringify({ input: { command: '/usr/bin/touch', args: [marker] } });
    const { explainPolicy } = await run.agent.data(
      `{ explainPolicy(operation: "launchCommand", args: ${JSON.stringify(args)}) {
           decision rule { id } skipped target { kind role name path } } }`,
    );
    expect(explainPolicy).toMatchObject({
      decision: 'DENY',
      rule: { id: 'no-other-programs' },
      target: { kind: 'PROGRAM', role: 'program', name: '/usr/bin/touch', path: ['/usr/bin/touch', marker] },
    });
    expect(explainPolicy.skipped[0]).toMatch(
      /fixture-app-only: target name "\/usr\/bin\/touch" is not \*\*\/fixtures\/electron-standin\/electron/,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('the allowed program still launches', async () => {
    const launched = await run.agent.data(
      'mutation ($input: LaunchInput!) { launch(input: $input) { id status } }',
      {
        input: fixtureLaunch(STAND_IN),
      },
    );
    expect(launched.launch.status).toBe('RUNNING');
    const { audit } = await run.agent.data(
      '{ audit(filter: { operations: ["launch"] }) { edges { node { decision rule { id } target { name } } } } }',
    );
    expect(audit.edges[0].node).toEqual({
      decision: 'ALLOW',
      rule: { id: 'fixture-app-only' },
      target: { name: STAND_IN },
    });
  });
});
