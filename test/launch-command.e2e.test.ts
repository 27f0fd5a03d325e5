import { mkdtempSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickDocument, StopDocument } from './generated/graphql.js';
import { FIXTURE_APP_MAIN, STAND_IN } from './helpers/fixture-app.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { expectGroupsGone, livingGroupMembers } from './helpers/processes.js';

/** A shell script that ignores its arguments (the DevTools switches Stagegraph adds). */
async function script(name: string, body: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'stagegraph-command-'));
  const path = join(folder, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

describe('launchCommand: any command with a DevTools port, owned and recorded', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  const send = (query: string, variables?: Record<string, unknown>) => api.send(query, variables);
  const data = (query: string, variables?: Record<string, unknown>) => api.data(query, variables);
  const failure = (query: string, variables?: Record<string, unknown>) => api.failure(query, variables);
  const launchCommand = (input: Record<string, unknown>) =>
    send(
      'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id status transport ownsProcess pid endpoint windows { id title } } }',
      { input },
    );

  /** Its own folder: test files run side by side, and each gateway numbers its sessions from s1. */
  const artifactsDir = mkdtempSync(join(tmpdir(), 'stagegraph-launch-command-'));

  beforeAll(async () => {
    gateway = await startGateway({ artifactsDir });
    api = gatewayClient(gateway.url);
  });
  afterAll(() => gateway?.stop());

  it('starts the fixture app on the stand-in, records its output, drives it, and reaps its whole tree on stop', async () => {
    const response = await launchCommand({ command: STAND_IN, args: [FIXTURE_APP_MAIN] });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const session = response.data.launchCommand;
    expect(session).toMatchObject({
      status: 'RUNNING',
      transport: 'cdp',
      ownsProcess: true,
      windows: [{ id: 'w1' }],
    });
    // The window is announced as soon as it exists; its document (and so its title) may still be loading.
    await expect
      .poll(
        async () => (await data(`{ session(id: "${session.id}") { windows { id title } } }`)).session.windows,
      )
      .toEqual([{ id: 'w1', title: 'Stagegraph Fixture' }]);
    const port = Number(/^ws:\/\/127\.0\.0\.1:(\d+)\//.exec(session.endpoint)?.[1]);
    // The stand-in leads its group; its Chromium (which listens on the port) is in it.
    expect(livingGroupMembers(session.pid).length).toBeGreaterThan(1);

    const { discover } = await data(`{ discover(ports: [${port}]) { port pid targets { type title } } }`);
    expect(discover).toEqual([
      expect.objectContaining({
        port,
        targets: expect.arrayContaining([{ type: 'page', title: 'Stagegraph Fixture' }]),
      }),
    ]);
    expect(livingGroupMembers(session.pid)).toContain(discover[0].pid);

    await api.data(ClickDocument, { target: { testId: 'stop-ticking' } });
    const { stop } = await api.data(StopDocument, { id: session.id });
    expect(stop?.status).toBe('STOPPED');
    await expectGroupsGone([session.pid]);

    const folder = join(artifactsDir, session.id);
    expect(await readFile(join(folder, 'stdout.log'), 'utf8')).toContain('fixture main: ready');
    expect(await readFile(join(folder, 'stderr.log'), 'utf8')).toMatch(
      /DevTools listening on ws:\/\/127\.0\.0\.1:\d+/,
    );
  });

  it('fails EXITED_EARLY with the tail of stderr when the command dies before its port opens', async () => {
    const command = await script('dies.sh', 'echo "no display here" >&2\nexit 3');
    const error = await failure(
      'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id } }',
      {
        input: { command },
      },
    );
    expect(error).toMatchObject({
      code: 'EXITED_EARLY',
      details: { exit: { code: 3 }, stderrTail: 'no display here' },
    });
  });

  it('fails LAUNCH_TIMEOUT and kills the command when its port never opens', async () => {
    // Sleeps past the test's own timeout: a launch that waited for the command to end could not pass.
    const command = await script('hangs.sh', 'echo "waiting" >&2\necho $$ > "$0.pid"\nexec sleep 600');
    const error = await failure(
      'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id } }',
      {
        input: { command, timeoutMs: 1500 },
      },
    );
    expect(error).toMatchObject({ code: 'LAUNCH_TIMEOUT', details: { stderrTail: 'waiting' } });
    await expectGroupsGone([Number(await readFile(`${command}.pid`, 'utf8'))]);
  });

  it('fails LAUNCH_FAILED for a command that does not exist', async () => {
    const error = await failure('mutation { launchCommand(input: { command: "/no/such/command" }) { id } }');
    expect(error.code).toBe('LAUNCH_FAILED');
  });
});
