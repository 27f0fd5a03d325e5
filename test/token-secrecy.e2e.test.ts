import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StopDocument } from './generated/graphql.js';
import { FIXTURE_APP_MAIN, fixtureLaunch, STAND_IN } from './helpers/fixture-app.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { expectGroupsGone, livingGroupMembers } from './helpers/processes.js';

const AGENT_TOKEN = 'agent-token-4c1d9e';
const APPROVER_TOKEN = 'approver-token-77ab02';
const WRONG_TOKEN = 'wrong-token-e03f51';
const SECRETS = [AGENT_TOKEN, APPROVER_TOKEN, WRONG_TOKEN];

/** Every file under `folder`, with its text. */
async function filesUnder(folder: string): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        return { path, text: await readFile(path, 'latin1') };
      }),
  );
}

/** The environment a process started with, as NAME=value lines. */
async function environmentOf(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
}

describe('tokens stay secret', () => {
  let dir: string;
  let server: GatewayProcess;
  let agent: GatewayClient;
  const launchedGroups: number[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagegraph-token-secrecy-'));
    // From the environment, as a service manager would pass them: the way a token could reach an app.
    server = await serveInChild(['--artifacts', join(dir, 'artifacts'), '--audit-dir', join(dir, 'audit')], {
      STAGEGRAPH_TOKEN: AGENT_TOKEN,
      STAGEGRAPH_APPROVER_TOKEN: APPROVER_TOKEN,
    });
    agent = gatewayClient(server.url, { authorization: `Bearer ${AGENT_TOKEN}` });
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await expectGroupsGone(launchedGroups, 30_000);
    await rm(dir, { recursive: true, force: true });
  });

  it('a wrong token is refused without being echoed', async () => {
    const refused = await gatewayClient(server.url, { authorization: `Bearer ${WRONG_TOKEN}` }).send(
      '{ sessions { id } }',
    );
    expect(refused.status).toBe(401);
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(JSON.stringify(refused)).not.toContain(WRONG_TOKEN);
  });

  it('apps the gateway launches do not inherit its tokens (launch and launchCommand)', async () => {
    const launched = await agent.data(
      'mutation ($input: LaunchInput!) { launch(input: $input) { id pid } }',
      { input: fixtureLaunch() },
    );
    const commanded = await agent.data(
      'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id pid } }',
      { input: { command: STAND_IN, args: [FIXTURE_APP_MAIN] } },
    );
    for (const session of [launched.launch, commanded.launchCommand]) {
      launchedGroups.push(session.pid);
      // The app, its stand-in runtime and its Chromium alike.
      const members = livingGroupMembers(session.pid);
      expect(members).toContain(session.pid);
      for (const pid of members) {
        const environment = (await environmentOf(pid)).join('\n');
        expect(environment, `process ${pid}`).not.toMatch(/STAGEGRAPH_(APPROVER_)?TOKEN/);
        for (const secret of SECRETS) expect(environment, `process ${pid}`).not.toContain(secret);
      }
    }
    // Work that writes the audit trail, a run log and a saved screenshot.
    await agent.data(
      `mutation { fill(session: "${launched.launch.id}", target: { testId: "name" }, value: "Ada") { target { ref } } }`,
    );
    await agent.data(
      `{ session(id: "${launched.launch.id}") { window { screenshot(save: true) { path } } } }`,
    );
    const failed = await agent.failure(
      `mutation { click(session: "${launched.launch.id}", target: { testId: "nothing-here" }, timeoutMs: 200) { elapsedMs } }`,
    );
    expect(JSON.stringify(failed)).not.toMatch(new RegExp(SECRETS.join('|')));
    const approverView = await gatewayClient(server.url, { authorization: `Bearer ${APPROVER_TOKEN}` }).data(
      '{ audit(first: 50) { edges { node { client { id } operation } } } }',
    );
    expect(approverView.audit.edges.length).toBeGreaterThan(0);
    for (const session of [launched.launch, commanded.launchCommand]) {
      await agent.data(StopDocument, { id: session.id });
    }
  });

  it('no token is written to the server log, the audit trail or the artifacts', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toMatchObject({ code: 0 });
    const written = [
      { path: 'server log (stderr)', text: server.stderr() },
      ...(await filesUnder(join(dir, 'audit'))),
      ...(await filesUnder(join(dir, 'artifacts'))),
    ];
    expect(written.filter((file) => file.path.includes('audit')).length).toBeGreaterThan(0);
    expect(written.some((file) => file.path.endsWith('.png'))).toBe(true);
    for (const file of written) {
      for (const secret of SECRETS) expect(file.text, file.path).not.toContain(secret);
    }
  });
});
